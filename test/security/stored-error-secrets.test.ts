// A failed call's text is kept in memory.db for the page's Activity. A server or code that echoes a
// key in its error must not leave it in ~/.pml: what is kept is screened like what is published
// (values of the environment and the workspace .env, token shapes).
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, writeFileSync } from "node:fs";
import { callTool, session, uiDirs, waitFor } from "../ui/ui-helpers.ts";

const made = uiDirs("pml-stored-error-");
afterAll(() => made.dir.cleanup());

test("a failed call's kept text has the workspace's .env values and token shapes written as what they are", async () => {
  const { ws, home } = made;
  writeFileSync(`${ws}/.env`, "SERVICE_TOKEN=tok-9f8e7d6c5b4a\n");
  const peer = await session(ws, home);
  // Saved once (a run that does not fail), then called with a key that its error echoes.
  const code = 'if (args.key) throw new Error(`refused key ${args.key}, also ghp_0123456789abcdefghijABCDEFGHIJ012345`); return "ok";';
  expect((await callTool(peer, "execute", { code, args: { key: "" }, intent: "check a key", name: "util:check_key" })).isError).toBeFalsy();
  expect((await callTool(peer, "cap__util__check_key", { key: "tok-9f8e7d6c5b4a" })).isError).toBe(true);
  let kept = "";
  await waitFor(
    () => {
      if (!existsSync(`${home}/memory.db`)) return false;
      const db = new Database(`${home}/memory.db`, { readonly: true });
      try {
        kept = (db.query("SELECT last_error FROM tool_usage WHERE last_error IS NOT NULL").all() as { last_error: string }[]).map((r) => r.last_error).join("\n");
      } finally {
        db.close();
      }
      return kept !== "";
    },
    { what: "the failed call's text in tool_usage" },
  ).finally(() => peer.kill());
  expect(kept).toContain("refused key [the value of SERVICE_TOKEN]");
  expect(kept).toContain("[a GitHub token]");
  expect(kept).not.toContain("tok-9f8e7d6c5b4a");
  expect(kept).not.toContain("ghp_0123");
}, 60_000);
