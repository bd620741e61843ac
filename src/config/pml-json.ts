// .pml.json: the project's pml settings and the only source of truth for permissions.
// schema/pml.schema.json is the same shape for editors; test/config/schema-agreement.test.ts
// keeps the two in step.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as v from "valibot";
import schemaDocument from "../../schema/pml.schema.json" with { type: "json" };
import { isPermissionPattern, PATTERN_HINT } from "./permission-patterns.ts";
import { withFileLock, writeFileAtomic } from "../fs/atomic.ts";
import { ConfigError } from "../errors.ts";
import { ensureDirNoFollow } from "../fs/no-follow.ts";
import { detectIndent, formatJson, keyPath } from "./json-text.ts";
import { editJsonc, parseJsoncFile } from "./jsonc-text.ts";
import { quoted, visibleLine } from "../visible-text.ts";
import { describeRange, SANDBOX_LIMIT_RANGES, type SandboxLimitKey } from "./sandbox-limit-ranges.ts";

export const PML_JSON = ".pml.json";
/** Where `pml init` puts a copy of the shipped schema, so editors validate offline. */
export const SCHEMA_REL_PATH = ".pml/pml.schema.json";
export const SCHEMA_REF = `./${SCHEMA_REL_PATH}`;

// A bad value is echoed escaped (visible-text.ts): a cloned file's error cannot rewrite the terminal.
const got = (input: unknown) => (typeof input === "string" ? quoted(input) : input === undefined ? "nothing" : (JSON.stringify(input) ?? String(input)));

/** valibot's object and record schemas accept arrays; JSON Schema's "object" does not. */
function plainObject<S extends v.GenericSchema>(schema: S): S {
  const isObject = v.custom<unknown>(
    (x) => typeof x === "object" && x !== null && !Array.isArray(x),
    (issue) => `expected an object, got ${got(issue.input)}`,
  );
  return v.pipe(isObject, schema) as unknown as S;
}

const PatternSchema = v.pipe(
  v.string(),
  v.check(isPermissionPattern, (issue) => `expected ${PATTERN_HINT}, got ${got(issue.input)}`),
);

const PatternListSchema = v.optional(v.array(PatternSchema), []);

export const PermissionsSchema = plainObject(
  v.looseObject({
    allow: PatternListSchema,
    ask: PatternListSchema,
    deny: PatternListSchema,
  }),
);

const NamespaceKeySchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9_-]+$/, (issue) => `expected a namespace name (letters, digits, "_" or "-"), got ${got(issue.input)}`),
);

/** A namespace a grant names: a local one, or a registry name with dots ("acme.greet", the rule
 * of src/registry/fqdn.ts), as tool ids and permission patterns have it. */
const GrantNamespaceSchema = v.pipe(
  v.string(),
  v.regex(
    /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/,
    (issue) => `expected a namespace name (letters, digits, "_" or "-", registry names in dot-separated parts like "acme.greet"), got ${got(issue.input)}`,
  ),
);

/** Loose on purpose: the registry resolver validates descriptors and explains them better. */
const PrivateMcpSchema = plainObject(
  v.looseObject({
    type: v.optional(v.string()),
    command: v.optional(v.pipe(v.string(), v.minLength(1, "expected a non-empty command"))),
    args: v.optional(v.array(v.string())),
    env: v.optional(plainObject(v.record(v.string(), v.string()))),
    confine: v.optional(v.boolean()),
  }),
);

const ModuleGrantSchema = plainObject(
  v.looseObject({
    write: v.optional(v.boolean()),
    net: v.optional(v.array(v.string())),
  }),
);

const HttpUrlSchema = v.pipe(
  v.string(),
  v.check(
    (s) => {
      try {
        const u = new URL(s);
        return u.protocol === "http:" || u.protocol === "https:";
      } catch {
        return false;
      }
    },
    (issue) => `expected an http(s) URL, got ${got(issue.input)}`,
  ),
);

/** An org or project in capability FQDNs: no dots (they separate the FQDN's parts). */
const ScopeLabel = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, (issue) => `expected letters, digits, "_" or "-" (no dots), got ${got(issue.input)}`),
);

const PositiveNumber = v.pipe(
  v.number(),
  v.minValue(0, (issue) => `expected a number >= 0, got ${got(issue.input)}`),
);

/** A sandbox limit: a number within its range, or a config error naming the range (the key comes
 * from the issue's path). */
function sandboxLimit(key: SandboxLimitKey) {
  const range = SANDBOX_LIMIT_RANGES[key];
  const outOfRange = (issue: { input: unknown }) => `${got(issue.input)} is out of range; allowed ${describeRange(range)}`;
  return v.optional(
    v.pipe(
      v.number(),
      v.check(
        (n) => !("integer" in range) || Number.isInteger(n),
        (issue) => `expected a whole number, got ${got(issue.input)}; allowed ${describeRange(range)}`,
      ),
      v.minValue(range.min, outOfRange),
      v.maxValue(range.max, outOfRange),
    ),
  );
}

const GrantedVarSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, (issue) => `expected an environment variable name, got ${got(issue.input)}`),
  v.check((s) => s !== "PML_API_KEY", "PML_API_KEY cannot be granted: pml sends it only to cloud.url"),
);

/** memory.embeddings: an OpenAI-compatible (or Ollama) embeddings endpoint discover asks for the
 * meaning of capability and tool texts (src/memory/embeddings-config.ts); naming it is a grant. */
const EmbeddingsSchema = plainObject(
  v.looseObject({
    url: HttpUrlSchema,
    model: v.pipe(v.string(), v.minLength(1, "expected the model's name")),
    api_key_env: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, (issue) => `expected an environment variable name, got ${got(issue.input)}`),
        v.check((s) => s !== "PML_API_KEY", "PML_API_KEY cannot be the embeddings key: pml sends it only to cloud.url"),
      ),
    ),
    api: v.optional(v.picklist(["openai", "ollama"], (issue) => `expected "openai" (POST {url}/embeddings) or "ollama" (POST {url}/api/embed), got ${got(issue.input)}`)),
  }),
);

/** Namespace -> the variables of the user's environment / workspace .env that namespace may receive. */
export const EnvGrantsSchema = plainObject(v.record(GrantNamespaceSchema, v.array(GrantedVarSchema)));

export const ProjectConfigSchema = v.looseObject({
  $schema: v.optional(v.string()),
  permissions: v.optional(PermissionsSchema, {}),
  private_mcps: v.optional(plainObject(v.record(NamespaceKeySchema, PrivateMcpSchema)), {}),
  /** Absent means "pml's default registries"; [] means none. */
  registries: v.optional(v.array(HttpUrlSchema)),
  env_grants: v.optional(EnvGrantsSchema, {}),
  cloud: v.optional(plainObject(v.looseObject({ url: v.optional(HttpUrlSchema), timeout_s: v.optional(PositiveNumber) }))),
  pool: v.optional(
    plainObject(
      v.looseObject({
        idle_timeout_s: v.optional(PositiveNumber),
        call_timeout_s: v.optional(PositiveNumber),
      }),
    ),
  ),
  sandbox: v.optional(
    plainObject(
      v.looseObject({
        /** A value above pml's default is a grant (src/policy/trust/grants.ts). */
        timeout_ms: sandboxLimit("timeout_ms"),
        memory_mb: sandboxLimit("memory_mb"),
        /** The global cap on sandboxed runs (see src/sandbox/admission.ts). */
        max_concurrent: sandboxLimit("max_concurrent"),
        max_memory_mb: sandboxLimit("max_memory_mb"),
        max_queued: sandboxLimit("max_queued"),
        net_allow: v.optional(v.array(v.string())),
        shell_net: v.optional(v.boolean()),
        server_net: v.optional(v.array(GrantNamespaceSchema)),
        /** Per registry module: what the user lets it do (its own `permissions` can only narrow it). */
        grants: v.optional(plainObject(v.record(GrantNamespaceSchema, ModuleGrantSchema))),
      }),
    ),
  ),
  sampling: v.optional(
    plainObject(
      v.looseObject({
        provider: v.optional(v.picklist(["anthropic", "openai"], (issue) => `expected "anthropic" or "openai", got ${got(issue.input)}`)),
        url: v.optional(HttpUrlSchema),
        model: v.optional(v.string()),
        api_key_env: v.optional(v.string()),
        timeout_s: v.optional(PositiveNumber),
        max_tokens: v.optional(
          v.pipe(
            v.number(),
            v.integer((issue) => `expected a whole number, got ${got(issue.input)}`),
            v.minValue(1, (issue) => `expected a number >= 1, got ${got(issue.input)}`),
          ),
        ),
        allow: v.optional(v.array(GrantNamespaceSchema)),
      }),
    ),
  ),
  memory: v.optional(
    plainObject(
      v.looseObject({
        org: v.optional(ScopeLabel),
        project: v.optional(ScopeLabel),
        capture: v.optional(v.boolean()),
        strict_namespaces: v.optional(v.boolean()),
        curate_after: v.optional(
          v.pipe(
            v.number(),
            v.integer("expected an integer"),
            v.minValue(1, (issue) => `expected an integer >= 1, got ${got(issue.input)}`),
          ),
        ),
        curation_model: v.optional(v.string()),
        list_tools: v.optional(
          v.union(
            [
              v.literal("all"),
              v.pipe(
                v.number(),
                v.integer((issue) => `expected a whole number or "all", got ${got(issue.input)}`),
                v.minValue(0, (issue) => `expected a number >= 0 (0 lists no capability) or "all", got ${got(issue.input)}`),
              ),
            ],
            (issue) => `expected a whole number >= 0 (how many capabilities tools/list carries; 0 for none) or "all", got ${got(issue.input)}`,
          ),
        ),
        publish: v.optional(v.picklist(["off", "project", "org", "public"], (issue) => `expected "off", "project", "org" or "public", got ${got(issue.input)}`)),
        publish_defaults: v.optional(v.boolean()),
        embeddings: v.optional(EmbeddingsSchema),
      }),
    ),
  ),
});

export type ProjectConfig = v.InferOutput<typeof ProjectConfigSchema>;

export interface LoadedProjectConfig {
  /** Absolute path of .pml.json (whether or not it exists). */
  path: string;
  exists: boolean;
  /** Validated, with defaults filled in (permissions lists are always arrays). */
  config: ProjectConfig;
  /** The file's JSON as written ({} when missing); what updates start from. */
  raw: Record<string, unknown>;
}

export function projectConfigPath(workspace: string): string {
  return join(workspace, PML_JSON);
}

/** The shipped JSON Schema (embedded in the binary). */
export function projectConfigJsonSchema(): Record<string, unknown> {
  return schemaDocument as Record<string, unknown>;
}

/** What `pml init` writes: nothing runs unasked (every tool not listed is "ask"). */
export function defaultProjectConfig(): Record<string, unknown> {
  return {
    $schema: SCHEMA_REF,
    permissions: { allow: [], ask: [], deny: [] },
  };
}

const EXPECTED: Record<string, string> = {
  Array: "an array",
  Object: "an object",
  string: "a string",
  number: "a number",
  boolean: "true or false",
};

function describeIssue(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === "schema" && issue.type !== "custom") {
    const expected = issue.expected ?? "";
    const wanted = EXPECTED[expected] ?? expected;
    return `expected ${wanted}, got ${got(issue.input)}`;
  }
  return issue.message;
}

/** Validates parsed .pml.json content; throws ConfigError naming each bad key path. */
export function validateProjectConfig(raw: unknown, file = PML_JSON): ProjectConfig {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ConfigError(`${file}: expected a JSON object at the top level, got ${Array.isArray(raw) ? "an array" : got(raw)}.`, file);
  }
  const result = v.safeParse(ProjectConfigSchema, raw);
  if (result.success) return result.output;
  const lines = result.issues.slice(0, 8).map((issue) => visibleLine(`${file}: ${keyPath(issue.path as any)}: ${describeIssue(issue)}`));
  if (result.issues.length > 8) lines.push(`... and ${result.issues.length - 8} more problems`);
  throw new ConfigError(lines.join("\n"), file);
}

async function readRaw(path: string): Promise<{ text?: string; raw: Record<string, unknown> }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e: any) {
    if (e?.code === "ENOENT") return { raw: {} };
    throw new ConfigError(`${path}: cannot read the file (${e?.code ?? e}).`, path);
  }
  // Zero bytes is how a missing .pml.json looks while a confined process runs: the OS sandbox
  // puts a read-only placeholder there (sandbox/confine.ts) so that process cannot create one.
  if (text.length === 0) return { raw: {} };
  const raw = parseJsoncFile(text, path);
  validateProjectConfigShape(raw, path);
  return { text, raw: raw as Record<string, unknown> };
}

function validateProjectConfigShape(raw: unknown, file: string): void {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ConfigError(`${file}: expected a JSON object at the top level, got ${Array.isArray(raw) ? "an array" : got(raw)}. pml leaves the file untouched.`, file);
  }
}

/** Reads and validates `<workspace>/.pml.json`. A missing file gives the defaults. */
export async function loadProjectConfig(workspace: string): Promise<LoadedProjectConfig> {
  const path = projectConfigPath(workspace);
  const { text, raw } = await readRaw(path);
  const config = validateProjectConfig(raw, path);
  return { path, exists: text !== undefined, config, raw };
}

/** .pml.json as an edit starts from: its text (none when missing) and raw JSON (the defaults when
 * missing); a file pml cannot parse is refused. */
export type ProjectDocument = { path: string; text?: string; raw: Record<string, unknown> };

export async function readProjectDocument(workspace: string): Promise<ProjectDocument> {
  const path = projectConfigPath(workspace);
  const { text, raw } = await readRaw(path);
  return { path, text, raw: text === undefined ? defaultProjectConfig() : raw };
}

/**
 * Writes `edited`, a copy of `seen.raw` edited (unknown keys and key order survive), validated and
 * atomically (only if something changed), under the file's lock and only while the file still
 * holds the text `seen` was read from: undefined when it changed meanwhile (read and edit anew).
 * A missing file also gets the schema copy its `$schema` points at.
 */
export async function replaceProjectConfig(workspace: string, seen: ProjectDocument, edited: Record<string, unknown>): Promise<LoadedProjectConfig | undefined> {
  const { config, out } = checkedEdit(seen, edited);
  if (seen.text === undefined) await writeSchemaCopy(workspace);
  const written = await withFileLock(seen.path, async () => {
    if ((await readRaw(seen.path)).text !== seen.text) return false;
    if (out !== seen.text) await writeFileAtomic(seen.path, out, { within: workspace });
    return true;
  });
  return written ? { path: seen.path, exists: true, config, raw: edited } : undefined;
}

/** Read-modify-write of .pml.json under its lock: `mutate` edits the raw JSON the file holds. */
export async function updateProjectConfig(workspace: string, mutate: (raw: Record<string, unknown>) => void): Promise<LoadedProjectConfig> {
  return withFileLock(projectConfigPath(workspace), async () => {
    const seen = await readProjectDocument(workspace);
    const edited = structuredClone(seen.raw);
    mutate(edited);
    const { config, out } = checkedEdit(seen, edited);
    if (out !== seen.text) {
      if (seen.text === undefined) await writeSchemaCopy(workspace);
      await writeFileAtomic(seen.path, out, { within: workspace });
    }
    return { path: seen.path, exists: true, config, raw: edited };
  });
}

/** The edited document validated (nothing is written otherwise), and its text. */
function checkedEdit(seen: ProjectDocument, raw: Record<string, unknown>): { config: ProjectConfig; out: string } {
  let config: ProjectConfig;
  try {
    config = validateProjectConfig(raw, seen.path);
  } catch (e) {
    throw e instanceof ConfigError ? new ConfigError(`${e.message}\n${seen.path} was not changed.`, seen.path) : e;
  }
  const { text } = seen;
  return { config, out: text === undefined ? formatJson(raw) : editJsonc(text, seen.raw, raw, detectIndent(text)) };
}

/** Writes `<workspace>/.pml/pml.schema.json` (the shipped schema) unless it is already current.
 * Returns its path. */
export async function writeSchemaCopy(workspace: string): Promise<string> {
  const path = join(workspace, SCHEMA_REL_PATH);
  const content = formatJson(schemaDocument);
  const existing = await readFile(path, "utf8").catch(() => undefined);
  if (existing !== content) {
    ensureDirNoFollow(workspace, ".pml");
    await writeFileAtomic(path, content, { within: workspace });
  }
  return path;
}
