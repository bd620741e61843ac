// Who is calling the registry server. A PML API key comes from `--api-key` (no identity: it may
// call cloud tools and read public entries) or from `--api-keys-file`, which is either the old
// plain list (one key per line, # comments) or JSON mapping each key to `{org, user}`:
//   {"keys": [{"key": "k_alice", "org": "acme", "user": "alice"}]}   or   {"k_alice": {"org": "acme", "user": "alice"}}
// Keys are compared in constant time (hashes make the lengths equal) and never logged.
import { createHash, timingSafeEqual } from "node:crypto";
import * as v from "valibot";

/** A segment of an FQDN: org and user names end up in capability FQDNs and `created_by`. */
export const NAME_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

export interface Identity {
  org: string;
  user: string;
}

const Segment = (what: string) => v.pipe(v.string(), v.regex(NAME_SEGMENT, `${what} must be 1-64 letters, digits, '_' or '-'`));
const IdentitySchema = v.object({ org: Segment("org"), user: Segment("user") });
const KeySchema = v.pipe(v.string(), v.trim(), v.minLength(8, "a key must be at least 8 characters"), v.regex(/^\S+$/, "a key cannot contain spaces"));
const KeyListSchema = v.object({ keys: v.array(v.object({ key: KeySchema, ...IdentitySchema.entries })) });
const KeyMapSchema = v.record(KeySchema, IdentitySchema);

const digest = (s: string) => createHash("sha256").update(s).digest();

export type Caller = { ok: false } | { ok: true; identity: Identity | null };

export class ApiKeys {
  private readonly entries: { hash: Buffer; identity: Identity | null }[];

  constructor(keys: Map<string, Identity | null> | Iterable<string>) {
    const map = keys instanceof Map ? keys : new Map([...keys].map((k) => [k, null] as const));
    this.entries = [...map].map(([key, identity]) => ({ hash: digest(key), identity }));
  }

  get size(): number {
    return this.entries.length;
  }

  /** The caller behind an `Authorization: Bearer <key>` header; every entry is compared. */
  identify(header: string | null): Caller {
    const m = header?.match(/^Bearer\s+(\S+)\s*$/i);
    if (!m) return { ok: false };
    const got = digest(m[1]!);
    let found: Caller = { ok: false };
    for (const e of this.entries) if (timingSafeEqual(got, e.hash) && !found.ok) found = { ok: true, identity: e.identity };
    return found;
  }
}

/** Parses an `--api-keys-file`: JSON with identities, or plain lines of keys. */
export function parseApiKeysFile(text: string, file: string): Map<string, Identity | null> {
  const keys = new Map<string, Identity | null>();
  if (!/^\s*[{[]/.test(text)) {
    for (const line of text.split(/\r?\n/)) {
      const k = line.trim();
      if (k && !k.startsWith("#")) keys.set(k, null);
    }
    return keys;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`--api-keys-file ${file}: not valid JSON (${(e as Error).message}). Expected {"keys": [{"key": "...", "org": "acme", "user": "alice"}]}.`);
  }
  const listShape = raw !== null && typeof raw === "object" && "keys" in raw;
  const parsed = listShape ? v.safeParse(KeyListSchema, raw) : v.safeParse(KeyMapSchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const at = v.getDotPath(issue) ?? "(file)";
    throw new Error(`--api-keys-file ${file}: at '${at}': ${issue.message}. Expected {"keys": [{"key": "...", "org": "acme", "user": "alice"}]}.`);
  }
  const out = parsed.output;
  const list = listShape ? (out as v.InferOutput<typeof KeyListSchema>).keys : Object.entries(out as Record<string, Identity>).map(([key, id]) => ({ key, ...id }));
  for (const { key, org, user } of list) {
    if (keys.has(key)) throw new Error(`--api-keys-file ${file}: a key is listed twice (for ${org}/${user}); each key names one user.`);
    keys.set(key, { org, user });
  }
  return keys;
}

/** Keys from `--api-key` flags (no identity) and an `--api-keys-file`. */
export async function loadApiKeys(flags: string[], file?: string): Promise<ApiKeys> {
  const keys = new Map<string, Identity | null>();
  for (const k of flags.map((k) => k.trim()).filter(Boolean)) keys.set(k, null);
  if (file) {
    let text: string;
    try {
      text = await Bun.file(file).text();
    } catch (e: any) {
      throw new Error(`--api-keys-file ${file}: cannot read it (${e?.code ?? e?.message ?? e}).`);
    }
    for (const [k, id] of parseApiKeysFile(text, file)) keys.set(k, id);
  }
  return new ApiKeys(keys);
}

/** Every `--api-key K` / `--api-key=K` in raw argv: citty keeps only the last of a repeated flag. */
export function apiKeyFlags(rawArgs: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const a = rawArgs[i]!;
    if (a === "--") break;
    if (a === "--api-key" && i + 1 < rawArgs.length) out.push(rawArgs[++i]!);
    else if (a.startsWith("--api-key=")) out.push(a.slice("--api-key=".length));
  }
  return out;
}
