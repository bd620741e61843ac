// The gate's decision as a pure function (src/policy/evaluate.ts), driven with plain facts: no
// server, no file, no registry. Each decision also shows which facts it asked for, in which order:
// a denied tool is decided before its namespace is resolved, a missing one before anyone is asked.
import { describe, expect, test } from "bun:test";
import type { EnvPlan } from "../../src/env/env-resolver.ts";
import type { ProjectConfig } from "../../src/config/pml-json.ts";
import type { Descriptor } from "../../src/registry/descriptor.ts";
import type { Resolved } from "../../src/registry/resolved.ts";
import { builtinModules } from "../../src/sandbox/builtins/builtins.ts";
import { evaluate, listingRefusal, type Decision, type Facts, type Need, type Request } from "../../src/policy/evaluate.ts";
import type { ProjectState } from "../../src/policy/project.ts";

const WS = "/work/project";

/** .pml.json as parsed: the parts a test leaves out are absent (the gate reads each with a default). */
function state(config: { permissions?: { allow?: string[]; ask?: string[]; deny?: string[] } } = {}, more: Partial<ProjectState> = {}): ProjectState {
  return { config: config as ProjectConfig, untrusted: [], trusted: true, path: `${WS}/.pml.json`, exists: true, generation: 1, ...more };
}

function resolved(ns: string, descriptor: Descriptor | Resolved["descriptor"], origin: Resolved["origin"] = "other"): Resolved {
  return { ns, descriptor, source: "https://registry.example", origin };
}

const stdio = (tools: string[] = ["run"]): Descriptor => ({ type: "stdio", command: "acme-server", env_required: [], tools: tools.map((name) => ({ name, inputSchema: {} })) });

function envPlan(more: Partial<EnvPlan> = {}): EnvPlan {
  return {
    request: { ns: "acme", kind: "server", origin: "other", destination: "the command `acme-server`", required: [] },
    values: {},
    env: {},
    headers: {},
    missing: [],
    ungranted: [],
    withheld: [],
    from: {},
    ...more,
  };
}

function request(ns: string, action: string, args: Record<string, unknown> = {}, approved: string[] = []): Request {
  return { id: { ns, action }, args, approved: new Set(approved), signal: new AbortController().signal };
}

/** What a gatherer would find, fact by fact; `evaluate` is asked until it decides. */
interface World {
  state?: ProjectState;
  inProcess?: boolean;
  foreign?: Facts["foreign"];
  resolved?: Resolved;
  resolveError?: string;
  cloudKey?: boolean;
  known?: { name: string }[];
  kept?: boolean;
  relisted?: { name: string }[];
  env?: EnvPlan;
  files?: Facts["files"];
}

function decide(world: World, req: Request): { decision: Decision; asked: Need[] } {
  const facts: Facts = { workspace: WS, state: world.state ?? state(), inProcess: world.inProcess ?? false };
  const asked: Need[] = [];
  for (;;) {
    const step = evaluate(facts, req);
    if (step.kind !== "need") return { decision: step, asked };
    asked.push(step.need);
    expect(asked.filter((n) => n === step.need)).toHaveLength(1);
    if (step.need === "foreign") facts.foreign = world.foreign ?? {};
    else if (step.need === "resolution") facts.resolution = world.resolved ? { resolved: world.resolved } : { error: world.resolveError ?? "unknown namespace" };
    else if (step.need === "cloud-key") facts.cloudKey = world.cloudKey ?? false;
    else if (step.need === "tools") facts.tools = { known: world.known, kept: world.kept ?? false };
    else if (step.need === "relist") facts.relisted = { tools: world.relisted };
    else if (step.need === "env") facts.env = world.env ?? envPlan();
    else if (step.need === "files") facts.files = world.files ?? { audit: [] };
    else facts.host = { installed: true, confinement: { kind: "bubblewrap", summary: "bubblewrap 0.8.0" } };
  }
}

const acme = resolved("acme", stdio(["run", "read_file", "write_file"]));

describe("evaluate: the file's patterns", () => {
  test("a tool denied by a pattern is refused before its namespace is resolved", () => {
    const { decision, asked } = decide({ state: state({ permissions: { deny: ["acme:*"] } }), resolved: acme }, request("acme", "run"));
    expect(asked).toEqual([]);
    expect(decision).toEqual({
      kind: "deny",
      code: "denied",
      message: `acme:run is denied by ${WS}/.pml.json (permissions.deny). It was not run. To allow it, remove the matching deny pattern.`,
      audit: [{ tool: "acme:run", attempted: "call", reason: "denied by .pml.json permissions" }],
    });
  });

  test("an unreadable .pml.json refuses everything, asking for nothing", () => {
    const { decision, asked } = decide({ state: state({}, { error: "bad JSON" }) }, request("acme", "run"));
    expect(asked).toEqual([]);
    expect(decision).toMatchObject({ kind: "deny", code: "unreadable-config", message: "bad JSON\nNothing was run; pml rereads the file on the next call." });
  });

  test("a namespace that cannot be resolved is refused with the reason", () => {
    const { decision, asked } = decide({ resolveError: "no registry has acme" }, request("acme", "run"));
    expect(asked).toEqual(["resolution"]);
    expect(decision).toEqual({ kind: "deny", code: "unavailable", message: "no registry has acme" });
  });

  test("a tool allowed by the file runs unasked: allow, by the file", () => {
    const { decision, asked } = decide({ state: state({ permissions: { allow: ["acme"] } }), resolved: acme }, request("acme", "run"));
    expect(asked).toEqual(["resolution", "tools", "env"]);
    expect(decision).toMatchObject({ kind: "allow", byFile: true, plan: { resolved: acme } });
  });
});

describe("evaluate: the tool", () => {
  test("a tool the namespace does not have is refused with a did-you-mean, before anyone is asked", () => {
    const { decision, asked } = decide({ resolved: acme, known: [{ name: "read_file" }, { name: "write_file" }] }, request("acme", "read_fil"));
    expect(asked).toEqual(["resolution", "tools"]);
    expect(decision).toEqual({
      kind: "deny",
      code: "no-such-tool",
      message: '"acme" has no tool "read_fil"; nothing was run or asked. Did you mean acme:read_file? Its tools: read_file, write_file.',
    });
  });

  test("a list kept from an earlier session is asked again of the user's own allowed server first", () => {
    const own = resolved("mine", stdio(), "user");
    const world = { state: state({ permissions: { allow: ["mine"] } }), resolved: own, known: [{ name: "old" }], kept: true, relisted: [{ name: "new" }] };
    expect(decide(world, request("mine", "new"))).toMatchObject({ asked: ["resolution", "tools", "relist", "env"], decision: { kind: "allow" } });
    const { decision } = decide({ ...world, relisted: undefined }, request("mine", "new"));
    expect(decision).toMatchObject({ kind: "deny", code: "no-such-tool" });
    expect((decision as { message: string }).message).toContain("as it listed them in an earlier session");
  });

  test("a cloud tool without PML_API_KEY is refused before approval or variables", () => {
    const cloud = resolved("tavily", { type: "cloud", env_required: ["TAVILY_KEY"] });
    const { decision, asked } = decide({ resolved: cloud, cloudKey: false }, request("tavily", "search"));
    expect(asked).toEqual(["resolution", "cloud-key"]);
    expect(decision).toMatchObject({ kind: "deny", code: "no-cloud-key" });
    expect(decide({ resolved: cloud, cloudKey: true }, request("tavily", "search")).asked).toEqual(["resolution", "cloud-key", "tools", "env", "host"]);
  });
});

describe("evaluate: the environment and the session", () => {
  test("a variable set nowhere refuses the call, saying where to set it", () => {
    const { decision } = decide({ state: state({ permissions: { allow: ["acme"] } }), resolved: acme, env: envPlan({ missing: ["ACME_TOKEN"] }) }, request("acme", "run"));
    expect(decision).toMatchObject({ kind: "deny", code: "missing-env" });
    const message = (decision as { message: string }).message;
    expect(message).toContain("acme:run needs the environment variable ACME_TOKEN, which is not set.");
    expect(message).toContain(`${WS}/.env`);
  });

  test("a variable the user has not granted is asked about, with the grant, even when the file allows the tool", () => {
    const env = envPlan({ ungranted: ["ACME_TOKEN"], from: { ACME_TOKEN: "environment" } });
    const { decision, asked } = decide({ state: state({ permissions: { allow: ["acme"] } }), resolved: acme, env }, request("acme", "run"));
    expect(asked).toEqual(["resolution", "tools", "env", "host"]);
    expect(decision).toMatchObject({ kind: "ask", question: { toolId: "acme:run", key: "acme:run", grant: { ns: "acme", names: ["ACME_TOKEN"] }, fileAllows: true } });
    expect((decision as { question: { why: string } }).question.why).toContain("It asks for your variable ACME_TOKEN (from your environment)");
  });

  test("a tool the session approved runs: allow, not by the file", () => {
    const { decision } = decide({ resolved: acme }, request("acme", "run", {}, ["acme:run"]));
    expect(decision.kind).toBe("allow");
    expect(decision).not.toHaveProperty("byFile");
  });

  test("a tool nobody allowed is asked about, saying what it will run", () => {
    const { decision } = decide({ resolved: acme }, request("acme", "run", { x: 1 }));
    expect(decision).toMatchObject({ kind: "ask", question: { toolId: "acme:run", key: "acme:run" } });
    expect(decision).not.toHaveProperty("question.fileAllows");
    expect((decision as { question: { why: string } }).question.why).toContain("It runs the command `acme-server` (from https://registry.example) on this machine.");
  });
});

describe("evaluate: another org's code", () => {
  const cap = resolved("cap", { type: "inprocess", description: "capabilities", env_required: [] }, "user");
  const foreign = { check: { ask: { org: "other-org", fqdn: "other-org.team.tool", source: "the team registry" } } };

  test("pml's own namespace runs unasked, but another org's code is asked about, naming the org", () => {
    expect(decide({ inProcess: true, resolved: cap }, request("cap", "mine"))).toMatchObject({ asked: ["foreign", "resolution", "tools", "env"], decision: { kind: "allow" } });
    const { decision } = decide({ inProcess: true, foreign, resolved: cap }, request("cap", "other-org.team.tool"));
    expect(decision).toMatchObject({ kind: "ask", question: { toolId: "cap:other-org.team.tool" } });
    expect((decision as { question: { why: string } }).question.why).toContain('It runs code published by org "other-org" (other-org.team.tool, from the team registry)');
  });

  test("a broad allow does not cover it; its exact name does", () => {
    for (const allow of ["cap", "cap:*", "*"])
      expect(decide({ state: state({ permissions: { allow: [allow] } }), inProcess: true, foreign, resolved: cap }, request("cap", "other-org.team.tool")).decision.kind).toBe(
        "ask",
      );
    const exact = state({ permissions: { allow: ["cap:other-org.team.tool"] } });
    expect(decide({ state: exact, inProcess: true, foreign, resolved: cap }, request("cap", "other-org.team.tool")).decision.kind).toBe("allow");
  });

  test("code that cannot be fetched is refused before resolving", () => {
    const { decision, asked } = decide({ inProcess: true, foreign: { check: { refuse: "the team registry is unreachable" } } }, request("cap", "x.y.z"));
    expect(asked).toEqual(["foreign"]);
    expect(decision).toEqual({ kind: "deny", code: "unavailable", message: "the team registry is unreachable" });
  });
});

describe("evaluate: the arguments", () => {
  const fs = resolved("filesystem", builtinModules().filesystem!, "user");

  test("a protected file target is refused before anyone is asked, with the host's audit", () => {
    const audit = [{ tool: "filesystem:write_file", attempted: "write .pml.json", reason: "protected" }];
    const world = { resolved: fs, files: { targets: { refused: "writing .pml.json is not allowed" }, audit } };
    const { decision, asked } = decide(world, request("filesystem", "write_file", { path: ".pml.json", content: "{}" }));
    expect(asked).toEqual(["resolution", "tools", "env", "files"]);
    expect(decision).toEqual({
      kind: "deny",
      code: "protected",
      message: "Refused: writing .pml.json is not allowed (filesystem:write_file was not run, and nobody was asked.)",
      audit,
    });
  });

  test("a question about a file call names where the path leads", () => {
    const world = { resolved: fs, files: { targets: { targets: [{ arg: "path", given: "a/../b.txt", resolved: "b.txt" }] }, audit: [] } };
    const { decision } = decide(world, request("filesystem", "write_file", { path: "a/../b.txt", content: "x" }));
    expect((decision as { question: { why: string } }).question.why).toContain('(that is "b.txt" in the workspace)');
  });
});

describe("evaluate: a file with grants the user has not trusted", () => {
  const untrusted = state({}, { untrusted: [{ id: "g1", text: "cloud.url https://x" }] });
  const note = `(${WS}/.pml.json grants what you have not trusted yet, which does not apply: run \`pml trust\` in ${WS} to review it.)`;

  test("a question and a refusal say so; an allow does not", () => {
    const asked = decide({ state: untrusted, resolved: acme }, request("acme", "run")).decision as { question: { why: string } };
    expect(asked.question.why.endsWith(note)).toBe(true);
    const denied = decide({ state: untrusted, resolveError: "no such namespace" }, request("acme", "run")).decision;
    expect(denied).toEqual({ kind: "deny", code: "unavailable", message: `no such namespace ${note}` });
    expect(decide({ state: untrusted, resolved: acme }, request("acme", "run", {}, ["acme:run"])).decision.kind).toBe("allow");
  });
});

describe("listingRefusal", () => {
  test("discover starts only the user's own allowed server, with its variables set; a registry's before its environment is read", () => {
    const own = resolved("mine", stdio(), "user");
    const refusal = (facts: Parameters<typeof listingRefusal>[0], r: Resolved) => {
      const step = listingRefusal(facts, r);
      return step && "refuse" in step ? step.refuse : step;
    };
    expect(refusal({ workspace: WS, state: state() }, acme)).toContain("pml starts a registry's server only for a call you approved");
    expect(refusal({ workspace: WS, state: state() }, own)).toEqual({ need: "env" });
    expect(refusal({ workspace: WS, state: state({ permissions: { deny: ["mine"] } }), env: envPlan() }, own)).toBe(
      `not started: mine is denied by ${WS}/.pml.json (permissions.deny).`,
    );
    expect(refusal({ workspace: WS, state: state(), env: envPlan() }, own)).toContain('allow "mine" in permissions.allow');
    const allowed = state({ permissions: { allow: ["mine"] } });
    expect(refusal({ workspace: WS, state: allowed, env: envPlan({ missing: ["T"] }) }, own)).toContain("mine needs the environment variable T");
    expect(refusal({ workspace: WS, state: allowed, env: envPlan() }, own)).toBeUndefined();
  });
});
