// Folders under src/ in layers, bottom first: a folder may import only the layers below its own,
// never its own layer's other folders or anything above (README "Layers"). `npm run deps` checks it.
const LAYERS = [
  // Below everything, the logger included: every text shown to a person is escaped with it.
  ["visible-text.ts"],
  ["errors.ts", "log.ts", "version.ts", "sqlite-busy.ts", "duration.ts", "code-pages.ts"],
  ["mcp"],
  ["fs", "http"],
  ["config"],
  ["registry"],
  ["env"],
  ["sandbox"],
  ["pool", "remote", "cloud", "routing"],
  ["loader"],
  ["memory"],
  ["policy"],
  ["gateway", "registry-server", "tour"],
  ["ui"],
  ["cli"],
  ["main.ts"],
];

// gateway/ in the same way, bottom first: dispatch (the protocol core and a call's way to a backend
// through the one gate), tools (pml's own tools, built on dispatch), the composition root (the
// files at gateway/'s top: tool-host.ts wires dispatch and tools into the host), transports (stdio,
// HTTP: each starts the protocol core, with the root's host by default).
const GATEWAY = [["gateway/dispatch"], ["gateway/tools"], ["gateway/*.ts"], ["gateway/transports"]];

// "dir/*.ts": the files directly in dir/; "x.ts": that file; else a folder.
const pathOf = (part) => (part.endsWith("/*.ts") ? `^src/${part.slice(0, -5)}/[^/]+\\.ts$` : part.endsWith(".ts") ? `^src/${part.replace(".", "\\.")}$` : `^src/${part}/`);
const any = (parts) => parts.map(pathOf).join("|");

const forbidden = [];
const layered = (layers) =>
  layers.forEach((layer, i) => {
    const above = layers.slice(i + 1).flat();
    for (const part of layer) {
      const siblings = layer.filter((p) => p !== part);
      const banned = [...above, ...siblings];
      if (banned.length === 0) continue;
      forbidden.push({
        name: `layer-${part}`,
        comment: `src/${part} may import only the layers below it (${layers.slice(0, i).flat().join(", ") || "nothing"})`,
        severity: "error",
        from: { path: pathOf(part) },
        to: { path: any(banned) },
      });
    }
  });
layered(LAYERS);
layered(GATEWAY);

forbidden.push({
  name: "no-unknown-folder",
  comment: "every file under src/ belongs to a layer: add a new folder to LAYERS in .dependency-cruiser.cjs",
  severity: "error",
  from: { path: "^src/", pathNot: any(LAYERS.flat()) },
  to: {},
});
forbidden.push({
  name: "no-unknown-gateway-folder",
  comment: "every file under src/gateway/ belongs to one of its layers: add a new folder to GATEWAY in .dependency-cruiser.cjs",
  severity: "error",
  from: { path: "^src/gateway/", pathNot: any(GATEWAY.flat()) },
  to: {},
});

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/.*\\.json$|generated/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
  },
};
