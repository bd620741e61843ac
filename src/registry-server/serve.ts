// `pml registry serve`: the registry API over HTTP with Bun.serve.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { ApiKeys } from "./api-keys.ts";
import { createRegistryApp, type Route } from "./app.ts";
import { FileStore, type RegistryStore } from "./store.ts";

export interface RegistryServerOptions {
  /** Data directory for a FileStore; or pass `store`. */
  dataDir?: string;
  store?: RegistryStore;
  port?: number;
  hostname?: string;
  maxAgeS?: number;
  apiKeys?: ApiKeys;
  extraRoutes?: Route[];
}

export interface RunningRegistryServer {
  /** e.g. "http://127.0.0.1:4873" (no trailing slash) */
  url: string;
  port: number;
  hostname: string;
  stop(): Promise<void>;
}

/** Throws an Error with a user-facing message when the data directory is unusable. */
export function openFileStore(dataDir: string): FileStore {
  const dir = resolve(dataDir);
  let ok = false;
  try {
    ok = statSync(dir).isDirectory();
  } catch {}
  if (!ok) throw new Error(`--data ${dataDir}: not a directory. Create it and put <name>.ts (module) or <name>.json (descriptor) files in it.`);
  return new FileStore(dir);
}

export function startRegistryServer(opts: RegistryServerOptions): RunningRegistryServer {
  const store = opts.store ?? openFileStore(opts.dataDir ?? ".");
  const fetch = createRegistryApp({ store, maxAgeS: opts.maxAgeS, apiKeys: opts.apiKeys }, opts.extraRoutes);
  const hostname = opts.hostname ?? "127.0.0.1";
  const server = Bun.serve({ port: opts.port ?? 0, hostname, fetch });
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return {
    url: `http://${host}:${server.port}`,
    port: server.port as number,
    hostname,
    stop: () => server.stop(true),
  };
}
