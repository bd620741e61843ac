// Capabilities: every named one, or those `discover`'s ranking finds for a query.
import { useState } from "preact/hooks";
import { type Deprecation, deprecationText } from "./lifecycle.tsx";
import { useApi } from "./use-api.ts";

export interface Listed {
  name: string;
  tool?: string;
  description: string;
  version: string;
  tags: string[];
  pinned: boolean;
  deprecated: Deprecation | null;
  usage_count: number;
  success_rate: number | null;
  last_used_at: string | null;
  score?: number;
}

export function Capabilities() {
  const [query, setQuery] = useState("");
  const [typed, setTyped] = useState("");
  const { data, error } = useApi<{ items: Listed[]; warning?: string }>("/api/capabilities", { q: query || undefined });
  return (
    <section data-testid="view-capabilities">
      <h1>Capabilities</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(typed.trim());
        }}
      >
        <input placeholder="search (same ranking as discover)" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} data-testid="cap-search" />
        <button type="submit">Search</button>
      </form>
      {error && <p class="error">{error}</p>}
      {data?.warning && <p class="warning">{data.warning}</p>}
      <table data-testid="cap-table">
        <thead>
          <tr>
            <th>name</th>
            <th>description</th>
            <th>version</th>
            <th>tags</th>
            <th>uses</th>
            <th>success</th>
            <th>last use</th>
          </tr>
        </thead>
        <tbody>
          {(data?.items ?? []).map((c) => (
            <tr key={c.name} class={c.deprecated ? "deprecated" : undefined}>
              <td>
                <a href={`#cap/${encodeURIComponent(c.name)}`} data-testid="cap-link">
                  {c.name}
                </a>
                {c.deprecated && (
                  <span class="warning" title={deprecationText(c.deprecated)} data-testid="cap-deprecated">
                    {" "}
                    deprecated
                  </span>
                )}
              </td>
              <td>{c.description}</td>
              <td>{c.version}</td>
              <td>{c.tags.join(", ")}</td>
              <td>{c.usage_count}</td>
              <td>{c.success_rate === null ? "" : `${Math.round(c.success_rate * 100)}%`}</td>
              <td>{c.last_used_at ? new Date(c.last_used_at).toLocaleString() : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && !data.items.length && <p class="muted">{query ? "Nothing matches." : "No named capability yet: code sent to execute with a name becomes one."}</p>}
    </section>
  );
}
