// A stand-in npm registry on 127.0.0.1 for install tests (no public internet): serves packuments
// and tarballs of fixture packages packed with `bun pm pack`, with their real integrity. A
// package's served tarball can be swapped (tampering) while its packument keeps the original.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { sri512 } from "../../src/loader/install.ts";

export interface PackedPackage {
  name: string;
  version: string;
  tarball: Uint8Array;
  integrity: string;
  dependencies: Record<string, string>;
}

/** Writes files into <dir>/<name>, packs it with the runtime's `bun pm pack`, returns the tarball. */
export function packPackage(dir: string, files: Record<string, string>): PackedPackage {
  const meta = JSON.parse(files["package.json"]!);
  const src = join(dir, "src-" + meta.name.replace("/", "+") + "-" + Math.random().toString(36).slice(2, 8));
  mkdirSync(src, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(join(src, file, ".."), { recursive: true });
    writeFileSync(join(src, file), content);
  }
  const out = join(src, "out");
  mkdirSync(out);
  const r = Bun.spawnSync([process.execPath, "pm", "pack", "--destination", out, "--quiet", "--ignore-scripts"], {
    cwd: src,
    env: { ...process.env, BUN_BE_BUN: "1" },
  });
  if (r.exitCode !== 0) throw new Error(`bun pm pack failed: ${r.stderr.toString()}`);
  const file = readdirSync(out).find((f) => f.endsWith(".tgz"))!;
  const tarball = new Uint8Array(readFileSync(join(out, file)));
  return { name: meta.name, version: meta.version, tarball, integrity: sri512(tarball), dependencies: meta.dependencies ?? {} };
}

export interface FakeRegistry {
  url: string;
  /** Request paths served, in order. */
  hits: string[];
  /** Serve these bytes as the tarball of name@version (the packument keeps the original integrity). */
  tamper(name: string, version: string, bytes: Uint8Array): void;
  stop(): void;
}

export function startRegistry(packages: PackedPackage[]): FakeRegistry {
  const served = new Map<string, Uint8Array>();
  const hits: string[] = [];
  const tarballPath = (p: PackedPackage) => {
    const unscoped = p.name.startsWith("@") ? p.name.split("/")[1] : p.name;
    return `/${p.name}/-/${unscoped}-${p.version}.tgz`;
  };
  for (const p of packages) served.set(tarballPath(p), p.tarball);
  let port = 0;
  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req): Response {
      const path = decodeURIComponent(new URL(req.url).pathname);
      hits.push(path);
      const tgz = served.get(path);
      if (tgz) return new Response(tgz, { headers: { "content-type": "application/octet-stream" } });
      const versions = packages.filter((p) => `/${p.name}` === path);
      if (versions.length === 0) return Response.json({ error: "Not found" }, { status: 404 });
      const base: string = `http://127.0.0.1:${port}`;
      return Response.json({
        name: versions[0]!.name,
        "dist-tags": { latest: versions.at(-1)!.version },
        versions: Object.fromEntries(
          versions.map((p) => [
            p.version,
            {
              name: p.name,
              version: p.version,
              dependencies: p.dependencies,
              dist: { tarball: base + tarballPath(p), integrity: p.integrity, shasum: createHash("sha1").update(p.tarball).digest("hex") },
            },
          ]),
        ),
      });
    },
  });
  port = server.port!;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    tamper(name, version, bytes) {
      const p = packages.find((x) => x.name === name && x.version === version)!;
      served.set(tarballPath(p), bytes);
    },
    stop: () => server.stop(true),
  };
}

/** The fixture MCP server as an npm package that depends on another fixture package. */
export function fixturePackages(dir: string, fixtureServerPath: string): { server: PackedPackage; dep: PackedPackage; evil: PackedPackage } {
  const dep = packPackage(dir, {
    "package.json": JSON.stringify({ name: "pml-fixture-dep", version: "1.0.0", type: "module", main: "index.js" }),
    "index.js": 'export default "dep-ok";\n',
  });
  const serverJs = readFileSync(fixtureServerPath, "utf8");
  const server = packPackage(dir, {
    "package.json": JSON.stringify({
      name: "@pml-test/fixture-server",
      version: "1.2.3",
      type: "module",
      bin: { "fixture-server": "bin.js" },
      dependencies: { "pml-fixture-dep": "1.0.0" },
      scripts: { postinstall: "node -e \"require('fs').writeFileSync(process.env.FIXTURE_POSTINSTALL_MARK || '/dev/null', 'ran')\"" },
    }),
    // Importing the dependency proves bun installed it from the registry.
    "bin.js": 'import dep from "pml-fixture-dep";\nif (dep !== "dep-ok") process.exit(9);\nawait import("./fixture-server.js");\n',
    "fixture-server.js": serverJs,
  });
  // Same name and version, different bytes: what a compromised registry or mirror would serve.
  const evil = packPackage(dir, {
    "package.json": JSON.stringify({
      name: "@pml-test/fixture-server",
      version: "1.2.3",
      type: "module",
      bin: { "fixture-server": "bin.js" },
      scripts: { postinstall: "node -e \"require('fs').writeFileSync(process.env.FIXTURE_EVIL_MARK, 'postinstall')\"" },
    }),
    "bin.js": 'import { writeFileSync } from "node:fs";\nwriteFileSync(process.env.FIXTURE_EVIL_MARK, "ran");\n',
  });
  return { server, dep, evil };
}
