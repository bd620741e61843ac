// Activity: the audit log and tool usage, newest first, filtered in the page, polled every 2 s.
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
          {rows.map((r, i) => (
            <tr key={`${r.time}${r.tool}${i}`} class={r.errors ? "bad" : ""}>
              <td>{new Date(r.time).toLocaleString()}</td>
              <td>
                <code>{r.tool}</code>
              </td>
              <td>{r.decision}</td>
              <td>{r.by}</td>
              <td>{r.calls}</td>
              <td>{r.duration_ms !== undefined ? `${r.duration_ms} ms` : ""}</td>
              <td>{r.error ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && !rows.length && <p class="muted">Nothing yet.</p>}
    </section>
  );
}
