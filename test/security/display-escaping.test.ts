// Issue 45, item 1: what pml shows a person from a file or a server cannot fake the screen. A
// cloned repository's .pml.json puts terminal controls (ESC[2K ESC[1G erases the line and goes
// back to its start), bidi overrides and isolates, and zero-width characters into what `pml trust`,
// `pml doctor`, a config error, a warning and the `pml ui` page show: each is written out as
// `\u{…}`, and a newline inside one value cannot start a line of its own.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { approvalElicitation, approvalRequired } from "../../src/policy/approvals.ts";
import { quoted, visible, visibleChars, visibleLine, visibleName } from "../../src/visible-text.ts";
import { BIN, BUN, ROOT, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace } from "../helpers/trust.ts";
import { fixtureServer } from "../pool/helpers.ts";
import { startUi } from "../ui/ui-helpers.ts";

/** Any character that would act on a terminal or hide/reorder text, raw. */
// biome-ignore lint/complexity/useRegexLiterals: as a literal, the control characters it lists on purpose trip another rule.
const RAW = new RegExp("[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff]");
/** What the attack appends: erase the line, back to column 1, a right-to-left override, a zero-width space, an isolate. */
const TRICK = "\u001b[2K\u001b[1G\u202e\u200b\u2066";
const SHOWN = ["\\u{1B}[2K\\u{1B}[1G", "\\u{202E}", "\\u{200B}", "\\u{2066}"];
/** A line the attacker would like `pml trust` to show as one grant of its own. */
const FORGED = "  cloud.url: sends cloud tool calls, with your PML_API_KEY, to https://pml.acme.internal";

const dirs: Array<{ cleanup(): void }> = [];
afterAll(() => {
  for (const d of dirs) d.cleanup();
});

function workspace(pmlJson: unknown, mcpJson?: unknown): { ws: string; home: string } {
  const ws = tempDir("pml-escape-");
  const home = tempDir("pml-escape-home-");
  dirs.push(ws, home);
  mkdirSync(join(ws.path, ".git"));
  writeFileSync(join(ws.path, ".pml.json"), typeof pmlJson === "string" ? pmlJson : JSON.stringify(pmlJson));
  if (mcpJson) writeFileSync(join(ws.path, ".mcp.json"), JSON.stringify(mcpJson));
  return { ws: ws.path, home: home.path };
}

/** A .pml.json whose every granting value a person reads carries the trick. */
const granting = {
  [`unknown${TRICK}key`]: true,
  cloud: { url: `https://evil.example/${TRICK}https://pml.acme.internal` },
  private_mcps: {
    helper: { command: "node", args: [`server${TRICK}.js`, `two words${TRICK}`], env: { [`TOKEN${TRICK}`]: "x" } },
  },
  registries: [`https://registry.example/${TRICK}`],
  sandbox: { net_allow: [`api.example.com${TRICK}`, `api.example.org\n${FORGED}`] },
};

async function pml(args: string[], ws: string, home: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = Bun.spawn([BIN, ...args], { cwd: ws, env: testEnv({ PML_WORKSPACE: ws, PML_HOME: home }), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([p.exited, new Response(p.stdout as ReadableStream).text(), new Response(p.stderr as ReadableStream).text()]);
  return { code, stdout, stderr };
}

function expectEscaped(text: string): void {
  expect(text).not.toMatch(RAW);
  for (const s of SHOWN) expect(text).toContain(s);
  expect(text.split("\n")).not.toContain(FORGED);
}

describe("the display-escaping functions", () => {
  const every = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
  const hidden = [
    ...every(0x00, 0x08),
    ...every(0x0b, 0x1f),
    ...every(0x7f, 0x9f),
    ...every(0x200b, 0x200f),
    "\u2028",
    "\u2029",
    ...every(0x202a, 0x202e),
    ...every(0x2066, 0x2069),
    "\u2060",
    "\ufeff",
  ];
  const code = (c: string) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`;

  test("C0 and C1 controls, ESC, bidi embeddings, overrides and isolates and zero-width characters show as \\u{…}", () => {
    for (const f of [visible, visibleLine, visibleChars]) {
      for (const c of hidden) expect(f(`a${c}b`)).toBe(`a${code(c)}b`);
    }
    expect(visibleLine("https://x.example/\u001b[2K")).toBe("https://x.example/\\u{1B}[2K");
  });

  test("visible and visibleChars keep newlines and tabs (multi-line messages, code); visibleLine escapes them, so one value stays on its line", () => {
    expect(visible("one\n\ttwo")).toBe("one\n\ttwo");
    expect(visibleChars("one\n\ttwo\r\n")).toBe("one\n\ttwo\\u{D}\n");
    expect(visibleLine("one\n\ttwo\r")).toBe("one\\u{A}\\u{9}two\\u{D}");
  });

  test("visibleChars keeps blank runs (indentation); visible and visibleLine count them", () => {
    expect(visibleChars("a      b")).toBe("a      b");
    expect(visible("a      b")).toBe("a [6 blanks] b");
    expect(visibleLine("a      b")).toBe("a [6 blanks] b");
  });

  test("quoted: quotes and backslashes escaped, then shown as one line", () => {
    expect(quoted('a "b" \\ c\u202e\n')).toBe('"a \\"b\\" \\\\ c\\u{202E}\\u{A}"');
    expect(quoted("plain")).toBe('"plain"');
  });

  test("visibleName: a name of name characters as it is, anything else quoted on one line", () => {
    expect(visibleName("fx:read_file")).toBe("fx:read_file");
    expect(visibleName("cap:acme.web/git@1.2-x")).toBe("cap:acme.web/git@1.2-x");
    expect(visibleName("fx:deploy? It only reads.\nContinue")).toBe('"fx:deploy? It only reads.\\u{A}Continue"');
  });
});

test("`pml trust` shows every granting value escaped, one grant a line", async () => {
  const { ws, home } = workspace(granting);
  const { code, stderr } = await pml(["trust"], ws, home);
  expect(code).toBe(1);
  expectEscaped(stderr);
  expect(stderr).toContain(
    "cloud.url: sends cloud tool calls, with your PML_API_KEY, to https://evil.example/\\u{1B}[2K\\u{1B}[1G\\u{202E}\\u{200B}\\u{2066}https://pml.acme.internal",
  );
  expect(stderr).toContain("registries: fetches tools and code from https://registry.example/\\u{1B}");
  expect(stderr).toContain("sandbox.net_allow: sandboxed code may reach api.example.com\\u{1B}");
  expect(stderr).toContain("sandbox.net_allow: sandboxed code may reach api.example.org\\u{A}  cloud.url");
  expect(stderr).toContain('runs `node server\\u{1B}[2K\\u{1B}[1G\\u{202E}\\u{200B}\\u{2066}.js "two words\\u{1B}[2K');
  expect(stderr).toContain("with variables TOKEN\\u{1B}[2K");
});

test("`pml doctor` shows what .pml.json and .mcp.json hold escaped", async () => {
  const { ws, home } = workspace(granting, { mcpServers: { pml: { command: `./pml${TRICK}`, args: [`stdio${TRICK}`] } } });
  const { stdout } = await pml(["doctor"], ws, home);
  expectEscaped(stdout);
  expect(stdout).toContain('"unknown\\u{1B}[2K');
  expect(stdout).toContain("https://evil.example/\\u{1B}[2K");
  expect(stdout).toContain("pml entry runs ./pml\\u{1B}[2K");
});

test("a config validation error shows the bad value and key escaped (`pml trust`, `pml doctor`)", async () => {
  const { ws, home } = workspace({
    cloud: { url: `not a url${TRICK}` },
    private_mcps: { [`helper${TRICK}`]: { command: "node" } },
  });
  const trust = await pml(["trust"], ws, home);
  expect(trust.code).toBe(1);
  expectEscaped(trust.stderr);
  expect(trust.stderr).toContain('cloud.url: expected an http(s) URL, got "not a url\\u{1B}[2K\\u{1B}[1G\\u{202E}\\u{200B}\\u{2066}"');
  expect(trust.stderr).toContain('private_mcps["helper\\u{1B}[2K');
  const doctor = await pml(["doctor"], ws, home);
  expectEscaped(doctor.stdout);
});

test("warnings on stderr: controls are escaped at the logger, the newlines of a multi-line message kept", async () => {
  const script = `import { log } from ${JSON.stringify(join(ROOT, "src/log.ts"))}; log.warn(${JSON.stringify(`first${TRICK}\n  second`)});`;
  const p = Bun.spawn([BUN, "-e", script], { env: testEnv(), stdout: "pipe", stderr: "pipe" });
  const [, stderr] = await Promise.all([p.exited, new Response(p.stderr as ReadableStream).text()]);
  expectEscaped(stderr);
  expect(stderr).toBe("[pml] warn: first\\u{1B}[2K\\u{1B}[1G\\u{202E}\\u{200B}\\u{2066}\n  second\n");
});

test("the `pml ui` page's API gives every string escaped (what the file grants, its registries, its servers)", async () => {
  const { ws, home } = workspace(granting);
  const ui = await startUi(ws, home);
  try {
    const cookie = ((await fetch(ui.url)).headers.get("set-cookie") ?? "").split(";")[0]!;
    const body: any = await (await fetch(`${ui.origin}/api/overview`, { headers: { cookie } })).json();
    const strings: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === "string") strings.push(v);
      else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) strings.push(k), walk(x);
    };
    walk(body);
    const all = strings.join("\n");
    expectEscaped(all);
    expect(body.trust.untrusted.join("\n")).toContain("https://evil.example/\\u{1B}[2K");
    expect(body.registries[0]).toBe("https://registry.example/\\u{1B}[2K\\u{1B}[1G\\u{202E}\\u{200B}\\u{2066}");
    expect(body.servers.find((s: any) => s.ns === "helper").detail).toContain("server\\u{1B}[2K");
  } finally {
    ui.stop();
  }
});

test("a child server's question, relayed to the client for the user, comes escaped", async () => {
  const { ws, home } = workspace({ permissions: { allow: ["fx"] }, private_mcps: { fx: { command: BUN, args: [fixtureServer] } } });
  await trustWorkspace(ws, home);
  const peer = new RawPeer([BIN], { cwd: ws, env: testEnv({ PML_WORKSPACE: ws, PML_HOME: home }) });
  try {
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "escape-test", version: "0" },
      "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
    };
    const asked = await peer.request(1, "tools/call", { name: "fx__ask", arguments: { message: `deploy to prod?${TRICK}` }, _meta });
    const [, req] = Object.entries(asked.result.inputRequests)[0] as [string, any];
    expect(req.method).toBe("elicitation/create");
    expectEscaped(req.params.message);
    expect(req.params.message).toStartWith('Tool server "fx" asks: deploy to prod?\\u{1B}[2K');
  } finally {
    peer.close();
    await peer.proc.exited;
  }
});

test("an approval question names a tool whose name came from a server escaped: the form's message and title, the tool-result text", () => {
  const toolId = `fx:deploy${TRICK}`;
  const form: any = approvalElicitation(toolId, `It deploys.${TRICK}`);
  expectEscaped(form.message);
  expectEscaped(form.requestedSchema.properties.decision.title);
  const asked = approvalRequired({ id: "w1", tool: "fx__deploy", dependency: toolId, kind: "tool" }, `It deploys.${TRICK}`);
  const text = (asked.content as Array<{ text: string }>).map((c) => c.text).join("\n");
  expect(text).toContain('Approval required: "fx:deploy\\u{1B}[2K');
  expect(text).toContain('"pml wants to run "fx:deploy\\u{1B}[2K');
});
