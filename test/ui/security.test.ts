// `pml ui` refuses whoever did not open its printed address: plain HTTP against the compiled
// binary, no browser needed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BIN } from "../helpers/pml.ts";
import { startUi, tempDir, type UiFixture } from "./ui-helpers.ts";

let dir: ReturnType<typeof tempDir>;
let ui: UiFixture;
let cookie = "";

beforeAll(async () => {
  dir = tempDir("pml-ui-sec-");
  const { mkdirSync } = await import("node:fs");
  mkdirSync(`${dir.path}/ws/.git`, { recursive: true });
  mkdirSync(`${dir.path}/home`);
  ui = await startUi(`${dir.path}/ws`, `${dir.path}/home`);
  const first = await fetch(ui.url);
  cookie = (first.headers.get("set-cookie") ?? "").split(";")[0]!;
});
afterAll(() => {
  ui?.stop();
  dir?.cleanup();
});

const at = (path: string, init: RequestInit = {}) => fetch(`${ui.origin}${path}`, { redirect: "manual", ...init });

describe("pml ui refuses requests without its token", () => {
  test("the printed address serves the page and sets an HttpOnly SameSite=Strict cookie; the page's headers allow only its own code", async () => {
    const res = await fetch(ui.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="app">');
    expect(res.headers.get("set-cookie")).toMatch(/^pml_ui_\d+=[A-Za-z0-9_-]+; HttpOnly; SameSite=Strict; Path=\/$/);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(cookie).toStartWith(`pml_ui_${ui.port}=`);
  });

  test("without the token or cookie: 401 with one body, whether the path exists or not (page, API, assets, nonsense)", async () => {
    const page = await (await fetch(ui.url)).text();
    const asset = /src="(\/chunk-[^"]+\.js)"/.exec(page)![1]!;
    const bodies = new Set<string>();
    for (const path of ["/", "/api/overview", "/api/capabilities", asset, "/no/such/thing", "/api/nope", `/?token=${ui.token}x`]) {
      const res = await at(path);
      expect(res.status).toBe(401);
      bodies.add(await res.text());
    }
    const post = await at("/api/rename", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(post.status).toBe(401);
    bodies.add(await post.text());
    expect(bodies.size).toBe(1);
    // With the cookie the same asset is served: the 401 was the guard, not a missing file.
    expect((await at(asset, { headers: { cookie } })).status).toBe(200);
  });

  test("a Host that is not this server (DNS rebinding) and a foreign Origin are refused even with the cookie", async () => {
    const badHost = await at("/api/overview", { headers: { cookie, host: `evil.example:${ui.port}` } });
    expect(badHost.status).toBe(403);
    const otherPort = await at("/api/overview", { headers: { cookie, host: `127.0.0.1:${ui.port + 1}` } });
    expect(otherPort.status).toBe(403);
    const badOrigin = await at("/api/overview", { headers: { cookie, origin: "http://evil.example" } });
    expect(badOrigin.status).toBe(403);
    // Another loopback port is another site: not this page's origin.
    const otherLocal = await at("/api/overview", { headers: { cookie, origin: `http://127.0.0.1:${ui.port + 1}` } });
    expect(otherLocal.status).toBe(403);
    expect((await at("/api/overview", { headers: { cookie, origin: ui.origin } })).status).toBe(200);
  });

  test("an action is a POST with the page's CSRF header and its Origin; a GET to an action path changes nothing", async () => {
    const { csrf } = (await (await at("/api/session", { headers: { cookie } })).json()) as { csrf: string };
    const body = JSON.stringify({ name: "util:none", newName: "util:other_thing" });
    const json = { "content-type": "application/json" };
    expect((await at("/api/rename", { method: "POST", body, headers: { ...json, cookie, origin: ui.origin } })).status).toBe(403);
    expect((await at("/api/rename", { method: "POST", body, headers: { ...json, cookie, "x-pml-csrf": csrf } })).status).toBe(403);
    expect((await at("/api/rename", { method: "POST", body, headers: { ...json, cookie, origin: ui.origin, "x-pml-csrf": `${csrf}x` } })).status).toBe(403);
    expect((await at("/api/rename", { headers: { cookie } })).status).toBe(404);
    expect((await at("/api/overview", { method: "PUT", headers: { cookie, origin: ui.origin } })).status).toBe(405);
    // Everything right: it reaches dns:rename, whose own message says the capability is not there.
    const done = await at("/api/rename", { method: "POST", body, headers: { ...json, cookie, origin: ui.origin, "x-pml-csrf": csrf } });
    expect(done.status).toBe(400);
    expect(((await done.json()) as { error: string }).error).toMatch(/not found|util:none/i);
  });
});

test("a second pml ui on a port in use fails and says so (it does not share the port)", () => {
  const r = Bun.spawnSync([BIN, "ui", "--no-open", "--port", String(ui.port), "--dir", ui.ws], { env: ui.env, stdin: "ignore" });
  expect(r.exitCode).toBe(1);
  expect(r.stderr.toString()).toContain(`port ${ui.port} is in use`);
  expect(r.stdout.toString()).toBe("");
});

describe("pml ui's Overview API", () => {
  test("a cloned .pml.json's allow is listed as not applied until trusted; its deny applies; a broken file is reported, not fatal", async () => {
    const { writeFileSync } = await import("node:fs");
    const file = `${ui.ws}/.pml.json`;
    writeFileSync(file, '{"permissions": {"allow": ["memory:*"], "deny": [');
    const read = async () => (await (await at("/api/overview", { headers: { cookie } })).json()) as any;
    const broken = await read();
    expect(broken.config.error).toContain("invalid JSON");
    writeFileSync(file, JSON.stringify({ permissions: { allow: ["memory:*"], deny: ["shell:*"] } }));
    const { waitFor } = await import("../helpers/wait.ts");
    let o: any;
    await waitFor(async () => !(o = await read()).config.error, { what: "the fixed file to be read" });
    expect(o.trust.untrusted).toEqual(['permissions.allow "memory:*": runs without asking you']);
    const rule = (p: string) => o.permissions.find((r: any) => r.pattern === p);
    expect(rule("memory:*")).toMatchObject({ decision: "allow", applies: false });
    expect(rule("memory:*").source).toContain("not trusted");
    expect(rule("shell:*")).toMatchObject({ decision: "deny", applies: true });
  });
});
