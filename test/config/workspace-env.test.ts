// Which of pml's variables came from the workspace's .mcp.json (config/workspace-env.ts): the
// file's value as the client expands it (${VAR}, ${VAR:-default}), wrapped around the user's own
// value or not; the user's value passed on (${PML_API_KEY:-}) is the user's.
import { expect, test } from "bun:test";
import { fromFile, setsOwnValue } from "../../src/config/workspace-env.ts";

const v = (name: string, template: string) => ({ name, template });

test("a literal is the file's when pml has exactly it", () => {
  expect(fromFile(v("PML_HOME", "/repo/h"), "/repo/h", {})).toEqual({});
  expect(fromFile(v("PML_HOME", "/repo/h"), "/mine", {})).toBeUndefined();
  expect(fromFile(v("PML_HOME", "/repo/h"), undefined, {})).toBeUndefined();
});

test("a default or another variable the client expanded is the file's too", () => {
  expect(fromFile(v("PML_CONFINE", "${UNSET_HERE:-off}"), "off", {})).toEqual({});
  expect(fromFile(v("PML_HOME", "${TMPDIR}/h"), "/tmp/h", { TMPDIR: "/tmp" })).toEqual({});
  expect(fromFile(v("PML_HOME", "${TMPDIR}/h"), "/var/h", { TMPDIR: "/tmp" })).toBeUndefined();
});

test("a file that wraps the user's own value gives it back as what the variable is without the file", () => {
  expect(fromFile(v("PATH", "./bin:${PATH}"), "./bin:/usr/bin:/bin", {})).toEqual({ own: "/usr/bin:/bin" });
  expect(fromFile(v("PML_HOME", "${PML_HOME}/x"), "/u/x", {})).toEqual({ own: "/u" });
});

test("the user's value passed on is the user's; its fallback, when taken, is the file's", () => {
  expect(fromFile(v("PML_API_KEY", "${PML_API_KEY:-}"), "sk-mine", {})).toBeUndefined();
  expect(setsOwnValue(v("PML_API_KEY", "${PML_API_KEY:-}"))).toBe(false);
  expect(fromFile(v("PML_CONFINE", "${PML_CONFINE:-off}"), "off", {})).toEqual({});
  expect(fromFile(v("PML_CONFINE", "${PML_CONFINE:-off}"), "on", {})).toBeUndefined();
  // Unset, the client passes "${PML_HOME}" on literally: a folder of that name, chosen by the file.
  expect(fromFile(v("PML_HOME", "${PML_HOME}"), "${PML_HOME}", {})).toEqual({});
});
