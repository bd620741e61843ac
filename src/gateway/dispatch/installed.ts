// Catalog servers already installed under PML_HOME: their tools are listed at session start.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pmlHome } from "../../config/paths.ts";
import { builtinCatalog } from "../../registry/catalog.ts";

export class InstalledNamespaces {
  private installed?: { stamp: string; namespaces: readonly string[] };

  /** deps.json read again only when it changed (every `discover {query}` asks; it is replaced whole). */
  namespaces(): string[] {
    const path = join(pmlHome(), "deps.json");
    let s: ReturnType<typeof statSync>;
    try {
      // Not thrown when missing (nothing installed yet, the usual case): an exception per request cost more than the stat.
      s = statSync(path, { throwIfNoEntry: false });
    } catch {
      return [];
    }
    if (!s) return [];
    const stamp = `${path}:${s.mtimeMs}:${s.size}:${s.ino}`;
    if (this.installed?.stamp !== stamp) this.installed = { stamp, namespaces: installedIn(path) };
    return [...this.installed.namespaces];
  }
}

function installedIn(depsJson: string): string[] {
  let packages: Set<string>;
  try {
    const state = JSON.parse(readFileSync(depsJson, "utf8"));
    packages = new Set(Object.values(state.packages ?? {}).map((p: any) => p.name));
  } catch {
    return [];
  }
  return Object.entries(builtinCatalog)
    .filter(([, d]) => d.package && packages.has(d.package.identifier))
    .map(([ns]) => ns);
}
