// The workspace .env: where `pml init` keeps the PML_API_KEY (mode 0600, git-ignored) and where
// users put BYOK keys. Read on demand; the process environment always wins.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { withFileLock, writeFileAtomic } from "../fs/atomic.ts";
import { ConfigError } from "../errors.ts";
import { quoted } from "../visible-text.ts";

export const DOTENV = ".env";
const KEY_RE = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export function dotEnvPath(workspace: string): string {
  return join(workspace, DOTENV);
}

/** Parses KEY=VALUE lines: `export ` prefix, # comments, '…' (literal), "…" (escapes, may span
 * lines), unquoted values end at " #". Later keys override earlier ones. */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (let n = 0; n < lines.length; n++) {
    const entry = splitEntry(lines[n]!);
    if (!entry) continue;
    const { key } = entry;
    const rest = entry.rest;
    let value: string;
    const q = rest[0];
    if (q === '"' || q === "'" || q === "`") {
      // Find the closing quote, continuing onto following lines for multi-line values.
      let body = rest.slice(1);
      let end = closingQuote(body, q);
      while (end < 0 && n + 1 < lines.length) {
        body += `\n${lines[++n]}`;
        end = closingQuote(body, q);
      }
      if (end < 0) end = body.length; // unterminated: take what there is
      value = body.slice(0, end);
      if (q === '"') value = value.replace(/\\([nrt"\\])/g, (_, c: string) => ({ n: "\n", r: "\r", t: "\t" })[c] ?? c);
    } else {
      const hash = rest.search(/\s#/);
      value = (hash >= 0 ? rest.slice(0, hash) : rest).trim();
    }
    out[key] = value;
  }
  return out;
}

function splitEntry(line: string): { key: string; rest: string } | undefined {
  let s = line.trim();
  if (!s || s.startsWith("#")) return undefined;
  if (s.startsWith("export ")) s = s.slice(7).trimStart();
  const eq = s.indexOf("=");
  if (eq <= 0) return undefined;
  const key = s.slice(0, eq).trim();
  if (!KEY_RE.test(key)) return undefined;
  return { key, rest: s.slice(eq + 1).trimStart() };
}

function closingQuote(body: string, q: string): number {
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "\\" && q === '"') i++;
    else if (body[i] === q) return i;
  }
  return -1;
}

/** The workspace .env as a record; a missing file is {}. */
export async function readDotEnv(workspace: string): Promise<Record<string, string>> {
  try {
    return parseDotEnv(await readFile(dotEnvPath(workspace), "utf8"));
  } catch (e: any) {
    if (e?.code === "ENOENT") return {};
    throw new ConfigError(`${dotEnvPath(workspace)}: cannot read the file (${e?.code ?? e}).`, dotEnvPath(workspace));
  }
}

export function readDotEnvSync(workspace: string): Record<string, string> {
  try {
    return parseDotEnv(readFileSync(dotEnvPath(workspace), "utf8"));
  } catch (e: any) {
    if (e?.code === "ENOENT") return {};
    throw new ConfigError(`${dotEnvPath(workspace)}: cannot read the file (${e?.code ?? e}).`, dotEnvPath(workspace));
  }
}

function quoteValue(value: string): string {
  if (/^[A-Za-z0-9_./:@+=,-]*$/.test(value)) return value;
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"`;
}

/** Sets KEY in the workspace .env (atomic, mode 0600), keeping every other line as it was;
 * the first KEY= line is replaced and later duplicates dropped, else the line is appended. */
export async function writeDotEnvKey(workspace: string, key: string, value: string): Promise<string> {
  if (!KEY_RE.test(key)) throw new ConfigError(`not a valid environment variable name: ${quoted(key)}`);
  const path = dotEnvPath(workspace);
  await withFileLock(path, async () => {
    const text = await readFile(path, "utf8").catch((e: any) => {
      if (e?.code === "ENOENT") return "";
      throw e;
    });
    const line = `${key}=${quoteValue(value)}`;
    const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
    const out: string[] = [];
    let placed = false;
    for (let n = 0; n < lines.length; n++) {
      const entry = splitEntry(lines[n]!);
      if (entry?.key !== key) {
        out.push(lines[n]!);
        continue;
      }
      // Skip the continuation lines of a multi-line quoted value too.
      const q = entry.rest[0];
      if (q === '"' || q === "'" || q === "`") {
        let body = entry.rest.slice(1);
        while (closingQuote(body, q) < 0 && n + 1 < lines.length) body += `\n${lines[++n]}`;
      }
      if (!placed) out.push(line);
      placed = true;
    }
    if (!placed) out.push(line);
    await writeFileAtomic(path, `${out.join("\n")}\n`, { mode: 0o600, within: workspace });
  });
  return path;
}
