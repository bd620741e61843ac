// The environment resolver's decisions, one rule per test: where values come from, what an entry
// the user did not write gets, PML_API_KEY never, ${VAR} in env values and headers.
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { EnvResolver, envRequestFor, type EnvRequest } from "../../src/env/env-resolver.ts";
import { tempDir } from "../helpers/pml.ts";

const ws = tempDir("pml-envres-");
writeFileSync(join(ws.path, ".env"), "FROM_FILE=file-value\nSHARED=from-file\n");
afterAll(() => ws.cleanup());

const env = { FROM_ENV: "env-value", SHARED: "from-env", PML_API_KEY: "pml-key", PATH: "/bin", HOME: "/home/u", PML_HOME: "/ph" };
const resolver = (grants: Record<string, string[]> = {}, session: string[] = []) =>
  new EnvResolver({ workspace: ws.path, env, grants, sessionGranted: (ns, name) => session.includes(`${ns}:${name}`) });
const req = (over: Partial<EnvRequest>): EnvRequest => ({ ns: "x", kind: "server", origin: "other", destination: "the command `x`", required: [], ...over });

describe("EnvResolver.plan", () => {
  test("values: the process environment first, then the workspace .env; where each came from", () => {
    const plan = resolver().plan(req({ origin: "user", required: ["FROM_ENV", "FROM_FILE", "SHARED"] }));
    expect(plan.values).toEqual({ FROM_ENV: "env-value", FROM_FILE: "file-value", SHARED: "from-env" });
    expect(plan.from).toEqual({ FROM_ENV: "environment", FROM_FILE: ".env", SHARED: "environment" });
    expect(plan.missing).toEqual([]);
  });

  test("a value the environment has just as the workspace .env has it came from the .env (a launcher like `bun run` loaded it)", () => {
    const plan = new EnvResolver({ workspace: ws.path, env: { ...env, FROM_FILE: "file-value" } }).plan(req({ origin: "user", required: ["FROM_FILE", "SHARED"] }));
    expect(plan.from).toEqual({ FROM_FILE: ".env", SHARED: "environment" });
  });

  test("an entry the user did not write gets nothing ungranted; .pml.json grants and session grants open it", () => {
    const r = req({ required: ["FROM_ENV", "FROM_FILE"] });
    expect(resolver().plan(r)).toMatchObject({ values: {}, ungranted: ["FROM_ENV", "FROM_FILE"], env: {} });
    expect(resolver({ x: ["FROM_FILE"] }).plan(r)).toMatchObject({ values: { FROM_FILE: "file-value" }, ungranted: ["FROM_ENV"] });
    expect(resolver({ other: ["FROM_ENV"] }, ["x:FROM_ENV"]).plan(r)).toMatchObject({ values: { FROM_ENV: "env-value" }, ungranted: ["FROM_FILE"] });
  });

  test("a namespace named like an object's own members (constructor, __proto__) is granted only what .pml.json gives it", () => {
    const r = (ns: string) => req({ ns, required: ["FROM_ENV"] });
    for (const ns of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect(resolver().plan(r(ns))).toMatchObject({ values: {}, ungranted: ["FROM_ENV"] });
      // As .pml.json is read: JSON makes "__proto__" an own key like any other.
      const grants = JSON.parse(`{${JSON.stringify(ns)}: ["FROM_ENV"]}`);
      expect(resolver(grants).plan(r(ns))).toMatchObject({ values: { FROM_ENV: "env-value" }, ungranted: [] });
    }
  });

  test("PML_API_KEY is withheld from everyone, the user's own entries and grants included", () => {
    for (const origin of ["user", "other"] as const) {
      const plan = resolver({ x: ["PML_API_KEY"] }).plan(
        req({ origin, required: ["PML_API_KEY"], env: { PML_API_KEY: "literal", K: "${PML_API_KEY}" }, headers: { Authorization: "Bearer ${PML_API_KEY}" } }),
      );
      expect(plan.withheld).toEqual(["PML_API_KEY"]);
      expect(plan.values).toEqual({});
      expect(plan.env).toEqual({});
      expect(plan.headers).toEqual({});
      expect(JSON.stringify(plan)).not.toContain("pml-key");
    }
  });

  test("missing: required and unset anywhere; a default or the entry's own literal satisfies it", () => {
    const plan = resolver().plan(req({ origin: "user", required: ["NOPE", "TOKEN"], env: { TOKEN: "own-literal", OPT: "${UNSET:-fallback}" } }));
    expect(plan.missing).toEqual(["NOPE"]);
    expect(plan.env).toEqual({ TOKEN: "own-literal", OPT: "fallback" });
  });

  test("${workspace} and ${pml_home} are pml's own placeholders, not lookups", () => {
    const plan = resolver().plan(req({ env: { MEMORY_FILE_PATH: "${pml_home}/memory.jsonl", ROOT: "${workspace}" } }));
    expect(plan.env).toEqual({ MEMORY_FILE_PATH: "/ph/memory.jsonl", ROOT: ws.path });
    expect(plan.ungranted).toEqual([]);
  });

  test("headers: a header using an ungranted variable is not sent; granted ones are filled", () => {
    const headers = { Authorization: "Bearer ${FROM_FILE}", "X-Team": "core", "X-Env": "${FROM_ENV}" };
    expect(resolver().plan(req({ kind: "remote", headers })).headers).toEqual({ "x-team": "core" });
    expect(resolver({ x: ["FROM_FILE", "FROM_ENV"] }).plan(req({ kind: "remote", headers })).headers).toEqual({
      authorization: "Bearer file-value",
      "x-team": "core",
      "x-env": "env-value",
    });
  });

  test("a child's environment: the basics of pml's own plus the plan, nothing else of pml's", () => {
    const r = resolver({ x: ["FROM_ENV"] });
    const child = r.childEnv(r.plan(req({ required: ["FROM_ENV"] })));
    expect(child).toEqual({ PATH: "/bin", HOME: "/home/u", FROM_ENV: "env-value" });
  });

  test("envRequestFor names the destination: the command line, the URL, the cloud endpoint", () => {
    expect(envRequestFor("s", { type: "stdio", command: "/usr/bin/srv", args: ["--root", "a b"], env_required: [] }, "other").destination).toBe(
      "the command `/usr/bin/srv --root 'a b'`",
    );
    const pkg = { type: "stdio" as const, package: { registryType: "npm" as const, identifier: "@x/srv", version: "1.2.3", args: ["${workspace}"] }, env_required: [] };
    expect(envRequestFor("p", pkg, "other", { substitute: (s) => s.replace("${pml_home}", "/ph").replace("${workspace}", "/ws") }).destination).toBe(
      "the npm package @x/srv@1.2.3 (its bin, installed in /ph/deps/@x/srv@1.2.3, run on pml's own runtime) with arguments /ws",
    );
    expect(envRequestFor("h", { type: "http", url: "https://mcp.example.com/mcp", env_required: [] }, "other").destination).toBe("https://mcp.example.com/mcp");
    expect(envRequestFor("c", { type: "cloud", env_required: [] }, "other", { cloudEndpoint: "https://c.example/mcp/tools/call" })).toMatchObject({
      kind: "cloud",
      destination: "the pml cloud endpoint https://c.example/mcp/tools/call",
    });
  });
});
