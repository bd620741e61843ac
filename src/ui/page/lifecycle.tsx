// A capability's deprecation and its publishing to the team registry, run on the server by the
// stdlib tools an agent calls (dns:deprecate, learn:publish), whose messages the page shows as they are.
import { useState } from "preact/hooks";
import { postJson } from "./api.ts";
import { useOnce } from "./use-once.ts";

export interface Deprecation {
  at: string;
  by: string;
  reason?: string;
  replacement?: string;
}

type Message = { ok: boolean; text: string } | undefined;

function Said({ message, id }: { message: Message; id: string }) {
  if (!message) return null;
  return (
    <p class={message.ok ? "ok" : "error"} data-testid={id}>
      {message.text}
    </p>
  );
}

/** "deprecated (why); use X instead", as the list and the capability's page show it. */
export function deprecationText(d: Deprecation): string {
  return `deprecated${d.reason ? ` (${d.reason})` : ""}${d.replacement ? `; use ${d.replacement} instead` : ""}`;
}

export function DeprecateForm({ name, deprecated, done }: { name: string; deprecated: Deprecation | null; done: () => void }) {
  const [reason, setReason] = useState("");
  const [replacement, setReplacement] = useState("");
  const [message, setMessage] = useState<Message>();
  const once = useOnce();
  const send = (body: Record<string, unknown>) =>
    once.run(() =>
      postJson<{ note: string }>("/api/deprecate", { name, ...body }).then(
        (r) => {
          setMessage({ ok: true, text: r.note });
          done();
        },
        (e: Error) => setMessage({ ok: false, text: e.message }),
      ),
    );
  return (
    <div class="lifecycle">
      {deprecated ? (
        <button type="button" disabled={once.busy} onClick={() => send({ deprecated: false })} data-testid="undeprecate-button">
          Undo deprecation
        </button>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send({ ...(reason.trim() ? { reason: reason.trim() } : {}), ...(replacement.trim() ? { replacement: replacement.trim() } : {}) });
          }}
        >
          <input placeholder="reason (optional)" value={reason} onInput={(e) => setReason(e.currentTarget.value)} data-testid="deprecate-reason" />
          <input
            placeholder="replacement, e.g. json:read_file (optional)"
            value={replacement}
            onInput={(e) => setReplacement(e.currentTarget.value)}
            data-testid="deprecate-replacement"
          />
          <button type="submit" disabled={once.busy} data-testid="deprecate-button">
            Deprecate
          </button>
        </form>
      )}
      <Said message={message} id="deprecate-message" />
    </div>
  );
}

export function PublishForm({ name }: { name: string }) {
  const [visibility, setVisibility] = useState("project");
  const [message, setMessage] = useState<Message>();
  const once = useOnce();
  return (
    <form
      class="lifecycle"
      onSubmit={(e) => {
        e.preventDefault();
        once.run(() =>
          postJson<{ published: { fqdn: string; version: string; visibility: string }; registry: string; warnings?: string[] }>("/api/publish", { name, visibility }).then(
            (r) =>
              setMessage({
                ok: true,
                text: `Published to ${r.registry} as ${r.published.fqdn} ${r.published.version} (${r.published.visibility}).${r.warnings ? ` ${r.warnings.join(" ")}` : ""}`,
              }),
            (err: Error) => setMessage({ ok: false, text: err.message }),
          ),
        );
      }}
    >
      <select value={visibility} onChange={(e) => setVisibility(e.currentTarget.value)} data-testid="publish-visibility">
        <option value="project">project</option>
        <option value="org">org</option>
        <option value="public">public</option>
      </select>
      <button type="submit" disabled={once.busy} data-testid="publish-button">
        Publish to the team registry
      </button>
      <Said message={message} id="publish-message" />
    </form>
  );
}
