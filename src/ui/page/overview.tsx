// Overview: the workspace, its .pml.json and trust, effective permissions with their sources, servers.
import { useApi } from "./use-api.ts";

interface OverviewData {
  workspace: { root: string; source: string };
  config: { path: string; exists: boolean; error?: string; warnings: string[] };
  trust?: { recorded: boolean; trusted: string[]; untrusted: string[]; record: string };
  permissions: Array<{ pattern: string; decision: string; source: string; applies: boolean }>;
  servers: Array<{
    ns: string;
    kind: string;
    detail: string;
    tools: string[];
    live: Array<{ session: string; state: string; calls: number; lastError?: string; startedAt?: string }>;
  }>;
  registries: string[] | null;
  sessions: Array<{ id: string; pid: number; transport: string; client?: string; started: string }>;
}

export function Overview() {
  const { data, error } = useApi<OverviewData>("/api/overview", {}, 5000);
  if (error) return <p class="error">{error}</p>;
  if (!data) return <p>Loading…</p>;
  const { trust, config } = data;
  const trustText = !config.exists
    ? "no .pml.json: pml's defaults apply"
    : !trust
      ? "could not be read"
      : trust.untrusted.length
        ? `not trusted: ${trust.untrusted.length} grant(s) do not apply until you run \`pml trust\``
        : trust.trusted.length
          ? "trusted"
          : "grants nothing (only restricts)";
  return (
    <section data-testid="view-overview">
      <h1>Overview</h1>
      <dl>
        <dt>Workspace</dt>
        <dd>
          {data.workspace.root} <small>({data.workspace.source})</small>
        </dd>
        <dt>.pml.json</dt>
        <dd data-testid="trust">
          {config.path} — {trustText}
        </dd>
        {config.error && (
          <>
            <dt>Error</dt>
            <dd class="error">{config.error}</dd>
          </>
        )}
      </dl>
      {trust && (trust.trusted.length > 0 || trust.untrusted.length > 0) && (
        <>
          <h2>What it grants</h2>
          <ul>
            {trust.trusted.map((g) => (
              <li key={`t${g}`}>✓ {g}</li>
            ))}
            {trust.untrusted.map((g) => (
              <li key={`u${g}`} class="muted">
                ✗ {g} (not trusted)
              </li>
            ))}
          </ul>
        </>
      )}
      <Permissions rules={data.permissions} />
      <Servers servers={data.servers} sessions={data.sessions.length} />
    </section>
  );
}

function Permissions({ rules }: { rules: OverviewData["permissions"] }) {
  return (
    <>
      <h2>Effective permissions</h2>
      <table>
        <thead>
          <tr>
            <th>decision</th>
            <th>pattern</th>
            <th>from</th>
          </tr>
        </thead>
        <tbody>
          {rules.map((p) => (
            <tr key={`${p.decision}${p.pattern}${p.source}`} class={p.applies ? "" : "muted"}>
              <td class={`d-${p.decision}`}>{p.decision}</td>
              <td>
                <code>{p.pattern}</code>
              </td>
              <td>{p.source}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Servers({ servers, sessions }: { servers: OverviewData["servers"]; sessions: number }) {
  return (
    <>
      <h2>Servers</h2>
      <p class="muted">{sessions ? `${sessions} pml session(s) running for this workspace.` : "No pml session is running for this workspace."}</p>
      <table>
        <thead>
          <tr>
            <th>server</th>
            <th>kind</th>
            <th>what</th>
            <th>state</th>
            <th>tools</th>
          </tr>
        </thead>
        <tbody>
          {servers.map((s) => (
            <tr key={s.ns}>
              <td>{s.ns}</td>
              <td>{s.kind}</td>
              <td>
                <code>{s.detail}</code>
              </td>
              <td>
                {s.live.length
                  ? s.live.map((l) => (
                      <div key={l.session}>
                        {l.state}, {l.calls} calls{l.lastError ? `, last error: ${l.lastError}` : ""}
                      </div>
                    ))
                  : "not running"}
              </td>
              <td class="tools">{s.tools.join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
