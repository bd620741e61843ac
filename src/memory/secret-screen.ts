// What must not leave the machine from memory (a capability published to the team registry): the
// values of the user's variables and anything shaped like a credential. Names alone miss most of
// it: a `postgres://app:pass@db` argument or a `ghp_…` token passed as an argument carries no
// telling name. So values are screened: every value of the process environment of 12+ characters
// (8+ when the variable's name says secret), every value of the workspace .env (6+), URLs with a
// password, and known token shapes.
import { readDotEnvSync } from "../config/dotenv.ts";

type Env = Record<string, string | undefined>;

const SECRET_NAME = /KEY|TOKEN|SECRET|PASS|CREDENTIAL|AUTH|PRIVATE|SESSION|COOKIE/i;

/** Credential shapes, each with what the warning calls it. */
const SHAPES: ReadonlyArray<[RegExp, string]> = [
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:[^\s/?#@]+@/i, "a URL with a password"],
  [/(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9_]{16,}/, "a GitHub token"],
  [/(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{16,}/, "a GitHub token"],
  [/(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}/, "an API key (sk-…)"],
  [/(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/, "a Slack token"],
  [/(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/, "an AWS access key id"],
  [/(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/, "a JWT"],
  [/-----BEGIN [A-Z0-9 ]+-----/, "a PEM block"],
];

export class SecretScreen {
  /** Value -> the variable it is the value of. */
  private readonly values = new Map<string, string>();

  /** The screen for a workspace: the process environment and the workspace .env. */
  static forWorkspace(workspace: string, env: Env = process.env): SecretScreen {
    let dotenv: Record<string, string> = {};
    try {
      dotenv = readDotEnvSync(workspace);
    } catch {}
    return new SecretScreen(env, dotenv);
  }

  constructor(env: Env, dotenv: Record<string, string> = {}) {
    for (const [name, value] of Object.entries(env)) if (value && (value.length >= 12 || (value.length >= 8 && SECRET_NAME.test(name)))) this.values.set(value, name);
    for (const [name, value] of Object.entries(dotenv)) if (value.length >= 6) this.values.set(value, name);
  }

  /** What in `text` may not leave ("the value of GITHUB_TOKEN", "a GitHub token"), or undefined. */
  reason(text: string): string | undefined {
    for (const [value, name] of this.values) if (text.includes(value)) return `the value of ${name}`;
    for (const [shape, what] of SHAPES) if (shape.test(text)) return what;
    return undefined;
  }

  /** `text` with every screened value and credential shape written as what it is ("[the value of GITHUB_TOKEN]"). */
  redact(text: string): string {
    let out = text;
    for (const [value, name] of this.values) out = out.split(value).join(`[the value of ${name}]`);
    for (const [shape, what] of SHAPES) out = out.replace(new RegExp(shape.source, `${shape.flags}g`), `[${what}]`);
    return out;
  }

  /** The same for any JSON value: its strings, keys and numbers, however deep. */
  reasonIn(value: unknown): string | undefined {
    if (typeof value === "string") return this.reason(value);
    if (typeof value === "number" || typeof value === "bigint") return this.reason(String(value));
    if (Array.isArray(value)) return firstOf(value, (v) => this.reasonIn(v));
    if (value && typeof value === "object") return firstOf(Object.entries(value), ([k, v]) => this.reason(k) ?? this.reasonIn(v));
    return undefined;
  }

  /** Arguments as they may leave: the screened ones withheld, each named with why. */
  screenArguments(args: Record<string, unknown>): { kept: Record<string, unknown>; withheld: Array<{ name: string; why: string }> } {
    const kept: Record<string, unknown> = {};
    const withheld: Array<{ name: string; why: string }> = [];
    for (const [name, value] of Object.entries(args)) {
      const why = this.reason(name) ?? this.reasonIn(value);
      if (why) withheld.push({ name, why });
      else kept[name] = value;
    }
    return { kept, withheld };
  }
}

function firstOf<T>(items: readonly T[], f: (item: T) => string | undefined): string | undefined {
  for (const item of items) {
    const r = f(item);
    if (r) return r;
  }
  return undefined;
}
