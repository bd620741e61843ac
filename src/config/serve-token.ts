// The bearer token `pml serve` asks of every caller, so that another local user or process that
// reaches its port cannot call tools as this user: PML_SERVE_TOKEN when set (CI, scripts, replicas
// behind one proxy), else 32 random bytes that pml creates once in $PML_HOME/serve.token (0600).
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { ConfigError } from "../errors.ts";
import { readOrCreateSecretFile } from "../fs/secret-file.ts";
import { pmlHome } from "./paths.ts";

type Env = Record<string, string | undefined>;

export const SERVE_TOKEN_ENV = "PML_SERVE_TOKEN";
/** The Authorization value a client's config (.mcp.json) holds: its environment supplies the token. */
export const SERVE_AUTH_REF = `Bearer \${${SERVE_TOKEN_ENV}}`;
const SERVE_TOKEN_FILE = "serve.token";
/** RFC 6750's token characters, and long enough not to be guessed. */
const TOKEN_FORM = /^[A-Za-z0-9\-._~+/]{32,}=*$/;

export interface ServeToken {
  token: string;
  /** The file it is kept in; undefined when it came from PML_SERVE_TOKEN. */
  path?: string;
  /** This call created the file. */
  created: boolean;
}

export function serveTokenPath(env: Env = process.env): string {
  return join(pmlHome(env), SERVE_TOKEN_FILE);
}

/** The token `pml serve` accepts, creating $PML_HOME/serve.token on first use. */
export function loadServeToken(env: Env = process.env): ServeToken {
  const fromEnv = env[SERVE_TOKEN_ENV]?.trim();
  if (fromEnv) {
    if (!TOKEN_FORM.test(fromEnv)) throw new ConfigError(`${SERVE_TOKEN_ENV} must be at least 32 characters of A-Z a-z 0-9 - . _ ~ + / (e.g. \`openssl rand -hex 32\`).`);
    return { token: fromEnv, created: false };
  }
  const path = serveTokenPath(env);
  const { text, created } = readOrCreateSecretFile(path, () => `${randomBytes(32).toString("base64url")}\n`);
  const token = text.trim();
  if (!TOKEN_FORM.test(token)) throw new ConfigError(`${path} does not hold a usable token (32+ characters, no spaces); remove it and pml serve creates a new one.`, path);
  return { token, path, created };
}

/** Where a client finds the token, in words (for `pml serve`'s start-up line and its 401s). */
export function serveTokenWhere(t: ServeToken): string {
  return t.path ? `the token is in ${t.path} (\`pml serve --print-token\` prints it)` : `the token is the ${SERVE_TOKEN_ENV} pml serve was started with`;
}
