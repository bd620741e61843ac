// The 25th blind reuse stream (`--tasks blind25`), written blind on 2026-12-08 by someone who saw
// only the format (bench/reuse-tasks.ts's types, helpers and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60
// requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names
// and kinds (markdown headings one level deeper vs shallower, innermost vs outermost stack frame,
// count vs list of denied sources, net turn in degrees vs radians, addresses inside vs outside a
// domain, episode total in seconds vs as H:MM:SS, a submodule's path vs its url, first vs last value
// of a repeated key) and 4 single tasks. The repeats are worded as different users on different days
// would ask (terse, chatty, a file name, jargon, typos, a non-native speaker); one repeat of each
// task shares a content word with its intent, the other shares none.
import { type Ask, input, lines, type ReuseTask } from "./reuse-tasks.ts";

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const textLines = (a: Ask) => input(a).split("\n");
const round4 = (x: number) => Math.round(x * 10000) / 10000;

const isHeading = (l: string) => /^#+ /.test(l);
const DEMOTE_HEADINGS: ReuseTask = {
  name: "md:demote_headings",
  intent: "demote every markdown heading by one level (one more #, h6 stays h6), return the text",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => (/^#{1,5} /.test(l) ? "#" + l : l)).join("\n");`,
  expect: (a) =>
    textLines(a)
      .map((l) => (isHeading(l) && l.indexOf(" ") < 6 ? `#${l}` : l))
      .join("\n"),
  asks: [
    {
      say: "demote every heading in docs/guide.md by one level and give me the text",
      args: { path: "docs/guide.md" },
      files: { "docs/guide.md": lines("# Guide", "Intro text.", "## Install", "Run the installer.", "### On Linux", "Use the tarball.") },
    },
    {
      say: "make each heading in notes/howto.md one level lower, I am nesting it under a chapter",
      args: { path: "notes/howto.md" },
      files: { "notes/howto.md": lines("## Setup", "- clone", "- build", "#### Tips", "Keep it short.", "###### Deep", "end") },
    },
    {
      say: "wiki/intro.md goes inside another page now, bump all its # titles down a notch (h1 becomes h2 and so on)",
      args: { path: "wiki/intro.md" },
      files: { "wiki/intro.md": lines("# Welcome", "Hello #team", "# FAQ", "## Who we are", "We build things.") },
    },
  ],
};

const PROMOTE_HEADINGS: ReuseTask = {
  name: "md:promote_headings",
  intent: "promote every markdown heading up one level (one less #, h1 stays h1), return the text",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => (/^##+ /.test(l) ? l.slice(1) : l)).join("\n");`,
  expect: (a) =>
    textLines(a)
      .map((l) => (isHeading(l) && !l.startsWith("# ") ? l.slice(1) : l))
      .join("\n"),
  asks: [
    {
      say: "promote every heading in book/ch2.md up one level and return the text",
      args: { path: "book/ch2.md" },
      files: { "book/ch2.md": lines("## Chapter 2", "It was late.", "### The station", "Trains.", "#### Platform 4", "Rain.") },
    },
    {
      say: "raise each heading of drafts/post.md by a level, ## turns into #",
      args: { path: "drafts/post.md" },
      files: { "drafts/post.md": lines("# Title", "## Part one", "text", "## Part two", "### Detail", "more text") },
    },
    {
      say: "spec/api.md is becoming its own doc, so lift all the # titles a rank (## goes to #, ### to ##, etc)",
      args: { path: "spec/api.md" },
      files: { "spec/api.md": lines("## API", "Base url below.", "### GET /items", "Lists items.", "### POST /items", "Adds one.") },
    },
  ],
};

const frames = (a: Ask) =>
  textLines(a)
    .filter((l) => l.trim().startsWith("at "))
    .map((l) => l.trim().split(/\s+/)[1]!);
const INNERMOST_FRAME: ReuseTask = {
  name: "trace:find_innermost_frame",
  intent: "name the innermost function of a JavaScript stack trace (the frame that threw)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const at = t.split("\n").map((l) => l.trim()).filter((l) => l.indexOf("at ") === 0);
return at[0].slice(3).split(" ")[0];`,
  expect: (a) => frames(a)[0],
  asks: [
    {
      say: "name the innermost function in crash/trace.txt, the frame that threw",
      args: { path: "crash/trace.txt" },
      files: {
        "crash/trace.txt": lines("TypeError: row is undefined", "    at parseRow (src/csv.js:12:5)", "    at readAll (src/csv.js:40:3)", "    at main (src/index.js:8:1)"),
      },
    },
    {
      say: "which function blew up? errors/worker.log has the stack",
      args: { path: "errors/worker.log" },
      files: {
        "errors/worker.log": lines(
          "RangeError: Invalid array length",
          "    at allocBuffer (lib/pool.js:88:11)",
          "    at Pool.grow (lib/pool.js:51:7)",
          "    at Worker.onJob (lib/worker.js:19:9)",
          "    at processTicks (node:internal/process/task_queues:95:5)",
        ),
      },
    },
    {
      say: "where did it really break? the top of the call chain in bugs/4411.txt, just the method pls",
      args: { path: "bugs/4411.txt" },
      files: {
        "bugs/4411.txt": lines("Error: ENOENT: no such file", "    at openSync (node:fs:573:3)", "    at loadConfig (app/config.js:7:14)", "    at start (app/server.js:30:2)"),
      },
    },
  ],
};

const OUTERMOST_FRAME: ReuseTask = {
  name: "trace:find_outermost_frame",
  intent: "name the outermost function of a JavaScript stack trace (the entry point that started the calls)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const at = t.split("\n").map((l) => l.trim()).filter((l) => l.indexOf("at ") === 0);
return at[at.length - 1].slice(3).split(" ")[0];`,
  expect: (a) => frames(a).at(-1),
  asks: [
    {
      say: "name the outermost function in crash/boot.txt, the entry point of that stack trace",
      args: { path: "crash/boot.txt" },
      files: {
        "crash/boot.txt": lines("Error: port in use", "    at listen (net.js:1400:9)", "    at createServer (app/http.js:22:4)", "    at bootstrap (app/main.js:5:1)"),
      },
    },
    {
      say: "what is the bottom frame of the trace in logs/err-0412.txt?",
      args: { path: "logs/err-0412.txt" },
      files: {
        "logs/err-0412.txt": lines(
          "SyntaxError: Unexpected token }",
          "    at JSON.parse (<anonymous>)",
          "    at decodeBody (lib/http.js:61:17)",
          "    at handle (lib/router.js:33:5)",
          "    at runCli (bin/cli.js:12:3)",
        ),
      },
    },
    {
      say: "who kicked off this call chain? see bugs/77.txt, I want the very first caller",
      args: { path: "bugs/77.txt" },
      files: {
        "bugs/77.txt": lines("TypeError: cb is not a function", "    at emitDone (lib/queue.js:44:3)", "    at drain (lib/queue.js:30:7)", "    at tick (lib/timer.js:9:2)"),
      },
    },
  ],
};

const denied = (a: Ask) => [
  ...new Set(
    textLines(a)
      .map((l) => l.trim().split(/\s+/))
      .filter((w) => w[0] === "deny" && w[1] === "from")
      .map((w) => w[2]!),
  ),
];
const COUNT_DENIED: ReuseTask = {
  name: "fw:count_denied_sources",
  intent: "count the distinct source addresses that a firewall rules file denies (deny from lines)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const seen = {};
for (const l of t.split("\n")) { const m = /^\s*deny from (\S+)/.exec(l); if (m) seen[m[1]] = true; }
return Object.keys(seen).length;`,
  expect: (a) => denied(a).length,
  asks: [
    {
      say: "count the distinct source addresses that fw/rules.conf denies",
      args: { path: "fw/rules.conf" },
      files: { "fw/rules.conf": lines("# edge rules", "allow from 10.0.0.1", "deny from 203.0.113.7", "deny from 198.51.100.23", "deny from 203.0.113.7", "allow from 10.0.0.2") },
    },
    {
      say: "how many different IPs does the firewall block according to edge/acl.txt?",
      args: { path: "edge/acl.txt" },
      files: {
        "edge/acl.txt": lines("deny from 192.0.2.10", "deny from 192.0.2.11", "allow from 172.16.0.4", "deny from 192.0.2.12", "deny from 192.0.2.10", "deny from 100.64.3.3"),
      },
    },
    {
      say: "blocklist numbers: unique IPs refused by gw/hosts.acl?",
      args: { path: "gw/hosts.acl" },
      files: { "gw/hosts.acl": lines("allow from 10.1.1.1", "# spam", "deny from 45.33.2.9", "allow from 10.1.1.2", "deny from 45.33.2.9") },
    },
  ],
};

const LIST_DENIED: ReuseTask = {
  name: "fw:list_denied_sources",
  intent: "list the distinct source addresses that a firewall rules file denies (deny from lines), in file order",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const l of t.split("\n")) { const m = /^\s*deny from (\S+)/.exec(l); if (m && out.indexOf(m[1]) < 0) out.push(m[1]); }
return out;`,
  expect: (a) => denied(a),
  asks: [
    {
      say: "list the distinct source addresses fw/main.rules denies, in file order",
      args: { path: "fw/main.rules" },
      files: { "fw/main.rules": lines("deny from 198.18.0.5", "allow from 10.9.0.1", "deny from 198.18.0.9", "deny from 198.18.0.5") },
    },
    {
      say: "which IPs are blocked in the firewall config ops/fw.conf? each one once",
      args: { path: "ops/fw.conf" },
      files: { "ops/fw.conf": lines("# ops", "deny from 185.220.101.4", "allow from 10.0.8.8", "deny from 185.220.101.5", "deny from 91.240.118.2", "deny from 185.220.101.4") },
    },
    {
      say: "dump the banned IPs from proxy/acl.txt, no repeats, as they appear",
      args: { path: "proxy/acl.txt" },
      files: {
        "proxy/acl.txt": lines("allow from 127.0.0.1", "deny from 5.188.10.1", "deny from 5.188.10.1", "deny from 80.82.77.33", "allow from 10.2.2.2", "deny from 5.188.10.2"),
      },
    },
  ],
};

const netDegrees = (a: Ask) => {
  let d = 0;
  for (const l of textLines(a)) {
    const [dir, n] = l.trim().split(/\s+/);
    if (dir === "R") d += Number(n);
    if (dir === "L") d -= Number(n);
  }
  return ((d % 360) + 360) % 360;
};
const turnCode = (ret: string) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let d = 0;
for (const l of t.split("\n")) {
  const w = l.trim().split(/\s+/);
  if (w[0] === "R") d += Number(w[1]);
  else if (w[0] === "L") d -= Number(w[1]);
}
const deg = ((d % 360) + 360) % 360;
${ret}`;
const TURN_DEGREES: ReuseTask = {
  name: "nav:sum_turns_degrees",
  intent: "net clockwise turn in degrees (0 to 359) after a file of L/R turns, one per line like R 90",
  code: turnCode("return deg;"),
  expect: (a) => netDegrees(a),
  asks: [
    {
      say: "net clockwise turn in degrees after the turns in robot/path1.txt",
      args: { path: "robot/path1.txt" },
      files: { "robot/path1.txt": lines("R 90", "R 45", "L 30", "R 120") },
    },
    {
      say: "rover/run7.txt: total heading change clockwise, degrees?",
      args: { path: "rover/run7.txt" },
      files: { "rover/run7.txt": lines("L 90", "L 90", "R 45", "L 10") },
    },
    {
      say: "which way does the bot face compared to its start once it follows moves/a.txt? answer in ° going the way a clock goes",
      args: { path: "moves/a.txt" },
      files: { "moves/a.txt": lines("R 180", "R 90", "R 135", "L 15", "R 60") },
    },
  ],
};

const TURN_RADIANS: ReuseTask = {
  name: "nav:sum_turns_radians",
  intent: "net clockwise turn in radians (0 to 2π, 4 decimals) after a file of L/R turns, one per line like R 90",
  code: turnCode("return Math.round(((deg * Math.PI) / 180) * 10000) / 10000;"),
  expect: (a) => round4((netDegrees(a) / 180) * Math.PI),
  asks: [
    {
      say: "net clockwise turn in radians after the turns in robot/path2.txt",
      args: { path: "robot/path2.txt" },
      files: { "robot/path2.txt": lines("R 30", "R 30", "L 90", "R 200") },
    },
    {
      say: "radians pls: heading change from drone/legs.txt",
      args: { path: "drone/legs.txt" },
      files: { "drone/legs.txt": lines("L 45", "R 10", "R 10", "L 120") },
    },
    {
      say: "how much has the arm rotated overall following arm/seq.txt? in rad, rounded to four dp",
      args: { path: "arm/seq.txt" },
      files: { "arm/seq.txt": lines("R 720", "R 33", "L 3") },
    },
  ],
};

const addresses = (a: Ask) =>
  textLines(a)
    .map((l) => l.trim())
    .filter((l) => l.includes("@"));
const inDomain = (e: string, d: unknown) => e.slice(e.lastIndexOf("@") + 1).toLowerCase() === String(d).toLowerCase();
const domainCode = (keep: string) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const d = String(args.domain).toLowerCase();
return t.split("\n").map((l) => l.trim()).filter((l) => l.indexOf("@") >= 0).filter((e) => ${keep});`;
const IN_DOMAIN: ReuseTask = {
  name: "mail:list_addresses_in_domain",
  intent: "list the email addresses in a file that belong to a given domain",
  code: domainCode('e.slice(e.lastIndexOf("@") + 1).toLowerCase() === d'),
  expect: (a) => addresses(a).filter((e) => inDomain(e, a.args.domain)),
  asks: [
    {
      say: "list the email addresses in crm/leads.txt that belong to acme.io",
      args: { path: "crm/leads.txt", domain: "acme.io" },
      files: { "crm/leads.txt": lines("ana@acme.io", "bo@gmail.com", "chen@Acme.io", "dara@acme.io.evil.net", "eli@acme.io") },
    },
    {
      say: "which contacts in team/people.txt have a globex.com email?",
      args: { path: "team/people.txt", domain: "globex.com" },
      files: { "team/people.txt": lines("hank@globex.com", "marge@springfield.org", "frank@globex.com", "lisa@yahoo.com") },
    },
    {
      say: "pull everyone at initech.net out of hr/staff.txt",
      args: { path: "hr/staff.txt", domain: "initech.net" },
      files: { "hr/staff.txt": lines("peter@initech.net", "joanna@chotchkies.com", "milton@initech.net", "samir@initech.net", "bob@consult.biz") },
    },
  ],
};

const OUTSIDE_DOMAIN: ReuseTask = {
  name: "mail:list_addresses_outside_domain",
  intent: "list the email addresses in a file that are outside a given domain (the external ones)",
  code: domainCode('e.slice(e.lastIndexOf("@") + 1).toLowerCase() !== d'),
  expect: (a) => addresses(a).filter((e) => !inDomain(e, a.args.domain)),
  asks: [
    {
      say: "list the email addresses in crm/cc.txt outside the domain umbrella.org",
      args: { path: "crm/cc.txt", domain: "umbrella.org" },
      files: { "crm/cc.txt": lines("wesker@umbrella.org", "jill@stars.gov", "chris@stars.gov", "ada@umbrella.org", "leon@rpd.us") },
    },
    {
      say: "external addresses on list/invite.txt, so anyone not hooli.com",
      args: { path: "list/invite.txt", domain: "hooli.com" },
      files: { "list/invite.txt": lines("gavin@hooli.com", "richard@piedpiper.com", "jared@hooli.com", "monica@raviga.vc") },
    },
    {
      say: "who on events/rsvp.txt isn't from our company (stark.dev)?",
      args: { path: "events/rsvp.txt", domain: "stark.dev" },
      files: { "events/rsvp.txt": lines("tony@stark.dev", "pepper@stark.dev", "bruce@culver.edu", "happy@Stark.dev", "natasha@shield.gov") },
    },
  ],
};

const totalSeconds = (a: Ask) =>
  textLines(a)
    .filter((l) => l.trim() !== "")
    .reduce(
      (s, l) =>
        s +
        l
          .trim()
          .split(/\s+/)[0]!
          .split(":")
          .reduce((x, p) => x * 60 + Number(p), 0),
      0,
    );
const episodeCode = (ret: string) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let s = 0;
for (const l of t.split("\n")) {
  if (l.trim() === "") continue;
  const parts = l.trim().split(" ")[0].split(":");
  let x = 0;
  for (const p of parts) x = x * 60 + Number(p);
  s += x;
}
${ret}`;
const two = (n: number) => String(n).padStart(2, "0");
const EPISODE_SECONDS: ReuseTask = {
  name: "podcast:sum_episode_seconds",
  intent: "total length of the episodes listed in a file (each line starts m:ss or h:mm:ss), in seconds",
  code: episodeCode("return s;"),
  expect: (a) => totalSeconds(a),
  asks: [
    {
      say: "total length of the episodes in pods/queue.txt, in seconds",
      args: { path: "pods/queue.txt" },
      files: { "pods/queue.txt": lines("42:10 The long game", "1:05:03 Interview with a chef", "7:45 Short news") },
    },
    {
      say: "how many seconds is shows/backlog.txt altogether?",
      args: { path: "shows/backlog.txt" },
      files: { "shows/backlog.txt": lines("58:00 Part one", "61:30 Part two", "0:59 Trailer", "1:00:01 Bonus") },
    },
    {
      say: "combined runtime of feed/march.txt as one raw integer, no clock format",
      args: { path: "feed/march.txt" },
      files: { "feed/march.txt": lines("33:33 Ep 101", "44:44 Ep 102", "2:02:02 Live special") },
    },
  ],
};

const EPISODE_CLOCK: ReuseTask = {
  name: "podcast:format_episode_total",
  intent: "total length of the episodes listed in a file (each line starts m:ss or h:mm:ss), as H:MM:SS",
  code: episodeCode(String.raw`const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
const ss = String(s % 60).padStart(2, "0");
return Math.floor(s / 3600) + ":" + mm + ":" + ss;`),
  expect: (a) => {
    const s = totalSeconds(a);
    return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
  },
  asks: [
    {
      say: "total length of the episodes in pods/later.txt, as H:MM:SS",
      args: { path: "pods/later.txt" },
      files: { "pods/later.txt": lines("25:05 Cold open", "1:10:00 Deep dive", "3:07 Mailbag") },
    },
    {
      say: "episodes in shows/q3.txt, what's the total? clock style h:mm:ss",
      args: { path: "shows/q3.txt" },
      files: { "shows/q3.txt": lines("49:59 July", "50:01 August", "59:00 September") },
    },
    {
      say: "how long would bingeing feed/april.txt take? write it like 3:04:05",
      args: { path: "feed/april.txt" },
      files: { "feed/april.txt": lines("1:00:00 Pilot", "45:30 Two", "45:30 Three", "9:09 Outtakes") },
    },
  ],
};

const submodule = (a: Ask, key: string) => {
  let current = "";
  for (const l of textLines(a)) {
    const head = /^\[submodule "(.*)"\]$/.exec(l.trim());
    if (head) current = head[1]!;
    else if (current === a.args.name) {
      const [k, ...v] = l.split("=");
      if (k!.trim() === key) return v.join("=").trim();
    }
  }
  return null;
};
const submoduleCode = (key: string) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let cur = null;
for (const raw of t.split("\n")) {
  const l = raw.trim();
  if (l.indexOf("[submodule ") === 0) { cur = l.slice(12, l.length - 2); continue; }
  const i = l.indexOf("=");
  if (cur === args.name && i > 0 && l.slice(0, i).trim() === "${key}") return l.slice(i + 1).trim();
}
return null;`;
const gitmodules = (...mods: [string, string, string][]) => lines(...mods.flatMap(([n, p, u]) => [`[submodule "${n}"]`, `\tpath = ${p}`, `\turl = ${u}`]));
const SUBMODULE_PATH: ReuseTask = {
  name: "gitmod:find_submodule_path",
  intent: "find the checkout path of a named submodule in a git submodules config",
  code: submoduleCode("path"),
  expect: (a) => submodule(a, "path"),
  asks: [
    {
      say: "find the checkout path of the ui-kit submodule in .gitmodules",
      args: { path: ".gitmodules", name: "ui-kit" },
      files: {
        ".gitmodules": gitmodules(["ui-kit", "packages/ui-kit", "https://github.com/acme/ui-kit.git"], ["icons", "vendor/icons", "git@github.com:acme/icons.git"]),
      },
    },
    {
      say: "where does the proto submodule get checked out? repo2/.gitmodules",
      args: { path: "repo2/.gitmodules", name: "proto" },
      files: {
        "repo2/.gitmodules": gitmodules(["docs", "site/docs", "https://gitlab.com/org/docs.git"], ["proto", "third_party/proto", "https://github.com/org/proto.git"]),
      },
    },
    {
      say: "the 'fonts' dependency in site/modules.ini: which dir does it live in?",
      args: { path: "site/modules.ini", name: "fonts" },
      files: {
        "site/modules.ini": gitmodules(["fonts", "assets/fonts", "https://github.com/typo/fonts.git"], ["theme", "assets/theme", "https://github.com/typo/theme.git"]),
      },
    },
  ],
};

const SUBMODULE_URL: ReuseTask = {
  name: "gitmod:find_submodule_url",
  intent: "find the remote url of a named submodule in a git submodules config",
  code: submoduleCode("url"),
  expect: (a) => submodule(a, "url"),
  asks: [
    {
      say: "find the remote url of the icons submodule in web/.gitmodules",
      args: { path: "web/.gitmodules", name: "icons" },
      files: {
        "web/.gitmodules": gitmodules(["icons", "lib/icons", "https://github.com/web/icons.git"], ["charts", "lib/charts", "https://github.com/web/charts.git"]),
      },
    },
    {
      say: "git remote for submodule 'sdk' in mobile/.gitmodules?",
      args: { path: "mobile/.gitmodules", name: "sdk" },
      files: {
        "mobile/.gitmodules": gitmodules(["sdk", "ext/sdk", "git@bitbucket.org:team/sdk.git"], ["assets", "ext/assets", "https://bitbucket.org/team/assets.git"]),
      },
    },
    {
      say: "from where is 'engine' cloned? its in game/modules.cfg",
      args: { path: "game/modules.cfg", name: "engine" },
      files: {
        "game/modules.cfg": gitmodules(["tools", "deps/tools", "https://example.org/tools.git"], ["engine", "deps/engine", "https://example.org/engine.git"]),
      },
    },
  ],
};

const keyValues = (a: Ask, lastWins: boolean) => {
  const out: Record<string, string> = {};
  for (const l of textLines(a)) {
    const t = l.trim();
    if (t === "" || t.startsWith("#") || !t.includes("=")) continue;
    const i = t.indexOf("=");
    const k = t.slice(0, i).trim();
    if (lastWins || !(k in out)) out[k] = t.slice(i + 1).trim();
  }
  return out;
};
const kvCode = (lastWins: boolean) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = {};
for (const raw of t.split("\n")) {
  const l = raw.trim();
  const i = l.indexOf("=");
  if (l === "" || l[0] === "#" || i < 0) continue;
  const k = l.slice(0, i).trim();
  if (${lastWins ? "true" : "!(k in out)"}) out[k] = l.slice(i + 1).trim();
}
return out;`;
const FIRST_VALUES: ReuseTask = {
  name: "kv:collect_first_values",
  intent: "map each key of a key=value file to its first value (earlier lines win over repeats)",
  code: kvCode(false),
  expect: (a) => keyValues(a, false),
  asks: [
    {
      say: "map each key in conf/flags.txt to its first value, earlier lines win",
      args: { path: "conf/flags.txt" },
      files: { "conf/flags.txt": lines("# flags", "beta=on", "theme=dark", "beta=off", "limit=10") },
    },
    {
      say: "settings/app.cfg repeats some keys, keep the value seen first for each",
      args: { path: "settings/app.cfg" },
      files: { "settings/app.cfg": lines("host=db1", "port=5432", "host=db2", "pool=4", "port=6432") },
    },
    {
      say: "dedupe props/build.properties: for a name that shows up twice, the original setting stays",
      args: { path: "props/build.properties" },
      files: { "props/build.properties": lines("version=1.0", "debug=false", "", "version=2.0", "debug=true", "target=es2020") },
    },
  ],
};

const LAST_VALUES: ReuseTask = {
  name: "kv:collect_last_values",
  intent: "map each key of a key=value file to its last value (later lines override)",
  code: kvCode(true),
  expect: (a) => keyValues(a, true),
  asks: [
    {
      say: "map each key in conf/over.txt to its last value, later lines override",
      args: { path: "conf/over.txt" },
      files: { "conf/over.txt": lines("mode=dev", "retries=3", "mode=prod", "# end", "retries=5") },
    },
    {
      say: "resolve the repeated keys in settings/local.cfg, the last one wins",
      args: { path: "settings/local.cfg" },
      files: { "settings/local.cfg": lines("user=admin", "lang=en", "user=guest", "tz=UTC", "lang=pt") },
    },
    {
      say: "effective settings of props/deploy.properties when an entry is redefined further down",
      args: { path: "props/deploy.properties" },
      files: { "props/deploy.properties": lines("region=eu-west-1", "replicas=2", "region=us-east-2", "", "replicas=6", "canary=yes") },
    },
  ],
};

const MASK_DIGITS: ReuseTask = {
  name: "privacy:write_digit_masked_copy",
  intent: "copy a text file to another path with every digit replaced by #, and return how many digits were masked",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const n = (t.match(/[0-9]/g) || []).length;
await mcp.filesystem.write_file({ path: args.out, content: t.replace(/[0-9]/g, "#") });
return n;`,
  expect: (a) => [...input(a)].filter((c) => c >= "0" && c <= "9").length,
  leaves: (a) => ({ [a.args.out as string]: [...input(a)].map((c) => (c >= "0" && c <= "9" ? "#" : c)).join("") }),
  asks: [
    {
      say: "copy support/ticket.txt to support/ticket.masked.txt with every digit replaced by #, and tell me how many were masked",
      args: { path: "support/ticket.txt", out: "support/ticket.masked.txt" },
      files: { "support/ticket.txt": lines("Customer called from 555-0142.", "Card ending 4242, order 7781.") },
    },
    {
      say: "mask each digit in calls/note.txt and write it as calls/note.safe.txt, how many got hidden?",
      args: { path: "calls/note.txt", out: "calls/note.safe.txt" },
      files: { "calls/note.txt": lines("Ref 90210", "PIN 1234 was reset on 2026-11-30") },
    },
    {
      say: "redact the numbers in chat/log1.txt into chat/log1.redacted.txt (a # for each one) + the count",
      args: { path: "chat/log1.txt", out: "chat/log1.redacted.txt" },
      files: { "chat/log1.txt": lines("me: my code is 88", "agent: thanks, room 12B", "me: call 0800 1111") },
    },
  ],
};

const methods = (a: Ask) => {
  const out: Record<string, number> = {};
  for (const l of textLines(a)) {
    const m = /"([A-Z]+) /.exec(l);
    if (m) out[m[1]!] = (out[m[1]!] ?? 0) + 1;
  }
  return out;
};
const access = (ip: string, method: string, path: string, status: number) => `${ip} - - [08/Dec/2026:10:00:00 +0000] "${method} ${path} HTTP/1.1" ${status} 512`;
const TALLY_METHODS: ReuseTask = {
  name: "access:tally_request_methods",
  intent: "tally the HTTP methods of the requests in an access log (method -> count)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = {};
for (const l of t.split("\n")) {
  const q = l.indexOf('"');
  if (q < 0) continue;
  const m = l.slice(q + 1).split(" ")[0];
  out[m] = (out[m] || 0) + 1;
}
return out;`,
  expect: (a) => methods(a),
  asks: [
    {
      say: "tally the HTTP methods of the requests in web/access.log",
      args: { path: "web/access.log" },
      files: {
        "web/access.log": lines(
          access("1.2.3.4", "GET", "/", 200),
          access("1.2.3.5", "POST", "/login", 302),
          access("1.2.3.4", "GET", "/app.js", 200),
          access("1.2.3.6", "DELETE", "/items/3", 204),
        ),
      },
    },
    {
      say: "how many GETs vs POSTs etc in nginx/access.log.1?",
      args: { path: "nginx/access.log.1" },
      files: {
        "nginx/access.log.1": lines(
          access("9.9.9.9", "PUT", "/a", 200),
          access("9.9.9.9", "PUT", "/b", 200),
          access("8.8.8.8", "GET", "/c", 404),
          access("7.7.7.7", "HEAD", "/", 200),
          access("8.8.8.8", "GET", "/d", 200),
        ),
      },
    },
    {
      say: "verb breakdown for api/hits.txt pls",
      args: { path: "api/hits.txt" },
      files: { "api/hits.txt": lines(access("10.0.0.1", "OPTIONS", "/v1", 204), access("10.0.0.1", "PATCH", "/v1/u/1", 200), access("10.0.0.2", "PATCH", "/v1/u/2", 200)) },
    },
  ],
};

const letters = (n: number) => {
  let s = "";
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
};
const COLUMN_LETTERS: ReuseTask = {
  name: "sheet:convert_column_number_to_letters",
  intent: "convert a column number to its spreadsheet letters (1 is A, 27 is AA)",
  code: String.raw`let n = Number(args.n);
let s = "";
while (n > 0) { const r = (n - 1) % 26; s = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[r] + s; n = (n - 1 - r) / 26; }
return s;`,
  expect: (a) => letters(Number(a.args.n)),
  asks: [
    { say: "convert column number 28 to its spreadsheet letters", args: { n: 28 } },
    { say: "what letters does column 703 get in Excel?", args: { n: 703 } },
    { say: "excel-style A1 name for index 52? (no row)", args: { n: 52 } },
  ],
};

const flatKeys = (a: Ask, key: string) => Object.keys(JSON.parse(input(a, key) || "{}") as object);
const MISSING_KEYS: ReuseTask = {
  name: "i18n:list_missing_keys",
  intent: "list the translation keys of a base locale file that another locale file is missing, sorted",
  code: String.raw`const base = JSON.parse(await mcp.filesystem.read_file({ path: args.base }));
const other = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return Object.keys(base).filter((k) => !(k in other)).sort();`,
  expect: (a) => {
    const have = new Set(flatKeys(a, "path"));
    return flatKeys(a, "base")
      .filter((k) => !have.has(k))
      .sort();
  },
  asks: [
    {
      say: "list the translation keys in locales/en.json that locales/fr.json is missing, sorted",
      args: { base: "locales/en.json", path: "locales/fr.json" },
      files: {
        "locales/en.json": json({ "nav.home": "Home", "nav.cart": "Cart", "btn.buy": "Buy", "btn.cancel": "Cancel" }),
        "locales/fr.json": json({ "nav.home": "Accueil", "btn.buy": "Acheter" }),
      },
    },
    {
      say: "which keys does i18n/de.json still lack compared to i18n/en.json?",
      args: { base: "i18n/en.json", path: "i18n/de.json" },
      files: {
        "i18n/en.json": json({ title: "Title", subtitle: "Subtitle", error: "Error", ok: "OK", retry: "Retry" }),
        "i18n/de.json": json({ title: "Titel", ok: "OK" }),
      },
    },
    {
      say: "what has the Spanish team not done yet in lang/es.json vs lang/en.json? A to Z",
      args: { base: "lang/en.json", path: "lang/es.json" },
      files: {
        "lang/en.json": json({ "menu.open": "Open", "menu.save": "Save", "menu.quit": "Quit", "help.about": "About" }),
        "lang/es.json": json({ "menu.save": "Guardar", "extra.only": "Solo" }),
      },
    },
  ],
};

export const BLIND_25_TASKS: ReuseTask[] = [
  DEMOTE_HEADINGS,
  INNERMOST_FRAME,
  COUNT_DENIED,
  TURN_DEGREES,
  IN_DOMAIN,
  EPISODE_SECONDS,
  SUBMODULE_PATH,
  FIRST_VALUES,
  MASK_DIGITS,
  PROMOTE_HEADINGS,
  OUTERMOST_FRAME,
  LIST_DENIED,
  TURN_RADIANS,
  OUTSIDE_DOMAIN,
  EPISODE_CLOCK,
  SUBMODULE_URL,
  LAST_VALUES,
  TALLY_METHODS,
  COLUMN_LETTERS,
  MISSING_KEYS,
];
