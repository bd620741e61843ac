// The 23rd blind reuse stream (`--tasks blind23`), written blind on 2026-12-08 by someone who saw
// only the format (bench/reuse-tasks.ts's types, shared functions and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60 requests (the first and two
// repeats each), in 8 near-twin pairs whose inputs have the same names and kinds (euros to dollars
// vs dollars to euros, lower vs upper version bound, climb in metres vs feet, scripts that use a
// program vs those that do not, dotted properties vs environment lines, mount points vs devices,
// weekdays vs weekend days, row vs column totals) and 4 single tasks. The repeats are worded as
// different users on different days would ask (terse, chatty, a file name, jargon, typos, a
// non-native speaker); one repeat of each task shares a content word with its intent, the other
// shares none.
import { type Ask, csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const rowsOf = (a: Ask) =>
  input(a)
    .trim()
    .split("\n")
    .map((l) => l.split(","));
const amounts = (a: Ask) => {
  const [head, ...rows] = rowsOf(a);
  const i = head!.indexOf("amount");
  return rows.map((r) => Number(r[i]));
};

const EUROS_AS_DOLLARS: ReuseTask = {
  name: "fx:total_euros_as_dollars",
  intent: "convert euro amounts to US dollars at a given rate and total them",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.trim().split("\n").map((l) => l.split(","));
const i = rows[0].indexOf("amount");
let sum = 0;
for (const r of rows.slice(1)) sum += Number(r[i]) * Number(args.rate);
return Math.round(sum * 100) / 100;`,
  expect: (a) => round2(amounts(a).reduce((s, x) => s + x * (a.args.rate as number), 0)),
  asks: [
    {
      say: "convert the euro amounts in trips/lisbon.csv to US dollars at a rate of 1.08 dollars per euro and total them",
      args: { path: "trips/lisbon.csv", rate: 1.08 },
      files: {
        "trips/lisbon.csv": csv("date,item,amount", [
          ["2026-05-02", "hotel", 240],
          ["2026-05-02", "taxi", 18.5],
          ["2026-05-03", "dinner", 62.4],
          ["2026-05-04", "museum", 15],
        ]),
      },
    },
    {
      say: "berlin_q2.csv is all in EUR. whats that in dollars? 1 eur = 1.09",
      args: { path: "expenses/berlin_q2.csv", rate: 1.09 },
      files: {
        "expenses/berlin_q2.csv": csv("date,item,amount", [
          ["2026-04-03", "coworking", 310],
          ["2026-04-11", "train", 89.9],
          ["2026-05-20", "lunch", 23.75],
          ["2026-06-02", "printer ink", 41],
          ["2026-06-17", "hostel", 128],
        ]),
      },
    },
    {
      say: "i paid everything with € in Rome, receipts/rome.csv. how much $ it make together if one € buys 1.1 $?",
      args: { path: "receipts/rome.csv", rate: 1.1 },
      files: {
        "receipts/rome.csv": csv("date,item,amount", [
          ["2026-09-01", "colosseum", 24],
          ["2026-09-01", "gelato", 4.5],
          ["2026-09-02", "pasta", 17],
          ["2026-09-03", "vatican", 30],
        ]),
      },
    },
  ],
};

const DOLLARS_AS_EUROS: ReuseTask = {
  name: "fx:total_dollars_as_euros",
  intent: "convert US dollar amounts to euros at a given rate (dollars per euro) and total them",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.trim().split("\n").map((l) => l.split(","));
const i = rows[0].indexOf("amount");
let sum = 0;
for (const r of rows.slice(1)) sum += Number(r[i]) / Number(args.rate);
return Math.round(sum * 100) / 100;`,
  expect: (a) => round2(amounts(a).reduce((s, x) => s + x / (a.args.rate as number), 0)),
  asks: [
    {
      say: "convert the US dollar amounts in trips/nyc.csv to euros at a rate of 1.08 dollars per euro and total them",
      args: { path: "trips/nyc.csv", rate: 1.08 },
      files: {
        "trips/nyc.csv": csv("date,item,amount", [
          ["2026-10-05", "hotel", 420],
          ["2026-10-05", "subway", 34],
          ["2026-10-06", "broadway", 129],
          ["2026-10-07", "bagels", 12.6],
        ]),
      },
    },
    {
      say: "spend/boston.csv is in USD — sum it in euros, 1 eur = 1.07 usd",
      args: { path: "spend/boston.csv", rate: 1.07 },
      files: {
        "spend/boston.csv": csv("date,item,amount", [
          ["2026-11-12", "conference", 650],
          ["2026-11-12", "uber", 27.3],
          ["2026-11-13", "chowder", 18],
        ]),
      },
    },
    {
      say: "Chicago receipts ($) sit in travel/chicago.csv; what does that come to in € when 1 € costs 1.1 $?",
      args: { path: "travel/chicago.csv", rate: 1.1 },
      files: {
        "travel/chicago.csv": csv("date,item,amount", [
          ["2026-08-14", "architecture tour", 55],
          ["2026-08-14", "deep dish", 31.9],
          ["2026-08-15", "bike rental", 40],
          ["2026-08-16", "blues club", 25],
          ["2026-08-16", "airport train", 5],
        ]),
      },
    },
  ],
};

/** name → version for one comparison side of each requirement line (file order). */
const bounds = (a: Ask, ops: string[]) => {
  const out: Record<string, string> = {};
  for (const raw of input(a).split("\n")) {
    const l = raw.replace(/#.*/, "").trim();
    const m = /^([A-Za-z0-9_.-]+)\s*(.*)$/.exec(l);
    if (!m) continue;
    for (const spec of m[2]!.split(",")) {
      const s = /^(>=|<=|==|~=|!=|<|>)\s*(\S+)$/.exec(spec.trim());
      if (s && ops.includes(s[1]!)) out[m[1]!] = s[2]!;
    }
  }
  return out;
};

const LOWER_BOUNDS: ReuseTask = {
  name: "pip:map_lower_version_bounds",
  intent: "map each Python requirement to its lower version bound (>=), skipping those without one",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = {};
for (const raw of t.split("\n")) {
  const line = raw.replace(/#.*/, "").trim();
  const m = line.match(/^([A-Za-z0-9_.-]+)\s*(.*)$/);
  if (!m) continue;
  for (const part of m[2].split(",")) {
    const s = part.trim().match(/^(>=|<=|==|~=|!=|<|>)\s*(\S+)$/);
    if (s && s[1] === ">=") out[m[1]] = s[2];
  }
}
return out;`,
  expect: (a) => bounds(a, [">="]),
  asks: [
    {
      say: "map each Python requirement in api/requirements.txt to its lower version bound (>=), skipping those without one",
      args: { path: "api/requirements.txt" },
      files: {
        "api/requirements.txt": lines("# web", "django>=4.2,<5.0", "djangorestframework>=3.14", "gunicorn<22", "psycopg==3.1.18", "redis>=5.0.1,<6"),
      },
    },
    {
      say: "lower bounds of the deps in ml/requirements.txt as name -> version",
      args: { path: "ml/requirements.txt" },
      files: {
        "ml/requirements.txt": lines("numpy>=1.26,<2.1", "pandas>=2.1", "scikit-learn<1.6", "torch>=2.2,<2.4", "tqdm"),
      },
    },
    {
      say: "whats the oldest allowed for every pkg in etl/reqs.in? the >= part, as a dict",
      args: { path: "etl/reqs.in" },
      files: {
        "etl/reqs.in": lines("sqlalchemy>=2.0,<2.1", "boto3<2", "pyarrow>=14.0.1  # parquet", "", "click>=8.1,<9", "python-dateutil==2.9.0"),
      },
    },
  ],
};

const UPPER_BOUNDS: ReuseTask = {
  name: "pip:map_upper_version_bounds",
  intent: "map each Python requirement to its upper version bound (< or <=), skipping those without one",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = {};
for (const raw of t.split("\n")) {
  const line = raw.replace(/#.*/, "").trim();
  const m = line.match(/^([A-Za-z0-9_.-]+)\s*(.*)$/);
  if (!m) continue;
  for (const part of m[2].split(",")) {
    const s = part.trim().match(/^(>=|<=|==|~=|!=|<|>)\s*(\S+)$/);
    if (s && (s[1] === "<" || s[1] === "<=")) out[m[1]] = s[2];
  }
}
return out;`,
  expect: (a) => bounds(a, ["<", "<="]),
  asks: [
    {
      say: "map each Python requirement in web/requirements.txt to its upper version bound (< or <=), skipping those without one",
      args: { path: "web/requirements.txt" },
      files: {
        "web/requirements.txt": lines("flask>=2.3,<3.1", "jinja2<=3.1.4", "itsdangerous>=2.1", "werkzeug>=3.0,<3.1", "markupsafe==2.1.5"),
      },
    },
    {
      say: "upper pins of worker/requirements.txt pls, dict form",
      args: { path: "worker/requirements.txt" },
      files: {
        "worker/requirements.txt": lines("# queue", "celery>=5.3,<6", "kombu>=5.3.4", "redis<5.1", "sentry-sdk>=1.40,<=1.45.0"),
      },
    },
    {
      say: "ceiling per lib in bot/deps.txt — the < side — so i know what cant upgrade past",
      args: { path: "bot/deps.txt" },
      files: {
        "bot/deps.txt": lines("discord.py>=2.3,<2.4", "aiohttp>=3.9", "pydantic<3", "", "orjson>=3.9,<4", "uvloop"),
      },
    },
  ],
};

/** Total ascent in metres: the sum of the rises between consecutive `ele` readings. */
const gain = (a: Ask) => {
  const [head, ...rows] = rowsOf(a);
  const i = head!.indexOf("ele");
  const ele = rows.map((r) => Number(r[i]));
  let up = 0;
  for (let k = 1; k < ele.length; k++) up += Math.max(0, ele[k]! - ele[k - 1]!);
  return up;
};
const track = (rows: [number, number][]) => csv("km,ele", rows);

const CLIMB_METRES: ReuseTask = {
  name: "hike:sum_climb_metres",
  intent: "total elevation gain along a recorded track, in whole metres",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.trim().split("\n").map((l) => l.split(","));
const i = rows[0].indexOf("ele");
let up = 0;
for (let k = 2; k < rows.length; k++) {
  const d = Number(rows[k][i]) - Number(rows[k - 1][i]);
  if (d > 0) up += d;
}
return Math.round(up);`,
  expect: (a) => Math.round(gain(a)),
  asks: [
    {
      say: "total elevation gain along the recorded track in hikes/ridge.csv, in whole metres",
      args: { path: "hikes/ridge.csv" },
      files: {
        "hikes/ridge.csv": track([
          [0, 812.4],
          [1.2, 905.1],
          [2.5, 880],
          [3.1, 1044.6],
          [4.8, 1120.2],
          [6, 990.5],
        ]),
      },
    },
    {
      say: "elevation gain, rides/col.csv, meters pls",
      args: { path: "rides/col.csv" },
      files: {
        "rides/col.csv": track([
          [0, 410],
          [5, 612.5],
          [10, 598],
          [15, 1203.3],
          [20, 1650.8],
          [25, 1642],
          [30, 1711.6],
        ]),
      },
    },
    {
      say: "how much did we climb on saturday? walks/sat.csv, answer in m",
      args: { path: "walks/sat.csv" },
      files: {
        "walks/sat.csv": track([
          [0, 35.2],
          [0.8, 62.9],
          [1.6, 48.1],
          [2.4, 97.7],
          [3.2, 101.3],
        ]),
      },
    },
  ],
};

const CLIMB_FEET: ReuseTask = {
  name: "hike:sum_climb_feet",
  intent: "total elevation gain along a recorded track, in whole feet",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.trim().split("\n").map((l) => l.split(","));
const i = rows[0].indexOf("ele");
let up = 0;
for (let k = 2; k < rows.length; k++) {
  const d = Number(rows[k][i]) - Number(rows[k - 1][i]);
  if (d > 0) up += d;
}
return Math.round(up / 0.3048);`,
  expect: (a) => Math.round(gain(a) / 0.3048),
  asks: [
    {
      say: "total elevation gain along the recorded track in hikes/pass.csv, in whole feet",
      args: { path: "hikes/pass.csv" },
      files: {
        "hikes/pass.csv": track([
          [0, 1520],
          [2, 1688.4],
          [4, 1905.9],
          [6, 1874.2],
          [8, 2110.7],
        ]),
      },
    },
    {
      say: "ft of climbing in trails/loop.csv? feet, rounded",
      args: { path: "trails/loop.csv" },
      files: {
        "trails/loop.csv": track([
          [0, 220.5],
          [1, 301],
          [2, 275.4],
          [3, 344.8],
          [4, 290],
          [5, 222.1],
        ]),
      },
    },
    {
      say: "my american friend asks how high we went up overall on runs/hill.csv — give it in ft",
      args: { path: "runs/hill.csv" },
      files: {
        "runs/hill.csv": track([
          [0, 64],
          [0.5, 88.6],
          [1, 121.3],
          [1.5, 97],
          [2, 139.9],
          [2.5, 140.4],
        ]),
      },
    },
  ],
};

const scriptsOf = (a: Ask) => (JSON.parse(input(a)) as { scripts?: Record<string, string> }).scripts ?? {};
const uses = (cmd: string, program: string) => cmd.split(/[\s&|;()]+/).includes(program);
const manifest = (scripts: Record<string, string>) => json({ name: "app", version: "0.1.0", private: true, scripts });

const SCRIPTS_USING: ReuseTask = {
  name: "npm:list_scripts_using_program",
  intent: "list the npm script names whose command runs a given program",
  code: String.raw`const pkg = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
const scripts = pkg.scripts || {};
return Object.keys(scripts).filter((k) => scripts[k].split(/[\s&|;()]+/).includes(args.program));`,
  expect: (a) =>
    Object.entries(scriptsOf(a))
      .filter(([, c]) => uses(c, a.args.program as string))
      .map(([k]) => k),
  asks: [
    {
      say: "list the npm script names in web/package.json whose command runs vite",
      args: { path: "web/package.json", program: "vite" },
      files: {
        "web/package.json": manifest({
          dev: "vite",
          build: "tsc -b && vite build",
          preview: "vite preview --port 4173",
          test: "vitest run",
          lint: "eslint src",
        }),
      },
    },
    {
      say: "npm scripts calling eslint in ui/package.json?",
      args: { path: "ui/package.json", program: "eslint" },
      files: {
        "ui/package.json": manifest({
          lint: "eslint . --max-warnings 0",
          "lint:fix": "eslint . --fix",
          format: "prettier --write .",
          ci: "npm run typecheck && eslint . && vitest run",
          typecheck: "tsc --noEmit",
        }),
      },
    },
    {
      say: "in api/package.json, what tasks call tsc?",
      args: { path: "api/package.json", program: "tsc" },
      files: {
        "api/package.json": manifest({
          build: "tsc -p tsconfig.build.json",
          start: "node dist/main.js",
          check: "tsc --noEmit",
          "db:migrate": "prisma migrate deploy",
          "build:watch": "tsc -w -p tsconfig.build.json",
        }),
      },
    },
  ],
};

const SCRIPTS_NOT_USING: ReuseTask = {
  name: "npm:list_scripts_avoiding_program",
  intent: "list the npm script names whose command does not run a given program",
  code: String.raw`const pkg = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
const scripts = pkg.scripts || {};
return Object.keys(scripts).filter((k) => !scripts[k].split(/[\s&|;()]+/).includes(args.program));`,
  expect: (a) =>
    Object.entries(scriptsOf(a))
      .filter(([, c]) => !uses(c, a.args.program as string))
      .map(([k]) => k),
  asks: [
    {
      say: "list the npm script names in svc/package.json whose command does not run jest",
      args: { path: "svc/package.json", program: "jest" },
      files: {
        "svc/package.json": manifest({
          test: "jest",
          "test:watch": "jest --watch",
          build: "tsc",
          start: "node dist/server.js",
          coverage: "jest --coverage",
        }),
      },
    },
    {
      say: "names of the scripts in lib/package.json that dont touch rollup",
      args: { path: "lib/package.json", program: "rollup" },
      files: {
        "lib/package.json": manifest({
          build: "rollup -c",
          "build:min": "rollup -c --environment MINIFY",
          test: "vitest",
          docs: "typedoc src/index.ts",
          prepublishOnly: "npm test && rollup -c",
        }),
      },
    },
    {
      say: "tools/package.json — which yarn tasks have nothing to do with node?",
      args: { path: "tools/package.json", program: "node" },
      files: {
        "tools/package.json": manifest({
          gen: "node scripts/gen.js",
          clean: "rimraf dist",
          bench: "node --expose-gc bench/run.js",
          fmt: "biome format --write .",
          release: "changeset publish",
        }),
      },
    },
  ],
};

/** [path, value] for every leaf of a nested object, depth first in key order. */
const leaves = (v: unknown, path: string[] = []): [string[], unknown][] =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => leaves(x, [...path, k])) : [[path, v]];
const leavesOf = (a: Ask) => leaves(JSON.parse(input(a)));

const FLATTEN_DOTTED: ReuseTask = {
  name: "config:flatten_to_dotted_properties",
  intent: "flatten a nested config object into dotted key=value property lines",
  code: String.raw`const cfg = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
const out = [];
const walk = (v, p) => {
  if (v !== null && typeof v === "object" && !Array.isArray(v)) {
    for (const k of Object.keys(v)) walk(v[k], p.concat([k]));
  } else out.push(p.join(".") + "=" + String(v));
};
walk(cfg, []);
return out;`,
  expect: (a) => leavesOf(a).map(([p, v]) => `${p.join(".")}=${String(v)}`),
  asks: [
    {
      say: "flatten the nested config object in conf/app.json into dotted key=value property lines",
      args: { path: "conf/app.json" },
      files: { "conf/app.json": json({ server: { host: "0.0.0.0", port: 8080 }, db: { url: "postgres://db/app", pool: { max: 10 } }, debug: false }) },
    },
    {
      say: "app/settings.json as dotted props",
      args: { path: "app/settings.json" },
      files: { "app/settings.json": json({ cache: { ttl: 300, backend: "redis" }, log: { level: "info", json: true } }) },
    },
    {
      say: "spring-style a.b.c= rows out of svc/defaults.json please",
      args: { path: "svc/defaults.json" },
      files: { "svc/defaults.json": json({ mail: { smtp: { host: "smtp.local", port: 25 }, from: "noreply@acme.test" }, retries: 3 }) },
    },
  ],
};

const FLATTEN_ENV: ReuseTask = {
  name: "config:flatten_to_env_lines",
  intent: "flatten a nested config object into upper-case, underscore-joined environment variable lines",
  code: String.raw`const cfg = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
const out = [];
const walk = (v, p) => {
  if (v !== null && typeof v === "object" && !Array.isArray(v)) {
    for (const k of Object.keys(v)) walk(v[k], p.concat([k]));
  } else out.push(p.join("_").toUpperCase() + "=" + String(v));
};
walk(cfg, []);
return out;`,
  expect: (a) => leavesOf(a).map(([p, v]) => `${p.map((k) => k.toUpperCase()).join("_")}=${String(v)}`),
  asks: [
    {
      say: "flatten the nested config object in conf/api.json into upper-case, underscore-joined environment variable lines",
      args: { path: "conf/api.json" },
      files: { "conf/api.json": json({ http: { port: 3000, cors: { origin: "*" } }, auth: { secret: "dev-only" }, workers: 4 }) },
    },
    {
      say: "env vars from deploy/web.json (environment variable style, FOO_BAR=baz)",
      args: { path: "deploy/web.json" },
      files: { "deploy/web.json": json({ cdn: { base: "https://cdn.acme.test", enabled: true }, sentry: { dsn: "" } }) },
    },
    {
      say: "docker wants A_B=c stuff — make it from k8s/worker.json",
      args: { path: "k8s/worker.json" },
      files: { "k8s/worker.json": json({ queue: { name: "jobs", prefetch: 20 }, metrics: { port: 9100 }, region: "eu-west-1" }) },
    },
  ],
};

const fstabFields = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"))
    .map((l) => l.split(/\s+/));

const MOUNT_POINTS: ReuseTask = {
  name: "fstab:list_mount_points",
  intent: "list the mount points in an fstab file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#")).map((l) => l.split(/\s+/)[1]);`,
  expect: (a) => fstabFields(a).map((f) => f[1]),
  asks: [
    {
      say: "list the mount points in etc/fstab",
      args: { path: "etc/fstab" },
      files: {
        "etc/fstab": lines(
          "# <file system> <mount point> <type> <options> <dump> <pass>",
          "UUID=3f1c-9a2e /boot/efi vfat umask=0077 0 1",
          "UUID=8d2b6c1e-1f0a-4c55-9e61-2a7d0c4f9b11 / ext4 errors=remount-ro 0 1",
          "/dev/sdb1 /srv/data xfs defaults,noatime 0 2",
          "tmpfs /run/user tmpfs size=512M 0 0",
        ),
      },
    },
    {
      say: "mount points of hosts/nas/fstab pls",
      args: { path: "hosts/nas/fstab" },
      files: {
        "hosts/nas/fstab": lines(
          "LABEL=root / ext4 defaults 0 1",
          "",
          "LABEL=tank /mnt/tank zfs defaults 0 0",
          "nas01:/exports/media /mnt/media nfs4 rw,hard 0 0",
          "tmpfs /tmp tmpfs size=2G 0 0",
        ),
      },
    },
    {
      say: "which directories does srv01s table (backup/srv01.tab) attach filesystems to?",
      args: { path: "backup/srv01.tab" },
      files: {
        "backup/srv01.tab": lines(
          "# srv01",
          "/dev/mapper/vg0-root / ext4 defaults 0 1",
          "/dev/mapper/vg0-var /var ext4 defaults 0 2",
          "/dev/nvme1n1p1 /backup btrfs compress=zstd 0 0",
        ),
      },
    },
  ],
};

const MOUNT_DEVICES: ReuseTask = {
  name: "fstab:list_mount_devices",
  intent: "list the devices (first field) in an fstab file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#")).map((l) => l.split(/\s+/)[0]);`,
  expect: (a) => fstabFields(a).map((f) => f[0]),
  asks: [
    {
      say: "list the devices (first field) in vm/fstab",
      args: { path: "vm/fstab" },
      files: {
        "vm/fstab": lines(
          "# generated at install",
          "/dev/vda1 / ext4 defaults 0 1",
          "/dev/vda15 /boot/efi vfat umask=0077 0 1",
          "/dev/vdb /var/lib/docker ext4 defaults,nofail 0 2",
        ),
      },
    },
    {
      say: "devices in old/fstab.bak?",
      args: { path: "old/fstab.bak" },
      files: {
        "old/fstab.bak": lines(
          "proc /proc proc defaults 0 0",
          "/dev/sda1 / ext3 defaults 0 1",
          "/dev/sda2 /home ext3 defaults 0 2",
          "/dev/cdrom /media/cdrom iso9660 ro,user,noauto 0 0",
        ),
      },
    },
    {
      say: "what UUIDs / block sources does the laptops table at cfg/laptop.tab reference? column one",
      args: { path: "cfg/laptop.tab" },
      files: {
        "cfg/laptop.tab": lines(
          "UUID=a1b2-c3d4 /boot vfat defaults 0 2",
          "UUID=5e6f7a8b-0c1d-4e2f-8a9b-0c1d2e3f4a5b / btrfs subvol=@ 0 0",
          "UUID=5e6f7a8b-0c1d-4e2f-8a9b-0c1d2e3f4a5b /home btrfs subvol=@home 0 0",
          "",
          "# swap",
          "/dev/zram0 none swap defaults 0 0",
        ),
      },
    },
  ],
};

/** Days of the week (0 = Sunday) of every day from start to end, both included. */
const weekDays = (a: Ask) => {
  const day = (s: string) => {
    const [y, m, d] = s.split("-").map(Number);
    return Date.UTC(y!, m! - 1, d!) / 86400000;
  };
  const out: number[] = [];
  for (let n = day(a.args.start as string); n <= day(a.args.end as string); n++) out.push(new Date(n * 86400000).getUTCDay());
  return out;
};

const WEEKDAYS: ReuseTask = {
  name: "cal:count_weekdays_in_span",
  intent: "count the weekdays (Monday to Friday) from a start date to an end date, both included",
  code: String.raw`const ms = (s) => { const p = s.split("-").map(Number); return Date.UTC(p[0], p[1] - 1, p[2]); };
let n = 0;
for (let t = ms(args.start); t <= ms(args.end); t += 86400000) {
  const d = new Date(t).getUTCDay();
  if (d !== 0 && d !== 6) n++;
}
return n;`,
  expect: (a) => weekDays(a).filter((d) => d >= 1 && d <= 5).length,
  asks: [
    { say: "count the weekdays (Monday to Friday) from 2027-01-04 to 2027-01-29, both included", args: { start: "2027-01-04", end: "2027-01-29" } },
    { say: "weekdays 2027-03-01..2027-03-31 incl.?", args: { start: "2027-03-01", end: "2027-03-31" } },
    { say: "how many working days are there between 2027-05-10 and 2027-06-04, first and last day too?", args: { start: "2027-05-10", end: "2027-06-04" } },
  ],
};

const WEEKEND_DAYS: ReuseTask = {
  name: "cal:count_weekend_days_in_span",
  intent: "count the weekend days (Saturday and Sunday) from a start date to an end date, both included",
  code: String.raw`const ms = (s) => { const p = s.split("-").map(Number); return Date.UTC(p[0], p[1] - 1, p[2]); };
let n = 0;
for (let t = ms(args.start); t <= ms(args.end); t += 86400000) {
  const d = new Date(t).getUTCDay();
  if (d === 0 || d === 6) n++;
}
return n;`,
  expect: (a) => weekDays(a).filter((d) => d === 0 || d === 6).length,
  asks: [
    { say: "count the weekend days (Saturday and Sunday) from 2027-02-01 to 2027-02-28, both included", args: { start: "2027-02-01", end: "2027-02-28" } },
    { say: "how many weekend days in 2027-07-01 → 2027-08-15?", args: { start: "2027-07-01", end: "2027-08-15" } },
    { say: "how many sat and sun are in 2027-09-01 till 2027-10-31 (with first and last)?", args: { start: "2027-09-01", end: "2027-10-31" } },
  ],
};

const gridOf = (a: Ask) => rowsOf(a).map((r) => r.map(Number));

const ROW_TOTALS: ReuseTask = {
  name: "grid:sum_each_row",
  intent: "sum each row of a grid of comma-separated numbers",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.trim().split("\n").map((l) => l.split(",").reduce((s, x) => s + Number(x), 0));`,
  expect: (a) => gridOf(a).map((r) => r.reduce((s, x) => s + x, 0)),
  asks: [
    {
      say: "sum each row of the grid of comma-separated numbers in data/m1.txt",
      args: { path: "data/m1.txt" },
      files: { "data/m1.txt": lines("3,8,1", "12,0,7", "5,5,9", "2,14,6") },
    },
    {
      say: "row totals for sheets/q3.csv",
      args: { path: "sheets/q3.csv" },
      files: { "sheets/q3.csv": lines("120,95,143,88", "60,72,51,90") },
    },
    {
      say: "add across, line by line, the figures in lab/readings.txt",
      args: { path: "lab/readings.txt" },
      files: { "lab/readings.txt": lines("17,4", "9,21", "30,2", "6,6", "11,13") },
    },
  ],
};

const COLUMN_TOTALS: ReuseTask = {
  name: "grid:sum_each_column",
  intent: "sum each column of a grid of comma-separated numbers",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.trim().split("\n").map((l) => l.split(",").map(Number));
return rows[0].map((_, j) => rows.reduce((s, r) => s + r[j], 0));`,
  expect: (a) => {
    const g = gridOf(a);
    return g[0]!.map((_, j) => g.reduce((s, r) => s + r[j]!, 0));
  },
  asks: [
    {
      say: "sum each column of the grid of comma-separated numbers in data/m2.txt",
      args: { path: "data/m2.txt" },
      files: { "data/m2.txt": lines("4,10,2,7", "9,1,3,8", "6,5,11,0") },
    },
    {
      say: "column totals of budget/plan.csv",
      args: { path: "budget/plan.csv" },
      files: { "budget/plan.csv": lines("200,150", "75,310", "40,65", "120,90", "15,5") },
    },
    {
      say: "vertical totals please, for scores/round2.txt (foot of every col)",
      args: { path: "scores/round2.txt" },
      files: { "scores/round2.txt": lines("7,3,9,2,5", "1,8,4,6,10") },
    },
  ],
};

const vcard = (...cards: [string, string][]) =>
  cards.map(([fn, tel]) => ["BEGIN:VCARD", "VERSION:3.0", `FN:${fn}`, `TEL;TYPE=cell:${tel}`, "END:VCARD"].join("\r\n")).join("\r\n") + "\r\n";

const VCARD_NAMES: ReuseTask = {
  name: "vcard:list_full_names",
  intent: "list the full names (FN) of the contacts in a vCard file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split(/\r?\n/).filter((l) => /^FN[;:]/i.test(l)).map((l) => l.slice(l.indexOf(":") + 1).trim());`,
  expect: (a) =>
    input(a)
      .split(/\r?\n/)
      .filter((l) => l.toUpperCase().startsWith("FN:") || l.toUpperCase().startsWith("FN;"))
      .map((l) => l.slice(l.indexOf(":") + 1).trim()),
  asks: [
    {
      say: "list the full names of the contacts in phone/contacts.vcf",
      args: { path: "phone/contacts.vcf" },
      files: { "phone/contacts.vcf": vcard(["Marta Nowak", "+48 601 222 333"], ["Kenji Watanabe", "+81 90 1234 5678"], ["Olu Adeyemi", "+234 803 555 0101"]) },
    },
    {
      say: "names in crm/leads.vcf (the FN lines)",
      args: { path: "crm/leads.vcf" },
      files: { "crm/leads.vcf": vcard(["Priya Raman", "+91 98450 12345"], ["Tomás Ortega", "+34 612 345 678"]) },
    },
    {
      say: "whos in people/export.vcf? just how each person is called",
      args: { path: "people/export.vcf" },
      files: {
        "people/export.vcf": vcard(
          ["Lena Fischer", "+49 151 2345678"],
          ["Samir Haddad", "+961 3 123456"],
          ["Aoife Byrne", "+353 87 123 4567"],
          ["Yusuf Demir", "+90 532 111 2233"],
        ),
      },
    },
  ],
};

const STREAK: ReuseTask = {
  name: "habit:measure_longest_streak",
  intent: "the longest run of consecutive calendar days among a list of dates",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const days = [...new Set(t.split("\n").map((l) => l.trim()).filter(Boolean))].map((s) => {
  const p = s.split("-").map(Number);
  return Date.UTC(p[0], p[1] - 1, p[2]) / 86400000;
}).sort((x, y) => x - y);
let best = 0, run = 0;
for (let i = 0; i < days.length; i++) {
  run = i > 0 && days[i] === days[i - 1] + 1 ? run + 1 : 1;
  if (run > best) best = run;
}
return best;`,
  expect: (a) => {
    const set = new Set(
      input(a)
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean),
    );
    const next = (s: string) => new Date(Date.parse(`${s}T00:00:00Z`) + 86400000).toISOString().slice(0, 10);
    let best = 0;
    for (const d of set) {
      let n = 1;
      for (let x = next(d); set.has(x); x = next(x)) n++;
      best = Math.max(best, n);
    }
    return best;
  },
  asks: [
    {
      say: "the longest run of consecutive calendar days among the dates in gym/visits.txt",
      args: { path: "gym/visits.txt" },
      files: { "gym/visits.txt": lines("2026-03-02", "2026-03-03", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-09", "2026-03-12", "2026-03-13") },
    },
    {
      say: "max consecutive days in journal/entries.txt?",
      args: { path: "journal/entries.txt" },
      files: { "journal/entries.txt": lines("2026-01-30", "2026-02-02", "2026-01-31", "2026-02-01", "2026-01-31", "2026-02-04", "2026-02-05") },
    },
    {
      say: "my best streak in duolingo/log.txt — how many in a row without a gap?",
      args: { path: "duolingo/log.txt" },
      files: { "duolingo/log.txt": lines("2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31", "2027-01-01", "2027-01-03", "2027-01-04", "", "2026-12-20") },
    },
  ],
};

/** The CSV keeping only the comma-separated `columns`, in that order. */
const selected = (a: Ask) => {
  const [head, ...rows] = rowsOf(a);
  const idx = (a.args.columns as string).split(",").map((c) => head!.indexOf(c.trim()));
  return lines(...[head!, ...rows].map((r) => idx.map((i) => r[i]).join(",")));
};

const SELECT_COLUMNS: ReuseTask = {
  name: "table:write_selected_columns",
  intent: "write a copy of a table keeping only the named columns, in the order given; return the count of data rows",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.trim().split("\n").map((l) => l.split(","));
const idx = args.columns.split(",").map((c) => rows[0].indexOf(c.trim()));
const out = rows.map((r) => idx.map((i) => r[i]).join(","));
await mcp.filesystem.write_file({ path: args.out, content: out.join("\n") + "\n" });
return rows.length - 1;`,
  expect: (a) => rowsOf(a).length - 1,
  leaves: (a) => ({ [a.args.out as string]: selected(a) }),
  asks: [
    {
      say: "write a copy of crm/people.csv to crm/emails.csv keeping only the columns email,name, in that order; how many data rows?",
      args: { path: "crm/people.csv", columns: "email,name", out: "crm/emails.csv" },
      files: {
        "crm/people.csv": csv("id,name,email,city", [
          [1, "Ana Lima", "ana@acme.test", "Porto"],
          [2, "Bo Kim", "bo@acme.test", "Busan"],
          [3, "Chen Wei", "chen@acme.test", "Xiamen"],
        ]),
      },
    },
    {
      say: "cut columns id,total from shop/orders.csv into shop/totals.csv, and tell me the row count",
      args: { path: "shop/orders.csv", columns: "id,total", out: "shop/totals.csv" },
      files: {
        "shop/orders.csv": csv("id,customer,total,status", [
          ["A-100", "dara", 59.9, "paid"],
          ["A-101", "eli", 12, "refunded"],
          ["A-102", "fatou", 230.5, "paid"],
          ["A-103", "gus", 8.75, "pending"],
        ]),
      },
    },
    {
      say: "like `cut -d, -f` but by header: sku and qty from wh/stock.csv -> wh/pick.csv (sku,qty); how many items?",
      args: { path: "wh/stock.csv", columns: "sku,qty", out: "wh/pick.csv" },
      files: {
        "wh/stock.csv": csv("qty,bin,sku", [
          [4, "B-12", "SKU-881"],
          [0, "C-03", "SKU-112"],
          [17, "A-01", "SKU-640"],
          [2, "B-07", "SKU-305"],
          [9, "D-22", "SKU-977"],
        ]),
      },
    },
  ],
};

const EXPOSED_PORTS: ReuseTask = {
  name: "docker:list_exposed_ports",
  intent: "list the ports a Dockerfile exposes, as numbers",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const l of t.split("\n")) {
  const m = l.match(/^\s*EXPOSE\s+(.+)$/i);
  if (m) for (const p of m[1].trim().split(/\s+/)) out.push(parseInt(p, 10));
}
return out;`,
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l) => l.trim().toUpperCase().startsWith("EXPOSE "))
      .flatMap((l) =>
        l
          .trim()
          .slice(7)
          .trim()
          .split(/\s+/)
          .map((p) => Number(p.split("/")[0])),
      ),
  asks: [
    {
      say: "list the ports that api/Dockerfile exposes, as numbers",
      args: { path: "api/Dockerfile" },
      files: { "api/Dockerfile": lines("FROM node:20-alpine", "WORKDIR /app", "COPY . .", "RUN npm ci", "EXPOSE 3000", "EXPOSE 9229/tcp", 'CMD ["node", "server.js"]') },
    },
    {
      say: "ports exposed by worker/Dockerfile?",
      args: { path: "worker/Dockerfile" },
      files: { "worker/Dockerfile": lines("FROM python:3.12-slim", "COPY requirements.txt .", "RUN pip install -r requirements.txt", "EXPOSE 8000 9100", 'ENTRYPOINT ["celery"]') },
    },
    {
      say: "what does the Containerfile in edge/ open up to the network? (edge/Containerfile)",
      args: { path: "edge/Containerfile" },
      files: { "edge/Containerfile": lines("FROM nginx:1.27", "COPY nginx.conf /etc/nginx/nginx.conf", "expose 80/tcp 443/tcp", "EXPOSE 443/udp") },
    },
  ],
};

export const BLIND_23_TASKS: ReuseTask[] = [
  EUROS_AS_DOLLARS,
  DOLLARS_AS_EUROS,
  LOWER_BOUNDS,
  UPPER_BOUNDS,
  CLIMB_METRES,
  CLIMB_FEET,
  SCRIPTS_USING,
  SCRIPTS_NOT_USING,
  FLATTEN_DOTTED,
  FLATTEN_ENV,
  MOUNT_POINTS,
  MOUNT_DEVICES,
  WEEKDAYS,
  WEEKEND_DAYS,
  ROW_TOTALS,
  COLUMN_TOTALS,
  VCARD_NAMES,
  STREAK,
  SELECT_COLUMNS,
  EXPOSED_PORTS,
];
