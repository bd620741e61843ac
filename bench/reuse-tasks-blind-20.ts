// The 20th blind reuse stream (`--tasks blind20`), written blind on 2026-12-08 by someone who saw
// only the format (bench/reuse-tasks.ts's types, shared functions and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60
// requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names
// and kinds (bounds included vs excluded, login name vs home directory, changed vs added keys,
// indent vs dedent, first vs last path segment, count vs list of long tracks, kilocalories vs
// kilojoules, E.164 vs national phone format) and 4 single tasks. The repeats are worded as
// different users on different days would ask (terse, chatty, a file name, jargon, typos, a
// non-native speaker); one repeat of each task shares a content word with its intent, the other
// shares none.
import { type Ask, csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

// Bounds included vs excluded.
const rangeValues = (a: Ask) => {
  const [head, ...rows] = input(a)
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  const i = head!.indexOf(a.args.column as string);
  return rows.map((r) => Number(r[i]));
};

const CLOSED_RANGE: ReuseTask = {
  name: "csv:count_rows_in_closed_range",
  intent: "count the rows of a table whose number in a field is at least min and at most max, both ends included",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.trim().split("\n").map((l) => l.split(","));
const i = head.indexOf(args.column);
const lo = Number(args.min), hi = Number(args.max);
return rows.filter((r) => { const v = Number(r[i]); return v >= lo && v <= hi; }).length;`,
  expect: (a) => rangeValues(a).filter((v) => !(v < Number(a.args.min)) && !(v > Number(a.args.max))).length,
  asks: [
    {
      say: "count the rows of lab/readings.csv whose ph is at least 6.5 and at most 7.5, both ends included",
      args: { path: "lab/readings.csv", column: "ph", min: 6.5, max: 7.5 },
      files: {
        "lab/readings.csv": csv("sample,ph", [
          ["s1", 6.5],
          ["s2", 7.0],
          ["s3", 7.5],
          ["s4", 8.1],
          ["s5", 6.2],
          ["s6", 7.2],
        ]),
      },
    },
    {
      say: "shop/q3.csv: how many rows with total from 20 to 50? 20 and 50 themselves are fine too",
      args: { path: "shop/q3.csv", column: "total", min: 20, max: 50 },
      files: {
        "shop/q3.csv": csv("order,total,customer", [
          [1001, 20, "ana"],
          [1002, 35.5, "bo"],
          [1003, 50, "cy"],
          [1004, 12, "di"],
          [1005, 49.99, "ed"],
          [1006, 51, "fay"],
        ]),
      },
    },
    {
      say: "how many members of gym/members.csv are aged 18 thru 30? someone exactly 18 or exactly 30 is in too",
      args: { path: "gym/members.csv", column: "age", min: 18, max: 30 },
      files: {
        "gym/members.csv": csv("member,age,plan", [
          ["kim", 18, "basic"],
          ["lu", 25, "gold"],
          ["max", 30, "basic"],
          ["ned", 31, "gold"],
          ["ola", 17, "teen"],
          ["pia", 29, "basic"],
          ["quin", 30, "gold"],
        ]),
      },
    },
  ],
};

const OPEN_RANGE: ReuseTask = {
  name: "csv:count_rows_in_open_range",
  intent: "count the rows of a table whose number in a field is strictly above min and strictly below max",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.trim().split("\n").map((l) => l.split(","));
const i = head.indexOf(args.column);
const lo = Number(args.min), hi = Number(args.max);
return rows.filter((r) => { const v = Number(r[i]); return v > lo && v < hi; }).length;`,
  expect: (a) => rangeValues(a).filter((v) => !(v <= Number(a.args.min)) && !(v >= Number(a.args.max))).length,
  asks: [
    {
      say: "count the rows of farm/eggs.csv whose weight is strictly above 55 and strictly below 65",
      args: { path: "farm/eggs.csv", column: "weight", min: 55, max: 65 },
      files: {
        "farm/eggs.csv": csv("egg,weight", [
          ["e1", 55],
          ["e2", 58],
          ["e3", 63],
          ["e4", 65],
          ["e5", 70],
          ["e6", 60],
        ]),
      },
    },
    {
      say: "auction/bids.csv, amount strictly inside 100..200, how many bids?",
      args: { path: "auction/bids.csv", column: "amount", min: 100, max: 200 },
      files: {
        "auction/bids.csv": csv("bidder,amount", [
          ["x", 100],
          ["y", 150],
          ["z", 200],
          ["w", 199],
          ["v", 250],
          ["u", 101],
        ]),
      },
    },
    {
      say: "tally sensor/temps.csv where temp sits between 0 and 10 exclusive, a reading of exactly 0 or 10 does not qualify",
      args: { path: "sensor/temps.csv", column: "temp", min: 0, max: 10 },
      files: {
        "sensor/temps.csv": csv("time,temp", [
          ["06:00", 0],
          ["07:00", 10],
          ["08:00", 5],
          ["09:00", -2],
          ["10:00", 9.5],
          ["11:00", 10],
          ["12:00", 3],
        ]),
      },
    },
  ],
};

// Login name vs home directory.
const passwd = (...users: [string, number, string][]) =>
  lines(
    "root:x:0:0:root:/root:/bin/bash",
    "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin",
    ...users.map(([n, uid, home]) => `${n}:x:${uid}:${uid}:${n}:${home}:/bin/bash`),
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin",
  );
const humans = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("#"))
    .map((l) => l.split(":"))
    .filter((f) => Number(f[2]) >= 1000 && Number(f[2]) !== 65534);

const PASSWD_LOGINS: ReuseTask = {
  name: "sys:passwd_login_names",
  intent: "list the login names of the human accounts (uid 1000 and up, not nobody) in a passwd file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#")).map((l) => l.split(":"))
  .filter((f) => Number(f[2]) >= 1000 && Number(f[2]) !== 65534).map((f) => f[0]);`,
  expect: (a) => humans(a).map((f) => f[0]),
  asks: [
    {
      say: "list the login names of the human accounts in vm1/passwd (uid 1000 and up, not nobody)",
      args: { path: "vm1/passwd" },
      files: { "vm1/passwd": passwd(["alice", 1000, "/home/alice"], ["bob", 1001, "/home/bob"], ["svc", 999, "/var/lib/svc"]) },
    },
    {
      say: "login names on srv/box2/passwd pls, real people only",
      args: { path: "srv/box2/passwd" },
      files: { "srv/box2/passwd": passwd(["postgres", 113, "/var/lib/postgresql"], ["chen", 1000, "/home/chen"], ["dara", 1002, "/srv/users/dara"], ["eli", 1003, "/home/eli"]) },
    },
    {
      say: "which real persons exist on the CI box? its user table is in ci/userlist.txt; just the handles like alice, skip the daemons",
      args: { path: "ci/userlist.txt" },
      files: { "ci/userlist.txt": passwd(["runner", 1001, "/opt/runner"], ["gitlab", 998, "/var/opt/gitlab"], ["femi", 1002, "/home/femi"]) },
    },
  ],
};

const PASSWD_HOMES: ReuseTask = {
  name: "sys:passwd_home_dirs",
  intent: "list the home directories of the human accounts (uid 1000 and up, not nobody) in a passwd file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#")).map((l) => l.split(":"))
  .filter((f) => Number(f[2]) >= 1000 && Number(f[2]) !== 65534).map((f) => f[5]);`,
  expect: (a) => humans(a).map((f) => f[5]),
  asks: [
    {
      say: "list the home directories of the human accounts in vm2/passwd (uid 1000 and up, not nobody)",
      args: { path: "vm2/passwd" },
      files: { "vm2/passwd": passwd(["gus", 1000, "/home/gus"], ["hana", 1001, "/home/hana"], ["mail", 8, "/var/mail"]) },
    },
    {
      say: "home folders of the real users in nas/passwd?",
      args: { path: "nas/passwd" },
      files: { "nas/passwd": passwd(["ivan", 1000, "/volume1/homes/ivan"], ["jo", 1004, "/volume1/homes/jo"], ["backup", 990, "/var/backup"]) },
    },
    {
      say: "where is living the personal dirs of the people in lab/etc-users.txt? not the system users please",
      args: { path: "lab/etc-users.txt" },
      files: { "lab/etc-users.txt": passwd(["kofi", 1000, "/data/kofi"], ["lea", 1001, "/home/lea"], ["slurm", 64030, "/var/lib/slurm"]) },
    },
  ],
};

// Changed vs added keys.
const readJson = (a: Ask, key: string) => JSON.parse(input(a, key)) as Record<string, unknown>;

const CHANGED_KEYS: ReuseTask = {
  name: "config:list_changed_keys",
  intent: "list the keys whose value differs between two config files (present in both), sorted",
  code: String.raw`const a = JSON.parse(await mcp.filesystem.read_file({ path: args.before }));
const b = JSON.parse(await mcp.filesystem.read_file({ path: args.after }));
return Object.keys(a).filter((k) => k in b && JSON.stringify(a[k]) !== JSON.stringify(b[k])).sort();`,
  expect: (a) => {
    const x = readJson(a, "before");
    const y = readJson(a, "after");
    const out: string[] = [];
    for (const k of Object.keys(x)) if (Object.hasOwn(y, k) && JSON.stringify(x[k]) !== JSON.stringify(y[k])) out.push(k);
    return out.sort();
  },
  asks: [
    {
      say: "list the keys whose value differs between cfg/old.json and cfg/new.json, sorted",
      args: { before: "cfg/old.json", after: "cfg/new.json" },
      files: {
        "cfg/old.json": json({ port: 8080, host: "0.0.0.0", debug: true, workers: 4 }),
        "cfg/new.json": json({ port: 8081, host: "0.0.0.0", debug: false, workers: 4, timeout: 30 }),
      },
    },
    {
      say: "which keys got a new value from app/v1.json to app/v2.json?",
      args: { before: "app/v1.json", after: "app/v2.json" },
      files: {
        "app/v1.json": json({ theme: "light", locale: "en", retries: 3, cache: "memory" }),
        "app/v2.json": json({ theme: "dark", locale: "en", retries: 5, cache: "memory", analytics: true, region: "eu" }),
      },
    },
    {
      say: "settings drift prod/yesterday.json vs prod/today.json: what was edited? not the brand new entries",
      args: { before: "prod/yesterday.json", after: "prod/today.json" },
      files: {
        "prod/yesterday.json": json({ maxConn: 100, logLevel: "info", tls: true }),
        "prod/today.json": json({ maxConn: 250, logLevel: "info", tls: true, canary: "5%" }),
      },
    },
  ],
};

const ADDED_KEYS: ReuseTask = {
  name: "config:list_added_keys",
  intent: "list the keys present in the second config file but missing from the first, sorted",
  code: String.raw`const a = JSON.parse(await mcp.filesystem.read_file({ path: args.before }));
const b = JSON.parse(await mcp.filesystem.read_file({ path: args.after }));
return Object.keys(b).filter((k) => !(k in a)).sort();`,
  expect: (a) => {
    const x = readJson(a, "before");
    const y = readJson(a, "after");
    const out: string[] = [];
    for (const k of Object.keys(y)) if (!Object.hasOwn(x, k)) out.push(k);
    return out.sort();
  },
  asks: [
    {
      say: "list the keys present in deploy/b.json but missing from deploy/a.json, sorted",
      args: { before: "deploy/a.json", after: "deploy/b.json" },
      files: {
        "deploy/a.json": json({ image: "api:1.4", replicas: 2 }),
        "deploy/b.json": json({ image: "api:1.5", replicas: 2, memory: "512Mi", cpu: "250m" }),
      },
    },
    {
      say: "new keys svc/before.json -> svc/after.json ?",
      args: { before: "svc/before.json", after: "svc/after.json" },
      files: {
        "svc/before.json": json({ name: "billing", port: 9000, owner: "team-a" }),
        "svc/after.json": json({ name: "billing", port: 9100, owner: "team-b", slo: "99.9", pager: "#billing" }),
      },
    },
    {
      say: "what got introduced going from flags/march.json to flags/april.json? names only",
      args: { before: "flags/march.json", after: "flags/april.json" },
      files: {
        "flags/march.json": json({ newCheckout: false, darkMode: true }),
        "flags/april.json": json({ newCheckout: true, darkMode: true, betaSearch: false }),
      },
    },
  ],
};

// Indent vs dedent.
const INDENT: ReuseTask = {
  name: "text:indent_lines_by",
  intent: "indent every non-empty line of a text file by n spaces",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const pad = " ".repeat(Number(args.n));
return t.split("\n").map((l) => (l.trim() === "" ? l : pad + l)).join("\n");`,
  expect: (a) => {
    let pad = "";
    for (let i = 0; i < Number(a.args.n); i++) pad += " ";
    return input(a)
      .split("\n")
      .map((l) => (/\S/.test(l) ? pad + l : l))
      .join("\n");
  },
  asks: [
    {
      say: "indent every non-empty line of snippets/loop.py by 4 spaces",
      args: { path: "snippets/loop.py", n: 4 },
      files: { "snippets/loop.py": lines("for x in xs:", "    total += x", "", "print(total)") },
    },
    {
      say: "push docs/list.md two spaces to the right",
      args: { path: "docs/list.md", n: 2 },
      files: { "docs/list.md": lines("- milk", "  - oat", "- bread", "", "- tea") },
    },
    {
      say: "shift conf/block.yaml rightward by 2 columns so I can nest it under another key",
      args: { path: "conf/block.yaml", n: 2 },
      files: { "conf/block.yaml": lines("db:", "  host: localhost", "  port: 5432") },
    },
  ],
};

const DEDENT: ReuseTask = {
  name: "text:dedent_lines_by",
  intent: "remove up to n leading spaces from every line of a text file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const re = new RegExp("^ {0," + Number(args.n) + "}");
return t.split("\n").map((l) => l.replace(re, "")).join("\n");`,
  expect: (a) => {
    const n = Number(a.args.n);
    return input(a)
      .split("\n")
      .map((l) => {
        let i = 0;
        while (i < n && l[i] === " ") i++;
        return l.slice(i);
      })
      .join("\n");
  },
  asks: [
    {
      say: "remove up to 2 leading spaces from every line of notes/quote.md",
      args: { path: "notes/quote.md", n: 2 },
      files: { "notes/quote.md": lines("  To be, or not to be,", "    that is the question:", " whether tis nobler", "in the mind") },
    },
    {
      say: "strip 4 leading blanks off each row of paste/body.txt",
      args: { path: "paste/body.txt", n: 4 },
      files: { "paste/body.txt": lines("    def f():", "        return 1", "", "  x = f()") },
    },
    {
      say: "outdent tmpl/part.html by 3",
      args: { path: "tmpl/part.html", n: 3 },
      files: { "tmpl/part.html": lines("   <ul>", "     <li>one</li>", "     <li>two</li>", "   </ul>") },
    },
  ],
};

// First vs last path segment.
const pathRows = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .map((l) => l.split("/"));

const FIRST_SEGMENTS: ReuseTask = {
  name: "paths:list_first_segments",
  intent: "list the top-level folder of each path in a file of relative paths, one per line",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.trim()).filter((l) => l !== "").map((l) => l.split("/")[0]);`,
  expect: (a) => pathRows(a).map((s) => s[0]),
  asks: [
    {
      say: "list the top-level folder of each path in changes/touched.txt",
      args: { path: "changes/touched.txt" },
      files: { "changes/touched.txt": lines("src/app/main.ts", "docs/intro.md", "test/app.test.ts", "src/util.ts") },
    },
    {
      say: "which root folder does each entry of pr/77-files.txt sit in?",
      args: { path: "pr/77-files.txt" },
      files: { "pr/77-files.txt": lines("web/pages/index.tsx", "api/routes/users.go", "infra/main.tf") },
    },
    {
      say: "for pr/diff-names.lst gimme the first dir component of every row",
      args: { path: "pr/diff-names.lst" },
      files: { "pr/diff-names.lst": lines("assets/img/logo.svg", "lib/core/parse.rs", "lib/core/lex.rs", "ci/build.yml") },
    },
  ],
};

const LAST_SEGMENTS: ReuseTask = {
  name: "paths:list_last_segments",
  intent: "list the file name (last part) of each path in a file of relative paths, one per line",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.trim()).filter((l) => l !== "").map((l) => l.split("/").pop());`,
  expect: (a) => pathRows(a).map((s) => s[s.length - 1]),
  asks: [
    {
      say: "list the file name (last part) of each path in build/outputs.txt",
      args: { path: "build/outputs.txt" },
      files: { "build/outputs.txt": lines("dist/app.js", "dist/assets/app.css", "dist/assets/fonts/inter.woff2") },
    },
    {
      say: "bare file names from backup/manifest.txt, no dirs",
      args: { path: "backup/manifest.txt" },
      files: { "backup/manifest.txt": lines("home/ana/photos/2024/beach.jpg", "home/ana/cv.pdf", "etc/hosts") },
    },
    {
      say: "basename of every entry in logs/rotated.lst",
      args: { path: "logs/rotated.lst" },
      files: { "logs/rotated.lst": lines("var/log/nginx/access.log.1", "var/log/nginx/error.log.2.gz", "var/log/syslog.3") },
    },
  ],
};

// Count vs list of the long tracks of a playlist.
const m3u = (...tracks: [number, string][]) => lines("#EXTM3U", ...tracks.flatMap(([s, t], i) => [`#EXTINF:${s},${t}`, `music/${String(i + 1).padStart(2, "0")}.mp3`]));
const longTracks = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.startsWith("#EXTINF:"))
    .map((l) => {
      const rest = l.slice("#EXTINF:".length);
      const c = rest.indexOf(",");
      return { secs: Number(rest.slice(0, c)), title: rest.slice(c + 1).trim() };
    })
    .filter((t) => t.secs > Number(a.args.seconds));
const PLAYLIST_CODE = String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const long = t.split("\n").filter((l) => l.startsWith("#EXTINF:")).map((l) => {
  const rest = l.slice(8); const c = rest.indexOf(",");
  return { secs: Number(rest.slice(0, c)), title: rest.slice(c + 1).trim() };
}).filter((x) => x.secs > Number(args.seconds));`;

const COUNT_LONG_TRACKS: ReuseTask = {
  name: "playlist:count_long_tracks",
  intent: "count the tracks of a playlist (#EXTINF lines) longer than a number of seconds",
  code: `${PLAYLIST_CODE}\nreturn long.length;`,
  expect: (a) => longTracks(a).length,
  asks: [
    {
      say: "count the tracks of mixes/road.m3u longer than 300 seconds",
      args: { path: "mixes/road.m3u", seconds: 300 },
      files: { "mixes/road.m3u": m3u([312, "Dire Straits - Telegraph Road Edit"], [245, "Toto - Africa"], [301, "Boston - Foreplay"], [300, "Rush - Limelight Live"]) },
    },
    {
      say: "how many tracks in party.m3u run over 240s",
      args: { path: "party.m3u", seconds: 240 },
      files: { "party.m3u": m3u([200, "Daft Punk - One More Time"], [241, "Robyn - Dancing On My Own"], [250, "ABBA - Dancing Queen"], [180, "Dua Lipa - Levitating"]) },
    },
    {
      say: "gym.m3u, songs past 200s, how many?",
      args: { path: "gym.m3u", seconds: 200 },
      files: {
        "gym.m3u": m3u(
          [215, "Survivor - Eye of the Tiger"],
          [199, "Queen - Don't Stop Me Now"],
          [260, "Eminem - Lose Yourself"],
          [201, "Kanye West - Stronger"],
          [150, "Blur - Song 2"],
        ),
      },
    },
  ],
};

const LIST_LONG_TRACKS: ReuseTask = {
  name: "playlist:list_long_track_titles",
  intent: "list the titles of the tracks of a playlist (#EXTINF lines) longer than a number of seconds",
  code: `${PLAYLIST_CODE}\nreturn long.map((x) => x.title);`,
  expect: (a) => longTracks(a).map((t) => t.title),
  asks: [
    {
      say: "list the titles of the tracks in mixes/chill.m3u longer than 180 seconds",
      args: { path: "mixes/chill.m3u", seconds: 180 },
      files: { "mixes/chill.m3u": m3u([240, "Air - La Femme d'Argent"], [175, "Bonobo - Kerala"], [181, "Tycho - Awake"]) },
    },
    {
      say: "titles of songs over 5 min (300s) in car.m3u",
      args: { path: "car.m3u", seconds: 300 },
      files: { "car.m3u": m3u([355, "Led Zeppelin - Stairway to Heaven"], [300, "The Doors - Roadhouse Blues"], [481, "Pink Floyd - Time"], [210, "Oasis - Wonderwall"]) },
    },
    {
      say: "which songs in study/focus.m3u exceed 420s? names please",
      args: { path: "study/focus.m3u", seconds: 420 },
      files: { "study/focus.m3u": m3u([600, "Brian Eno - An Ending"], [421, "Max Richter - On the Nature of Daylight"], [420, "Nils Frahm - Says"], [95, "Satie - Gymnopedie 1"]) },
    },
  ],
};

// Kilocalories vs kilojoules.
const kcalSum = (a: Ask) =>
  input(a)
    .trim()
    .split("\n")
    .slice(1)
    .reduce((s, l) => s + Number(l.split(",")[1]), 0);

const TOTAL_KCAL: ReuseTask = {
  name: "diet:total_energy_kcal",
  intent: "add up the energy of a food log (food,kcal rows) in kilocalories",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.trim().split("\n").slice(1);
const s = rows.reduce((acc, l) => acc + Number(l.split(",")[1]), 0);
return Math.round(s * 100) / 100;`,
  expect: (a) => round2(kcalSum(a)),
  asks: [
    {
      say: "add up the energy of diary/monday.csv in kilocalories",
      args: { path: "diary/monday.csv" },
      files: {
        "diary/monday.csv": csv("food,kcal", [
          ["oatmeal", 150],
          ["banana", 105],
          ["chicken salad", 420],
          ["apple", 95],
        ]),
      },
    },
    {
      say: "total kcal of my food in meals/tue.csv",
      args: { path: "meals/tue.csv" },
      files: {
        "meals/tue.csv": csv("food,kcal", [
          ["bagel", 270],
          ["latte", 190],
          ["pasta", 650.5],
        ]),
      },
    },
    {
      say: "how many calroies did I eat per eats/wed.csv",
      args: { path: "eats/wed.csv" },
      files: {
        "eats/wed.csv": csv("food,kcal", [
          ["eggs", 140],
          ["toast", 80],
          ["soup", 230],
          ["cookie", 160],
          ["rice", 205],
        ]),
      },
    },
  ],
};

const TOTAL_KJ: ReuseTask = {
  name: "diet:total_energy_kj",
  intent: "add up the energy of a food log (food,kcal rows) in kilojoules",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.trim().split("\n").slice(1);
const s = rows.reduce((acc, l) => acc + Number(l.split(",")[1]), 0);
return Math.round(s * 4.184 * 100) / 100;`,
  expect: (a) => round2(kcalSum(a) * 4.184),
  asks: [
    {
      say: "add up the energy of diary/thursday.csv in kilojoules",
      args: { path: "diary/thursday.csv" },
      files: {
        "diary/thursday.csv": csv("food,kcal", [
          ["yogurt", 120],
          ["granola", 210],
          ["steak", 540],
        ]),
      },
    },
    {
      say: "kilojoules for meals/fri.csv?",
      args: { path: "meals/fri.csv" },
      files: {
        "meals/fri.csv": csv("food,kcal", [
          ["croissant", 231],
          ["tea", 2],
          ["burrito", 745],
          ["orange", 62],
        ]),
      },
    },
    {
      say: "sum eats/sat.csv in kJ, the australian way",
      args: { path: "eats/sat.csv" },
      files: {
        "eats/sat.csv": csv("food,kcal", [
          ["muesli", 300],
          ["sushi", 480],
          ["chocolate", 235],
        ]),
      },
    },
  ],
};

// E.164 vs national phone format.
const tenDigits = (l: string) => {
  let d = "";
  for (const ch of l) if (ch >= "0" && ch <= "9") d += ch;
  return d.length === 11 && d.startsWith("1") ? d.slice(1) : d;
};
const phoneRows = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map(tenDigits);
const PHONE_CODE = String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const nums = t.split("\n").filter((l) => l.trim() !== "").map((l) => {
  let d = l.replace(/\D/g, "");
  if (d.length === 11 && d[0] === "1") d = d.slice(1);
  return d;
});`;

const E164: ReuseTask = {
  name: "phone:list_e164_numbers",
  intent: "list the US phone numbers of a file (one per line) in E.164 form, +1 and ten digits",
  code: `${PHONE_CODE}\nreturn nums.map((d) => "+1" + d);`,
  expect: (a) => phoneRows(a).map((d) => `+1${d}`),
  asks: [
    {
      say: "list the US phone numbers of crm/leads.txt in E.164 form",
      args: { path: "crm/leads.txt" },
      files: { "crm/leads.txt": lines("415-555-0123", "(212) 555 0199", "+1 646.555.0142") },
    },
    {
      say: "phone list in sales/calls.txt -> +1XXXXXXXXXX please",
      args: { path: "sales/calls.txt" },
      files: { "sales/calls.txt": lines("1 (312) 555-0178", "206.555.0110", "", "(617)555-0166") },
    },
    {
      say: "international dialing format for every entry of hr/emergency.txt, for the sms gateway",
      args: { path: "hr/emergency.txt" },
      files: { "hr/emergency.txt": lines("303 555 0101", "+1-702-555-0190") },
    },
  ],
};

const NATIONAL: ReuseTask = {
  name: "phone:list_national_numbers",
  intent: "list the US phone numbers of a file (one per line) in national form, like (415) 555-0123",
  code: `${PHONE_CODE}\nreturn nums.map((d) => "(" + d.slice(0, 3) + ") " + d.slice(3, 6) + "-" + d.slice(6));`,
  expect: (a) => phoneRows(a).map((d) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`),
  asks: [
    {
      say: "list the US phone numbers of crm/vendors.txt in national form, like (415) 555-0123",
      args: { path: "crm/vendors.txt" },
      files: { "crm/vendors.txt": lines("+14155550177", "503-555-0133", "1.919.555.0104") },
    },
    {
      say: "pretty-print the numbers in desk/rolodex.txt as (xxx) xxx-xxxx",
      args: { path: "desk/rolodex.txt" },
      files: { "desk/rolodex.txt": lines("+1 (808) 555-0150", "2025550188") },
    },
    {
      say: "clean up club/roster.txt digits into the domestic (NPA) NXX-XXXX style",
      args: { path: "club/roster.txt" },
      files: { "club/roster.txt": lines("713 555 0112", "+1.480.555.0124", "305-555-0147 cell") },
    },
  ],
};

// Single tasks.
const COMMON_PREFIX: ReuseTask = {
  name: "text:common_line_prefix",
  intent: "find the longest common prefix of the non-empty lines of a text file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "");
if (ls.length === 0) return "";
let p = ls[0];
for (const l of ls) while (!l.startsWith(p)) p = p.slice(0, -1);
return p;`,
  expect: (a) => {
    const ls = input(a)
      .split("\n")
      .filter((l) => l.trim() !== "");
    let n = 0;
    while (ls.length > 0 && n < ls[0]!.length && ls.every((l) => l[n] === ls[0]![n])) n++;
    return ls.length > 0 ? ls[0]!.slice(0, n) : "";
  },
  asks: [
    {
      say: "find the longest common prefix of the lines in logs/keys.txt",
      args: { path: "logs/keys.txt" },
      files: { "logs/keys.txt": lines("cache:user:42:profile", "cache:user:42:avatar", "cache:user:7:profile") },
    },
    {
      say: "shared prefix of the entries in s3/objects.txt?",
      args: { path: "s3/objects.txt" },
      files: { "s3/objects.txt": lines("2026/11/reports/a.parquet", "2026/11/reports/b.parquet", "", "2026/11/raw/c.json") },
    },
    {
      say: "what start do all rows of tags/releases.txt agree on, as far as it goes?",
      args: { path: "tags/releases.txt" },
      files: { "tags/releases.txt": lines("v2.10.0", "v2.10.1", "v2.11.0-rc1") },
    },
  ],
};

const cookieObject = (header: string) => {
  const out: Record<string, string> = {};
  for (const part of header.split(";")) {
    if (part.trim() === "") continue;
    const [name, ...rest] = part.split("=");
    out[name!.trim()] = rest.join("=").trim();
  }
  return out;
};

const PARSE_COOKIE: ReuseTask = {
  name: "http:parse_cookie_header",
  intent: "parse a Cookie header string into an object of names and values",
  code: String.raw`const out = {};
for (const s of String(args.header).split(";").map((x) => x.trim()).filter(Boolean)) {
  const i = s.indexOf("=");
  out[s.slice(0, i).trim()] = s.slice(i + 1).trim();
}
return out;`,
  expect: (a) => cookieObject(a.args.header as string),
  asks: [
    { say: "parse this Cookie header into an object of names and values: sid=abc123; theme=dark; lang=en", args: { header: "sid=abc123; theme=dark; lang=en" } },
    { say: "cookie string to a map: a=1; b=two; _ga=GA1.2.3", args: { header: "a=1; b=two; _ga=GA1.2.3" } },
    { say: "break `uid=42; cart=; token=ab=cd` apart into a key to val dict", args: { header: "uid=42; cart=; token=ab=cd" } },
  ],
};

const csvField = (f: string) => (/[",]/.test(f) ? `"${f.split('"').join('""')}"` : f);
const tsvAsCsv = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.split("\t").map(csvField).join(","));

const TSV_TO_CSV: ReuseTask = {
  name: "tsv:write_as_csv",
  intent: "convert a tab-separated file to a comma-separated file at another path, quoting fields that hold a comma or a quote; return the rows written",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.split("\n").filter((l) => l !== "").map((l) => l.split("\t").map((f) => (/[",]/.test(f) ? '"' + f.replace(/"/g, '""') + '"' : f)).join(","));
await mcp.filesystem.write_file({ path: args.out, content: rows.join("\n") + "\n" });
return rows.length;`,
  expect: (a) => tsvAsCsv(a).length,
  leaves: (a) => ({ [a.args.out as string]: lines(...tsvAsCsv(a)) }),
  asks: [
    {
      say: "convert exports/users.tsv to a comma-separated file at exports/users.csv",
      args: { path: "exports/users.tsv", out: "exports/users.csv" },
      files: { "exports/users.tsv": lines("id\tname\tcity", "1\tAna\tLisbon", "2\tLee, Bo\tSeoul") },
    },
    {
      say: "convert sheet.tsv into out/sheet.csv",
      args: { path: "sheet.tsv", out: "out/sheet.csv" },
      files: { "sheet.tsv": lines("sku\tdesc\tqty", 'A1\t12" ruler\t3', "B2\tglue\t10", "C3\ttape, clear\t4") },
    },
    {
      say: "I need reports/q4.tsv as reports/q4.csv for Excel",
      args: { path: "reports/q4.tsv", out: "reports/q4.csv" },
      files: { "reports/q4.tsv": lines("region\trevenue", "north\t1200", "south\t950") },
    },
  ],
};

const letter = (s: number) => (s >= 90 ? "A" : s >= 80 ? "B" : s >= 70 ? "C" : s >= 60 ? "D" : "F");

const LETTER_GRADES: ReuseTask = {
  name: "grades:letter_per_student",
  intent: "give each student's letter grade from a scores table (name,score rows; A 90+, B 80+, C 70+, D 60+, else F)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = {};
for (const l of t.trim().split("\n").slice(1)) {
  const [name, score] = l.split(",");
  const s = Number(score);
  out[name] = s >= 90 ? "A" : s >= 80 ? "B" : s >= 70 ? "C" : s >= 60 ? "D" : "F";
}
return out;`,
  expect: (a) => {
    const out: Record<string, string> = {};
    for (const l of input(a).trim().split("\n").slice(1)) {
      const [name, score] = l.split(",");
      out[name!] = letter(Number(score));
    }
    return out;
  },
  asks: [
    {
      say: "give each student's letter grade from class/math.csv (A 90+, B 80+, C 70+, D 60+, else F)",
      args: { path: "class/math.csv" },
      files: {
        "class/math.csv": csv("name,score", [
          ["ana", 93],
          ["ben", 80],
          ["cai", 79.5],
          ["dev", 58],
        ]),
      },
    },
    {
      say: "grade letters for class/bio.csv, usual 90/80/70/60 cutoffs",
      args: { path: "class/bio.csv" },
      files: {
        "class/bio.csv": csv("name,score", [
          ["eva", 90],
          ["fin", 69],
          ["gia", 71],
          ["hal", 100],
        ]),
      },
    },
    {
      say: "school/chem.csv: what band does every kid land in on the ten-point scale?",
      args: { path: "school/chem.csv" },
      files: {
        "school/chem.csv": csv("name,score", [
          ["ike", 60],
          ["jae", 88],
          ["kai", 45],
        ]),
      },
    },
  ],
};

export const BLIND_20_TASKS: ReuseTask[] = [
  CLOSED_RANGE,
  PASSWD_LOGINS,
  CHANGED_KEYS,
  INDENT,
  FIRST_SEGMENTS,
  COUNT_LONG_TRACKS,
  TOTAL_KCAL,
  E164,
  COMMON_PREFIX,
  PARSE_COOKIE,
  OPEN_RANGE,
  PASSWD_HOMES,
  ADDED_KEYS,
  DEDENT,
  LAST_SEGMENTS,
  LIST_LONG_TRACKS,
  TOTAL_KJ,
  NATIONAL,
  TSV_TO_CSV,
  LETTER_GRADES,
];
