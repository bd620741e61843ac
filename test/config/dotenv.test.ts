import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { parseDotEnv, readDotEnv, writeDotEnvKey } from "../../src/config/dotenv.ts";
import { readSetting as lookupEnv } from "../../src/config/settings.ts";
import { tempDirs } from "./helpers.ts";

const tempDir = tempDirs();

describe("dotenv", () => {
  test("parses KEY=VALUE, quotes, comments, export prefix", () => {
    const text = [
      "# a comment",
      "",
      "A=1",
      "export B = two words  # trailing comment",
      "C='single # not a comment'",
      'D="line\\nbreak \\"q\\""',
      "E=",
      "F=x#y",
      "not a line",
      'G="multi',
      'line"',
      "A=override",
      "H='a\\nb'",
    ].join("\r\n");
    expect(parseDotEnv(text)).toEqual({
      A: "override",
      B: "two words",
      C: "single # not a comment",
      D: 'line\nbreak "q"',
      E: "",
      F: "x#y",
      G: "multi\nline",
      H: "a\\nb",
    });
  });

  test("missing file is {}", async () => {
    expect(await readDotEnv(tempDir())).toEqual({});
  });

  test("lookupEnv: process env first, then .env; empty or unexpanded ${VAR} counts as unset", () => {
    const ws = tempDir();
    writeFileSync(join(ws, ".env"), "K=from-file\nONLY=file\n");
    expect(lookupEnv("K", { env: { K: "from-env" }, workspace: ws })).toBe("from-env");
    expect(lookupEnv("K", { env: {}, workspace: ws })).toBe("from-file");
    expect(lookupEnv("K", { env: { K: "" }, workspace: ws })).toBe("from-file");
    expect(lookupEnv("K", { env: { K: "${K}" }, workspace: ws })).toBe("from-file");
    expect(lookupEnv("NOPE", { env: {}, workspace: ws })).toBeUndefined();
    expect(lookupEnv("K", { env: {} })).toBeUndefined();
  });

  test("writeDotEnvKey: mode 0600, other lines kept, key replaced once, no temp files", async () => {
    const ws = tempDir();
    const path = join(ws, ".env");
    writeFileSync(path, '# keys\nexport OTHER=1\nPML_API_KEY=old\nX="a\nb"\nPML_API_KEY=dup\n');
    chmodSync(path, 0o644);
    await writeDotEnvKey(ws, "PML_API_KEY", "new key#1");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8")).toBe('# keys\nexport OTHER=1\nPML_API_KEY="new key#1"\nX="a\nb"\n');
    expect((await readDotEnv(ws)).PML_API_KEY).toBe("new key#1");
    await writeDotEnvKey(ws, "NEW", "v");
    expect(readFileSync(path, "utf8").endsWith("\nNEW=v\n")).toBe(true);
    expect(readdirSync(ws)).toEqual([".env"]);

    const fresh = tempDir();
    await writeDotEnvKey(fresh, "A", "b");
    expect(readFileSync(join(fresh, ".env"), "utf8")).toBe("A=b\n");
    expect(statSync(join(fresh, ".env")).mode & 0o777).toBe(0o600);
  });

  test("rejects a bad key name", async () => {
    await expect(writeDotEnvKey(tempDir(), "A B", "x")).rejects.toThrow(/not a valid environment variable name/);
  });
});
