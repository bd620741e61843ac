// schema/pml.schema.json (for editors) and the valibot schema (what pml enforces) must agree.
// ajv is only a transitive dev dependency (via the MCP SDK): used here, never in src/.
import { describe, expect, test } from "bun:test";
import Ajv from "ajv";
import * as v from "valibot";
import schema from "../../schema/pml.schema.json" with { type: "json" };
import { defaultProjectConfig, ProjectConfigSchema, projectConfigJsonSchema } from "../../src/config/pml-json.ts";
import { DEFAULT_SANDBOX_CONFIG } from "../../src/sandbox/limits.ts";

const samples: [string, unknown, boolean][] = [
  ["empty", {}, true],
  ["defaults", defaultProjectConfig(), true],
  ["all patterns", { permissions: { allow: ["*", "ns", "ns:*", "ns:act", "a-b_c:x.y-z"], ask: [], deny: ["git"] } }, true],
  ["unknown keys everywhere", { x: 1, permissions: { y: 2 }, cloud: { z: 3 }, pool: { q: 1 }, sandbox: { w: [] } }, true],
  ["private mcps", { private_mcps: { mine: { command: "node" }, h: { type: "http", url: "x" }, e: {} } }, true],
  ["registries + cloud", { registries: ["https://a.example/x", "http://127.0.0.1:8080"], cloud: { url: "https://c.example" } }, true],
  ["pool/sandbox numbers", { pool: { idle_timeout_s: 0, call_timeout_s: 1.5 }, sandbox: { timeout_ms: 100, memory_mb: 64, net_allow: ["a"] } }, true],
  ["pml's own sandbox defaults", { sandbox: { ...DEFAULT_SANDBOX_CONFIG } }, true],
  ["sandbox limits at their bounds", { sandbox: { timeout_ms: 3_600_000, memory_mb: 2048, max_concurrent: 64, max_memory_mb: 16, max_queued: 10_000 } }, true],
  ["sandbox limits at their lower bounds", { sandbox: { timeout_ms: 100, memory_mb: 16, max_concurrent: 1, max_memory_mb: 65_536, max_queued: 1 } }, true],
  ["sandbox memory_mb past the WebAssembly heap", { sandbox: { memory_mb: 8192 } }, false],
  ["sandbox memory_mb below range", { sandbox: { memory_mb: 8 } }, false],
  ["sandbox timeout_ms below range", { sandbox: { timeout_ms: 10 } }, false],
  ["sandbox timeout_ms above range", { sandbox: { timeout_ms: 3_600_001 } }, false],
  ["sandbox timeout_ms zero", { sandbox: { timeout_ms: 0 } }, false],
  ["sandbox max_concurrent fraction", { sandbox: { max_concurrent: 2.5 } }, false],
  ["sandbox max_concurrent above range", { sandbox: { max_concurrent: 65 } }, false],
  ["sandbox max_queued zero", { sandbox: { max_queued: 0 } }, false],
  ["sandbox max_memory_mb above range", { sandbox: { max_memory_mb: 65_537 } }, false],
  ["sampling", { sampling: { model: "x" } }, true],
  ["confinement switches", { sandbox: { shell_net: true, server_net: ["memory"] }, private_mcps: { a: { command: "x", confine: true } } }, true],
  ["shell_net not boolean", { sandbox: { shell_net: "yes" } }, false],
  ["server_net bad name", { sandbox: { server_net: ["a b"] } }, false],
  ["confine not boolean", { private_mcps: { a: { command: "x", confine: "on" } } }, false],
  ["module grants", { sandbox: { grants: { "my-mod": { write: true, net: ["api.example.com"] }, other: {} } } }, true],
  ["grant write not boolean", { sandbox: { grants: { m: { write: "yes" } } } }, false],
  ["grant bad namespace", { sandbox: { grants: { "a b": {} } } }, false],
  ["grant not object", { sandbox: { grants: { m: true } } }, false],
  ["memory", { memory: { org: "acme", project: "web-app", capture: false, strict_namespaces: true } }, true],
  ["memory org with a dot", { memory: { org: "a.b" } }, false],
  ["memory capture not boolean", { memory: { capture: "no" } }, false],
  ["memory curation", { memory: { curate_after: 5, curation_model: "claude-haiku-4-5" } }, true],
  ["memory curate_after zero", { memory: { curate_after: 0 } }, false],
  ["memory curate_after fraction", { memory: { curate_after: 1.5 } }, false],
  ["memory list_tools number", { memory: { list_tools: 5 } }, true],
  ["memory list_tools zero", { memory: { list_tools: 0 } }, true],
  ["memory list_tools all", { memory: { list_tools: "all" } }, true],
  ["memory list_tools negative", { memory: { list_tools: -1 } }, false],
  ["memory list_tools fraction", { memory: { list_tools: 2.5 } }, false],
  ["memory list_tools other word", { memory: { list_tools: "some" } }, false],
  ["memory publish", { memory: { publish: "org" } }, true],
  ["memory publish unknown", { memory: { publish: "everyone" } }, false],
  ["memory embeddings", { memory: { embeddings: { url: "http://127.0.0.1:11434/v1", model: "nomic-embed-text", api_key_env: "OPENAI_API_KEY" } } }, true],
  ["memory embeddings ollama", { memory: { embeddings: { url: "http://127.0.0.1:11434", model: "nomic-embed-text", api: "ollama" } } }, true],
  ["memory embeddings not http", { memory: { embeddings: { url: "file:///tmp/x", model: "m" } } }, false],
  ["memory embeddings no model", { memory: { embeddings: { url: "https://api.example.com/v1" } } }, false],
  ["memory embeddings no url", { memory: { embeddings: { model: "m" } } }, false],
  ["memory embeddings PML_API_KEY", { memory: { embeddings: { url: "https://api.example.com/v1", model: "m", api_key_env: "PML_API_KEY" } } }, false],
  ["memory embeddings unknown api", { memory: { embeddings: { url: "https://api.example.com/v1", model: "m", api: "grpc" } } }, false],
  ["pattern with space", { permissions: { allow: ["a b"] } }, false],
  ["capability id (two colons)", { permissions: { deny: ["cap:fs:read_json"] } }, true],
  ["dot in namespace (registry name)", { permissions: { ask: ["acme.greet:hello", "acme.greet"] } }, true],
  ["pattern starting with a dot", { permissions: { ask: [".x:c"] } }, false],
  ["pattern with an empty action", { permissions: { deny: ["a::"] } }, false],
  ["empty pattern", { permissions: { allow: [""] } }, false],
  ["star action only", { permissions: { allow: [":*"] } }, false],
  ["allow not array", { permissions: { allow: "x" } }, false],
  ["pattern not string", { permissions: { allow: [1] } }, false],
  ["permissions not object", { permissions: [] }, false],
  ["cloud is array", { cloud: [] }, false],
  ["private_mcps is array", { private_mcps: [] }, false],
  ["env is array", { private_mcps: { a: { env: [] } } }, false],
  ["bad namespace key", { private_mcps: { "a b": {} } }, false],
  ["private mcp not object", { private_mcps: { a: "cmd" } }, false],
  ["private mcp args not strings", { private_mcps: { a: { command: "x", args: [1] } } }, false],
  ["empty command", { private_mcps: { a: { command: "" } } }, false],
  ["registry ftp", { registries: ["ftp://x"] }, false],
  ["registry not url", { registries: ["not a url"] }, false],
  ["cloud url bad", { cloud: { url: "file:///x" } }, false],
  ["negative timeout", { pool: { idle_timeout_s: -1 } }, false],
  ["timeout string", { sandbox: { timeout_ms: "5" } }, false],
  ["net_allow not strings", { sandbox: { net_allow: [1] } }, false],
  ["sampling not object", { sampling: 1 }, false],
  ["env grants", { env_grants: { github: ["GITHUB_TOKEN"], "a-b": [] } }, true],
  ["env grants PML_API_KEY", { env_grants: { x: ["PML_API_KEY"] } }, false],
  ["env grants bad name", { env_grants: { x: ["A-B"] } }, false],
  ["env grants not array", { env_grants: { x: "GITHUB_TOKEN" } }, false],
  ["env grants bad namespace", { env_grants: { "a b": [] } }, false],
  ["env grants registry namespace (dots)", { env_grants: { "acme.greet": ["GREETING"] } }, true],
  ["env grants namespace with an empty part", { env_grants: { "acme..greet": [] } }, false],
  ["grants registry namespace (dots)", { sandbox: { grants: { "acme.greet": { write: true } }, server_net: ["acme.greet"] } }, true],
  ["grants namespace ending in a dot", { sandbox: { grants: { "acme.": {} } } }, false],
  ["private_mcps key with a dot", { private_mcps: { "a.b": { command: "x" } } }, false],
  ["sampling cap + allow", { sampling: { max_tokens: 1000, allow: ["everything"] } }, true],
  ["sampling cap zero", { sampling: { max_tokens: 0 } }, false],
  ["sampling cap fraction", { sampling: { max_tokens: 1.5 } }, false],
  ["$schema not string", { $schema: 1 }, false],
];

describe("schema/pml.schema.json agrees with the valibot schema", () => {
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);

  for (const [name, sample, valid] of samples) {
    test(`${name}: ${valid ? "valid" : "invalid"} for both`, () => {
      expect(v.safeParse(ProjectConfigSchema, sample).success).toBe(valid);
      expect(validate(sample)).toBe(valid);
    });
  }

  test("the embedded copy is the shipped file, and it documents every top-level key", () => {
    expect(projectConfigJsonSchema()).toEqual(schema as any);
    const jsonKeys = Object.keys((schema as any).properties).sort();
    const valibotKeys = Object.keys(ProjectConfigSchema.entries).sort();
    expect(jsonKeys).toEqual(valibotKeys);
  });
});
