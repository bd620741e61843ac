// Whether a newer pml release is known. `pml doctor` only reads the answer cached in $PML_HOME;
// the release host is asked only on request (`pml doctor --check-update`), never in the background.
// The latest version comes from `<releases>/latest/download/SHA256SUMS`, the file every release and
// every mirror has, so no API or token is needed.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { RELEASES_URL, version as currentVersion } from "../version.ts";
import { HttpError, httpRequest } from "../http/request.ts";
import { writeFileAtomic } from "../fs/atomic.ts";
import { pmlHome } from "./paths.ts";

type Env = Record<string, string | undefined>;

interface CachedCheck {
  checked_at: string;
  latest: string;
  from: string;
}

export interface UpdateStatus {
  ok: boolean;
  warn: boolean;
  detail: string;
}

/** The release page: `PML_RELEASES_URL` (mirrors, forks) or the project's. */
export function releasesUrl(env: Env = process.env): string {
  return (env.PML_RELEASES_URL?.trim() || RELEASES_URL).replace(/\/+$/, "");
}

const cachePath = (env: Env) => join(pmlHome(env), "update-check.json");

export async function fetchLatestVersion(baseUrl: string, timeoutMs = 10_000): Promise<string> {
  const url = `${baseUrl}/latest/download/SHA256SUMS`;
  // No credentials go with it, so a CDN redirect (GitHub's release files) may be followed.
  const res = await httpRequest(url, { timeoutMs, what: "release URL", redirects: "anywhere", maxBytes: 1024 * 1024 }).catch((e) => {
    throw new Error(e instanceof HttpError ? `${url}: ${e.message}` : (e as Error).message);
  });
  if (!res.ok) {
    await res.cancel();
    throw new Error(`${url} answered HTTP ${res.status}`);
  }
  const m = /^[0-9a-f]{64} [ *]pml-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)-(?:linux|darwin|windows)-/m.exec(await res.text());
  if (!m) throw new Error(`${url} lists no pml archive`);
  return m[1]!;
}

/** Semver order; a pre-release (`0.2.0-rc.1`) comes before its release. */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [main, pre] = v.split("-", 2) as [string, string | undefined];
    return { nums: main.split(".").map(Number), pre };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < 3; i++) if ((x.nums[i] ?? 0) !== (y.nums[i] ?? 0)) return (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

async function readCache(env: Env): Promise<CachedCheck | undefined> {
  try {
    const c = JSON.parse(await readFile(cachePath(env), "utf8"));
    return typeof c?.latest === "string" && typeof c?.checked_at === "string" ? c : undefined;
  } catch {
    return undefined;
  }
}

/** `check`: ask the release host now and cache the answer; otherwise report the cached answer. */
export async function updateStatus(opts: { check?: boolean; env?: Env } = {}): Promise<UpdateStatus> {
  const env = opts.env ?? process.env;
  const base = releasesUrl(env);
  let cached = await readCache(env);
  if (opts.check) {
    try {
      cached = { checked_at: new Date().toISOString(), latest: await fetchLatestVersion(base), from: base };
      await writeFileAtomic(cachePath(env), `${JSON.stringify(cached, null, 2)}\n`);
    } catch (e) {
      return { ok: true, warn: true, detail: `could not check for a newer release: ${(e as Error).message}` };
    }
  }
  if (!cached) return { ok: true, warn: false, detail: `not checked; \`pml doctor --check-update\` asks ${base}` };
  const when = cached.checked_at.slice(0, 10);
  if (compareVersions(cached.latest, currentVersion) > 0) {
    return {
      ok: true,
      warn: true,
      detail: `pml ${cached.latest} is out (this is ${currentVersion}; checked ${when}): run the installer again (\`curl -fsSL ${cached.from}/latest/download/install.sh | sh\`), \`brew upgrade pml\` or \`scoop update pml\``,
    };
  }
  return { ok: true, warn: false, detail: `up to date (latest release ${cached.latest}, checked ${when})` };
}
