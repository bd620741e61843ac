// Activity: the audit log and tool usage, newest first, filtered in the page, polled every 2 s.
// A row's error shows its first line (the reason); the whole text opens on a click or Enter.
import { useMemo, useState } from "preact/hooks";
import { CallsPlot } from "./plot.tsx";
import { useApi } from "./use-api.ts";

interface Row {
  time: string;
  tool: string;
  decision: string;
  by: string;
  calls: number;
  errors: number;
  duration_ms?: number;
  error?: string;
  source: string;
}

export function Activity() {
  const { data, error } = useApi<{ rows: Row[]; warnings: string[] }>("/api/activity", {}, 2000);
  const [tool, setTool] = useState("");
  const [decision, setDecision] = useState("");
  const rows = useMemo(
    () => (data?.rows ?? []).filter((r) => (!tool || r.tool.toLowerCase().includes(tool.toLowerCase())) && (!decision || r.decision === decision)),
    [data, tool, decision],
  );
  const points = useMemo(() => rows.map((r) => ({ time: r.time, calls: r.calls, errors: r.errors })), [rows]);
  return (
    <section data-testid="view-activity">
      <h1>Activity</h1>
      {error && <p class="error">{error}</p>}
      {data?.warnings.map((w) => (
        <p key={w} class="warning">
          {w}
        </p>
      ))}
      <div class="filters">
        <input placeholder="tool contains…" value={tool} onInput={(e) => setTool(e.currentTarget.value)} data-testid="filter-tool" />
        <select value={decision} onChange={(e) => setDecision(e.currentTarget.value)} data-testid="filter-decision">
          <option value="">any decision</option>
          <option value="ran">ran</option>
          <option value="failed">failed</option>
          <option value="refused">refused</option>
          <option value="decided">decided</option>
        </select>
      </div>
      {points.length > 0 && <CallsPlot points={points} title="calls and errors over time" />}
      <table data-testid="activity-table">
        <thead>
          <tr>
            <th>when</th>
            <th>tool</th>
            <th>decision</th>
            <th>who decided</th>
            <th>calls</th>
            <th>duration</th>
            <th>error</th>
          </tr>
        </thead>
        <tbody>
          {keyed(rows).map(([key, r]) => (
            <tr key={key} class={r.errors ? "bad" : ""}>
              <td>{new Date(r.time).toLocaleString()}</td>
              <td>
                <code>{r.tool}</code>
              </td>
              <td>{r.decision}</td>
              <td>{r.by}</td>
              <td>{r.calls}</td>
              <td>{r.duration_ms !== undefined ? `${r.duration_ms} ms` : ""}</td>
              <td>
                <ErrorText row={r} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && !rows.length && <p class="muted">Nothing yet.</p>}
    </section>
  );
}

/** Keys that stay with their row as new rows come in on top (an index would not: every poll with a
 * new call would remake the rows below it, and close an error opened there). */
function keyed(rows: Row[]): Array<[string, Row]> {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    const key = `${r.source}\u0000${r.time}\u0000${r.tool}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return [`${key}\u0000${n}`, r];
  });
}

/** A first line longer than this is cut in the summary (the whole line is in the full text). */
const FIRST_LINE_CHARS = 240;

function ErrorText({ row }: { row: Row }) {
  const failed = `${row.errors} of ${row.calls} calls failed`;
  // Calls logged before pml kept what they said.
  if (!row.error) return row.errors && row.source === "usage" ? <span data-testid="error-text">{failed}</span> : null;
  const text = row.error.trimEnd();
  const first = text.split("\n", 1)[0]!;
  const summary = first.length > FIRST_LINE_CHARS ? `${first.slice(0, FIRST_LINE_CHARS)}…` : first;
  const several = row.source === "usage" && row.errors > 1;
  if (summary === text && !several) return <span data-testid="error-text">{text}</span>;
  return (
    <details class="error-text" data-testid="error-text">
      <summary>{summary}</summary>
      {several && <p class="muted">{failed}; the last one said:</p>}
      <pre data-testid="error-full">{text}</pre>
    </details>
  );
}
