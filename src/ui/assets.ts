// The page's files (HTML, script, style), built into the binary by Bun's HTML import and served by
// our own handler behind the guard (Bun.serve's `routes` would serve the chunks to anyone). Run
// from source (`bun src/main.ts ui`), the import carries no file list: the page is bundled once
// at start instead.
import { basename } from "node:path";
import page from "./page/index.html";

interface Asset {
  body: Blob;
  type: string;
}

export type Assets = Map<string, Asset>;

/** Path ("/" for the page, "/chunk-….js" for the rest) to file. */
export async function loadAssets(): Promise<Assets> {
  const out: Assets = new Map();
  const bundle = page as unknown as Bun.HTMLBundle;
  if (bundle.files?.length) {
    for (const f of bundle.files) {
      const type = f.headers["content-type"] ?? "application/octet-stream";
      out.set(f.loader === "html" ? "/" : `/${basename(f.path)}`, { body: Bun.file(f.path), type });
    }
    return out;
  }
  const built = await Bun.build({ entrypoints: [bundle.index], minify: true, target: "browser" });
  if (!built.success) throw new Error(`pml ui: the page did not build:\n${built.logs.map(String).join("\n")}`);
  for (const o of built.outputs) {
    const name = basename(o.path);
    out.set(name.endsWith(".html") ? "/" : `/${name}`, { body: o, type: o.type });
  }
  return out;
}
