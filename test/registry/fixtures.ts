// Shared test fixtures: a temp data dir with registry entries, temp PML_HOME, servers that clean up.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const GREET_TS = `export const __meta__ = {
  type: "deno",
  description: "Says hello",
  tools: [{ name: "hello", description: "Greets someone", inputSchema: { type: "object", properties: { name: { type: "string" } } } }],
} as const;

interface Args { name?: string }
export async function hello(args: Args): Promise<string> {
  return \`hello \${args.name ?? "world"}\`;
}
`;

export const MEMORY_JSON = {
  type: "stdio",
  install: "@modelcontextprotocol/server-memory@2026.8.31",
  integrity: "sha512-AAAA",
  env_required: [],
  description: "Knowledge graph memory",
};

export const SERVER_JSON = {
  $schema: "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
  name: "io.github.example/weather",
  description: "Weather forecasts",
  version: "1.0.2",
  packages: [
    { registryType: "pypi", identifier: "weather-mcp", version: "1.0.2", transport: { type: "stdio" } },
    {
      registryType: "npm",
      identifier: "@example/weather-mcp",
      version: "1.0.2",
      transport: { type: "stdio" },
      packageArguments: [{ type: "named", name: "--units", value: "metric" }],
      environmentVariables: [
        { name: "WEATHER_API_KEY", isRequired: true, isSecret: true, description: "API key" },
        { name: "WEATHER_DEBUG", isRequired: false },
      ],
    },
  ],
};

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `pml-${prefix}-`));
}

export function writeEntries(dir: string, entries: Record<string, string | object>): void {
  for (const [file, body] of Object.entries(entries)) {
    writeFileSync(join(dir, file), typeof body === "string" ? body : JSON.stringify(body, null, 2));
  }
}

export function removeDirs(...dirs: (string | undefined)[]): void {
  for (const d of dirs) if (d) rmSync(d, { recursive: true, force: true });
}

/** A server that accepts connections and never answers: the registry that hangs. */
export function hangingServer(): { url: string; requests(): number; stop(): void } {
  let requests = 0;
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => (requests++, new Promise<Response>(() => {})) });
  return { url: `http://127.0.0.1:${server.port}`, requests: () => requests, stop: () => void server.stop(true) };
}

/** A URL where nothing listens (a port we bound and released). */
export function deadUrl(): string {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = s.port;
  s.stop(true);
  return `http://127.0.0.1:${port}`;
}
