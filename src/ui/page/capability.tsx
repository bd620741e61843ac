// One capability: code, parameters, versions with a diff between any two, aliases, tags, usage,
// and the actions the stdlib offers (rename, tag, pin, deprecate, publish), run on the server by
// those same tools.
import { useState } from "preact/hooks";
import { postJson } from "./api.ts";
import type { Listed } from "./capabilities.tsx";
import { Code } from "./highlight.tsx";
import { DeprecateForm, deprecationText, PublishForm } from "./lifecycle.tsx";
import { CallsPlot } from "./plot.tsx";
import { useApi } from "./use-api.ts";
import { useOnce } from "./use-once.ts";

interface Detail extends Listed {
  fqdn: string;
  intent: string;
  code: string;
  parameters: Record<string, unknown>;
  tools_used: string[];
  aliases: string[];
  found_by: Array<{ query: string; count: number; last_at: string }>;
  versions: Array<{ tag: string; summary: string; by: string; at: string }>;
  usage: Array<{ second: string; calls: number; errors: number }>;
}

export function CapabilityPage({ name }: { name: string }) {
  const { data, error, reload } = useApi<Detail>("/api/capability", { name });
  if (error) return <p class="error">{error}</p>;
  if (!data) return <p>Loading…</p>;
  return (
    <section data-testid="view-capability">
      <p>
        <a href="#capabilities">← Capabilities</a>
      </p>
      <h1 data-testid="cap-name">{data.name}</h1>
      <p>{data.description}</p>
      <dl>
        <dt>tool</dt>
        <dd>
          <code>{data.tool ?? "(unnamed: not listed)"}</code>
        </dd>
        <dt>FQDN</dt>
        <dd>
          <code>{data.fqdn}</code>
        </dd>
        <dt>uses</dt>
        <dd>
          {data.usage_count} calls{data.success_rate === null ? "" : `, ${Math.round(data.success_rate * 100)}% succeeded`}
          {data.last_used_at ? `, last ${new Date(data.last_used_at).toLocaleString()}` : ""}
        </dd>
        <dt>tools used</dt>
        <dd>{data.tools_used.join(", ") || "none"}</dd>
        <dt>aliases</dt>
        <dd data-testid="aliases">{data.aliases.join(", ") || "none"}</dd>
        <dt>tags</dt>
        <dd data-testid="tags">{data.tags.join(", ") || "none"}</dd>
        <dt>in tools/list</dt>
        <dd data-testid="pinned">{data.pinned ? "pinned: always listed" : "listed while among the most recently used"}</dd>
        <dt>deprecated</dt>
        <dd data-testid="deprecated">{data.deprecated ? `${deprecationText(data.deprecated)}, since ${new Date(data.deprecated.at).toLocaleString()}` : "no"}</dd>
        <dt>found by</dt>
        <dd data-testid="found-by">{data.found_by.length ? data.found_by.map((f) => `“${f.query}” (${f.count})`).join(", ") : "no query yet"}</dd>
      </dl>
      <Actions name={data.name} tags={data.tags} pinned={data.pinned} done={reload} />
      {data.tool && <DeprecateForm name={data.name} deprecated={data.deprecated} done={reload} />}
      {data.tool && <PublishForm name={data.name} />}
      <h2>Code</h2>
      <Code code={data.code} />
      <h2>Parameters</h2>
      <pre class="code">{JSON.stringify(data.parameters, null, 2)}</pre>
      <h2>Usage</h2>
      {data.usage.length ? (
        <CallsPlot points={data.usage.map((u) => ({ time: u.second, calls: u.calls, errors: u.errors }))} title="calls of this capability" />
      ) : (
        <p class="muted">Not called yet.</p>
      )}
      <Versions name={data.name} versions={data.versions} />
    </section>
  );
}

function Actions({ name, tags, pinned, done }: { name: string; tags: string[]; pinned: boolean; done: () => void }) {
  const [newName, setNewName] = useState("");
  const [newTag, setNewTag] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const once = useOnce();
  const act = (path: string, body: unknown, after?: (r: any) => void) =>
    once.run(() =>
      postJson<any>(path, body).then(
        (r) => {
          setMessage({ ok: true, text: r.note ?? "Done." });
          after ? after(r) : done();
        },
        (e: Error) => setMessage({ ok: false, text: e.message }),
      ),
    );
  return (
    <div class="actions">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          act("/api/rename", { name, newName: newName.trim() }, (r) => {
            setNewName("");
            location.hash = `cap/${encodeURIComponent(r.to)}`;
          });
        }}
      >
        <input placeholder="new name (ns:action_target)" value={newName} onInput={(e) => setNewName(e.currentTarget.value)} data-testid="rename-input" />
        <button type="submit" disabled={once.busy} data-testid="rename-button">
          Rename
        </button>
      </form>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (newTag.trim()) act("/api/tag", { name, add: [newTag.trim()] });
        }}
      >
        <input placeholder="tag" value={newTag} onInput={(e) => setNewTag(e.currentTarget.value)} data-testid="tag-input" />
        <button type="submit" disabled={once.busy} data-testid="tag-button">
          Add tag
        </button>
      </form>
      <button type="button" disabled={once.busy} onClick={() => act("/api/pin", { name, pinned: !pinned })} data-testid="pin-button">
        {pinned ? "Unpin" : "Pin to tools/list"}
      </button>{" "}
      {tags.map((t) => (
        <button key={t} type="button" class="chip" title="remove this tag" disabled={once.busy} onClick={() => act("/api/tag", { name, remove: [t] })}>
          {t} ✕
        </button>
      ))}
      {message && (
        <p class={message.ok ? "ok" : "error"} data-testid="action-message">
          {message.text}
        </p>
      )}
    </div>
  );
}

function Versions({ name, versions }: { name: string; versions: Array<{ tag: string; summary: string; by: string; at: string }> }) {
  const [from, setFrom] = useState(versions.length > 1 ? versions[versions.length - 2]!.tag : (versions[0]?.tag ?? ""));
  const [to, setTo] = useState(versions[versions.length - 1]?.tag ?? "");
  const diff = useApi<{ lines?: Array<{ op: string; text: string }>; error?: string }>("/api/diff", { name, from, to });
  return (
    <>
      <h2>Versions</h2>
      <table>
        <thead>
          <tr>
            <th>version</th>
            <th>what changed</th>
            <th>by</th>
            <th>when</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.tag}>
              <td>{v.tag}</td>
              <td>{v.summary}</td>
              <td>{v.by}</td>
              <td>{new Date(v.at).toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {versions.length > 1 && (
        <div class="filters">
          diff{" "}
          <select value={from} onChange={(e) => setFrom(e.currentTarget.value)} data-testid="diff-from">
            {versions.map((v) => (
              <option key={v.tag}>{v.tag}</option>
            ))}
          </select>{" "}
          →{" "}
          <select value={to} onChange={(e) => setTo(e.currentTarget.value)} data-testid="diff-to">
            {versions.map((v) => (
              <option key={v.tag}>{v.tag}</option>
            ))}
          </select>
        </div>
      )}
      {diff.error && <p class="error">{diff.error}</p>}
      {diff.data?.error && <p class="error">{diff.data.error}</p>}
      {versions.length > 1 && diff.data?.lines && (
        <pre class="code diff" data-testid="diff">
          {diff.data.lines.map((l, i) => (
            <div key={i} class={l.op === "+" ? "add" : l.op === "-" ? "del" : ""}>
              {l.op} {l.text}
            </div>
          ))}
        </pre>
      )}
    </>
  );
}
