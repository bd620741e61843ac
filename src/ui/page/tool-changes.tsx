// Held tools (tool pinning) in the Approvals view: a server's tool whose text changed since the
// user approved it, or that is new, shown as a diff of what it said then and says now; Accept lets
// sessions list and run it again, Refuse keeps it held. Polled like the session approvals.
import { useState } from "preact/hooks";
import { postJson } from "./api.ts";
import { useApi } from "./use-api.ts";

interface Change {
  ns: string;
  tool: string;
  digest: string;
  was?: string;
  why: string;
  seen_at: string;
  refused_at?: string;
  lines: Array<{ op: string; text: string }>;
}

export function ToolChanges() {
  const { data, error, reload } = useApi<{ changes: Change[] }>("/api/tool-changes", {}, 2000);
  const [message, setMessage] = useState<string>();
  const answer = (c: Change, choice: "accept" | "refuse") =>
    postJson("/api/tool-change", { ns: c.ns, tool: c.tool, digest: c.digest, answer: choice }).then(
      () => (setMessage(undefined), reload()),
      (e: Error) => setMessage(e.message),
    );
  const changes = data?.changes ?? [];
  return (
    <div data-testid="tool-changes">
      <h2>Changed tools</h2>
      {error && <p class="error">{error}</p>}
      {message && <p class="error">{message}</p>}
      {data && !changes.length && <p class="muted">No server's tool changed since you approved it.</p>}
      {changes.map((c) => (
        <div class="approval" key={`${c.ns}:${c.tool}:${c.digest}`} data-testid="tool-change">
          <p>
            <strong>
              {c.ns}:{c.tool}
            </strong>{" "}
            <small>
              ({c.why}; seen {new Date(c.seen_at).toLocaleString()}
              {c.refused_at ? `; refused ${new Date(c.refused_at).toLocaleString()}` : ""})
            </small>
          </p>
          <p class="muted">Held: sessions neither list nor run it until you accept the change.</p>
          <pre class="code diff" data-testid="tool-change-diff">
            {c.lines.map((l, i) => (
              <div key={i} class={l.op === "+" ? "add" : l.op === "-" ? "del" : ""}>
                {l.op} {l.text}
              </div>
            ))}
          </pre>
          <button type="button" onClick={() => void answer(c, "accept")} data-testid="tool-change-accept">
            Accept the change
          </button>
          <button type="button" onClick={() => void answer(c, "refuse")} data-testid="tool-change-refuse" disabled={!!c.refused_at}>
            Refuse
          </button>
        </div>
      ))}
    </div>
  );
}
