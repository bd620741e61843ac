// Approvals: what running sessions of this workspace wait for, answered here (polled every second,
// so an answer given elsewhere disappears).
import { useState } from "preact/hooks";
import { postJson } from "./api.ts";
import { ToolChanges } from "./tool-changes.tsx";
import { useApi } from "./use-api.ts";
import { useOnce } from "./use-once.ts";

interface Pending {
  id: string;
  tool: string;
  question: string;
  kind: string;
  created: string;
  channel: string;
  expires?: string;
}

interface Data {
  sessions: Array<{ id: string; pid: number; client?: string; transport: string; approvals: Pending[] }>;
}

export function Approvals() {
  const { data, error, reload } = useApi<Data>("/api/approvals", {}, 1000);
  const [message, setMessage] = useState<string>();
  const pending = (data?.sessions ?? []).flatMap((s) => s.approvals.map((a) => ({ ...a, session: s.id, client: s.client })));
  const once = useOnce();
  const answer = (session: string, id: string, choice: string) =>
    once.run(() =>
      postJson("/api/answer", { session, id, answer: choice }).then(
        () => (setMessage(undefined), reload()),
        (e: Error) => setMessage(e.message),
      ),
    );
  return (
    <section data-testid="view-approvals">
      <h1>Approvals</h1>
      {error && <p class="error">{error}</p>}
      {message && <p class="error">{message}</p>}
      {data && !pending.length && <p class="muted">No session is waiting for an approval.</p>}
      {pending.map((a) => (
        <div class="approval" key={`${a.session}/${a.id}`} data-testid="approval">
          <p>
            <strong>{a.tool}</strong>{" "}
            <small>
              ({a.kind}, asked {new Date(a.created).toLocaleTimeString()} through {a.channel}
              {a.client ? `, ${a.client}` : ""}
              {a.expires ? `; expires ${new Date(a.expires).toLocaleTimeString()}` : ""})
            </small>
          </p>
          <pre class="question">{a.question}</pre>
          <button type="button" disabled={once.busy} onClick={() => answer(a.session, a.id, "continue")} data-testid="approve-continue">
            Continue
          </button>
          <button type="button" disabled={once.busy} onClick={() => answer(a.session, a.id, "always")} data-testid="approve-always">
            Always
          </button>
          <button type="button" disabled={once.busy} onClick={() => answer(a.session, a.id, "abort")} data-testid="approve-abort">
            Abort
          </button>
        </div>
      ))}
      <ToolChanges />
    </section>
  );
}
