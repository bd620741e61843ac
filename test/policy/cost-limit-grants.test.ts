// Issue 47 item 3: every limit of .pml.json that spends the user's time, tokens or money outside
// the sandbox (config/cost-limits.ts) is a key the schema knows, and a grant exactly when it is
// raised above pml's default: at or below it only restricts and applies untrusted; above it, the
// untrusted file's value is taken out (pml's default applies) and `pml trust` lists it.
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { COST_LIMIT_DEFAULTS, type CostLimitKey } from "../../src/config/cost-limits.ts";
import { ProjectConfigSchema, type ProjectConfig } from "../../src/config/pml-json.ts";
import { grantsOf, withGrants } from "../../src/policy/trust/grants.ts";

const at = (key: CostLimitKey, value: unknown): ProjectConfig => {
  const [parent, name] = key.split(".") as [string, string];
  return v.parse(ProjectConfigSchema, { [parent]: { [name]: value } }) as ProjectConfig;
};
const limitIn = (c: ProjectConfig, key: CostLimitKey) => {
  const [parent, name] = key.split(".") as [string, string];
  return (c as any)[parent]?.[name];
};

describe.each(Object.entries(COST_LIMIT_DEFAULTS) as [CostLimitKey, number][])("%s (default %d)", (key, byDefault) => {
  test("the schema knows the key and takes a value above the default", () => {
    expect(limitIn(at(key, byDefault + 1), key)).toBe(byDefault + 1);
  });

  test("at or below the default it grants nothing and is kept untrusted", () => {
    for (const n of [byDefault, Math.max(1, byDefault - 1)]) {
      const c = at(key, n);
      expect(grantsOf(c)).toEqual([]);
      expect(
        limitIn(
          withGrants(c, () => false),
          key,
        ),
      ).toBe(n);
    }
  });

  test("above the default it is one grant, bound to the value, taken out untrusted and kept trusted", () => {
    const c = at(key, byDefault * 10);
    const grants = grantsOf(c);
    expect(grants).toHaveLength(1);
    expect(grants[0]!.id).toBe(`${key} ${byDefault * 10}`);
    expect(grants[0]!.text).toStartWith(`${key}: raises `);
    expect(grants[0]!.text).toContain(`(default ${byDefault}`);
    expect(
      limitIn(
        withGrants(c, () => false),
        key,
      ),
    ).toBeUndefined();
    expect(
      limitIn(
        withGrants(c, (id) => id === grants[0]!.id),
        key,
      ),
    ).toBe(byDefault * 10);
  });
});

test('memory.list_tools "all" is above any default: a grant', () => {
  expect(grantsOf(at("memory.list_tools", "all")).map((g) => g.id)).toEqual(['memory.list_tools "all"']);
});

test("the gateway applies the pool defaults the trust check compares with", async () => {
  // src/gateway/dispatch/backends.ts spells them inline (being reworked in parallel): they must not drift apart.
  const backends = await Bun.file(new URL("../../src/gateway/dispatch/backends.ts", import.meta.url)).text();
  expect(backends).toContain(`call_timeout_s ?? ${COST_LIMIT_DEFAULTS["pool.call_timeout_s"]})`);
  expect(backends).toContain(`idle_timeout_s ?? ${COST_LIMIT_DEFAULTS["pool.idle_timeout_s"]})`);
});
