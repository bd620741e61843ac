// Memory's errors are the user's (issue 21 outcome 5): each extends the one user-error base, so one
// that escapes a tool is shown as it is, not as "pml internal error"; names and fields are kept.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { UserError } from "../../src/errors.ts";
import { codeHash } from "../../src/memory/code-hash.ts";
import { Memory, type MemorySettings, VersionError } from "../../src/memory/memory.ts";
import { SqliteCapabilityStore } from "../../src/memory/sqlite-store.ts";
import { NameTakenError, NotFoundError } from "../../src/memory/store.ts";
import { tempDir } from "../helpers/pml.ts";

const dir = tempDir("pml-memory-errors-");
const store = new SqliteCapabilityStore(join(dir.path, "memory.db"));
const memory = new Memory(join(dir.path, "memory.db"));
afterAll(async () => {
  store.close();
  await memory.close();
  dir.cleanup();
});
const scope = { org: "local", project: "errors", owner: "/test/errors" };
const settings: MemorySettings = { scope, capture: true, strictNamespaces: false, curateAfter: 10 };

function save(code: string, action: string) {
  return store.capture({
    scope,
    name: { namespace: "fs", action },
    code,
    code_hash: codeHash(code),
    parameters_schema: { type: "object" },
    default_args: {},
    tools_used: [],
    routing: "local",
    routing_explicit: false,
    by: "t",
    latency_ms: 1,
  });
}

test("NameTakenError and NotFoundError from the store are user errors with their names and fields", async () => {
  await save("return 1", "read_one");
  await save("return 2", "read_two");
  const taken = await store.rename(scope, { namespace: "fs", action: "read_one" }, { namespace: "fs", action: "read_two" }, "t").catch((e) => e);
  expect(taken).toBeInstanceOf(NameTakenError);
  expect(taken).toBeInstanceOf(UserError);
  expect(taken.name).toBe("NameTakenError");
  expect(taken.taken).toBe("fs:read_two");
  expect(taken.message).toBe("Capability name 'fs:read_two' already exists");
  const missing = await store.tag("no-such-id", ["x"], [], "t").catch((e) => e);
  expect(missing).toBeInstanceOf(NotFoundError);
  expect(missing).toBeInstanceOf(UserError);
  expect(missing.name).toBe("NotFoundError");
  expect(missing.wanted).toBe("no-such-id");
  expect(missing.message).toBe("Capability not found: no-such-id");
});

test("VersionError from a version that does not exist is a user error", async () => {
  const e = await memory.resolve(settings, "fs:read_one@v7").catch((err) => err);
  expect(e).toBeInstanceOf(VersionError);
  expect(e).toBeInstanceOf(UserError);
  expect(e.name).toBe("VersionError");
  expect(e.message).toBe("Version v7 not found for fs:read_one");
});

test("a rename to a malformed name is a user error", async () => {
  const e = await memory.rename(settings, "not a name", "fs:x").catch((err) => err);
  expect(e).toBeInstanceOf(UserError);
});
