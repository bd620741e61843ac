// The screen of what leaves the machine from memory (src/memory/secret-screen.ts): values of the
// environment and .env, URLs with a password and token shapes are caught wherever they sit in an
// argument; ordinary values that merely look a little like them are not.
import { expect, test } from "bun:test";
import { SecretScreen } from "../../src/memory/secret-screen.ts";

const screen = new SecretScreen({ PLAIN: "plain-value-of-12+", SHORT: "short", API_KEY: "k-8chars" }, { FROM_DOTENV: "dotenv" });

test("credential shapes are named", () => {
  const cases: Record<string, string> = {
    "postgres://app:S3cr3t@db:5432/app": "a URL with a password",
    "see https://bob:hunter22@example.com/x": "a URL with a password",
    ghp_0123456789abcdefghijABCDEFGHIJ012345: "a GitHub token",
    github_pat_11ABCDEFG0123456789_abcdefghijklmnop: "a GitHub token",
    "sk-ant-api03-abcdefghijklmnopqrstuv": "an API key (sk-…)",
    "xoxb-123456789012-abcdefghij": "a Slack token",
    AKIAIOSFODNN7EXAMPLE: "an AWS access key id",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc123": "a JWT",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nabc": "a PEM block",
  };
  for (const [value, why] of Object.entries(cases)) expect({ value, why: screen.reason(value) }).toEqual({ value, why });
});

test("values of variables: any of 12+ characters, secret-named ones from 8, every .env value from 6", () => {
  expect(screen.reason("prefix plain-value-of-12+ suffix")).toBe("the value of PLAIN");
  expect(screen.reason("k-8chars")).toBe("the value of API_KEY");
  expect(screen.reason("dotenv")).toBe("the value of FROM_DOTENV");
  expect(screen.reason("short")).toBeUndefined();
});

test("nested arguments are screened, and only the screened ones are withheld", () => {
  const { kept, withheld } = screen.screenArguments({
    region: "eu-west-1",
    conn: { primary: ["postgres://u:p4ss@h/db"] },
    port: 5432,
    disk: "disk-usage-report-for-all-machines",
    url: "https://example.com:8080/a@b",
  });
  expect(withheld).toEqual([{ name: "conn", why: "a URL with a password" }]);
  expect(Object.keys(kept)).toEqual(["region", "port", "disk", "url"]);
});

test("redact writes each screened value and credential shape as what it is, everywhere it occurs", () => {
  const text = "401 for k-8chars (k-8chars), retry with ghp_0123456789abcdefghijABCDEFGHIJ012345 at postgres://app:S3cr3t@db/x";
  const out = screen.redact(text);
  expect(out).toBe("401 for [the value of API_KEY] ([the value of API_KEY]), retry with [a GitHub token] at [a URL with a password]db/x");
  expect(screen.redact("nothing secret here")).toBe("nothing secret here");
});
