// The 26th blind reuse stream (`--tasks blind26`), written blind on 2026-12-08 by someone who saw
// only the format (bench/reuse-tasks.ts's types, helpers and one task, blind14's header and first
// task), never pml's ranking or its labels; of the bench's output only the canned-code check (the
// memory-less agents' wrong answers). Nothing is tuned on it; its requests are never printed. 20
// tasks, 60 requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the
// same names and kinds (White's vs Black's chess moves, DNA complement vs reverse complement, epoch
// seconds vs milliseconds, count vs list of calendar events, with vs without the Oxford comma, file
// sizes with vs without dot files, To vs Cc addresses, Morse encode vs decode) and 4 single tasks.
// The repeats are worded as different users on different days would ask (terse, chatty, a file
// name, jargon, typos, a non-native speaker); one repeat of each task shares a content word with
// its intent, the other shares none.
import { type Ask, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

// ---- chess: the moves of one side of a PGN movetext ----

const PGN_RESULTS = new Set(["1-0", "0-1", "1/2-1/2", "*"]);
/** The half-moves of a PGN file in order: tag lines, move numbers and the result left out. */
const plies = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => !l.trim().startsWith("["))
    .join(" ")
    .split(/\s+/)
    .map((tok) => tok.replace(/^\d+\.+/, ""))
    .filter((tok) => tok !== "" && !PGN_RESULTS.has(tok));

const PLIES_CODE = String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const body = t.split("\n").filter((l) => !l.trim().startsWith("[")).join(" ");
const toks = body.replace(/\d+\.+/g, " ").split(/\s+/).filter((x) => x && !["1-0", "0-1", "1/2-1/2", "*"].includes(x));`;

const WHITE_MOVES: ReuseTask = {
  name: "chess:list_white_moves",
  intent: "list White's moves in order from a chess game's PGN movetext file",
  code: `${PLIES_CODE}\nreturn toks.filter((_, i) => i % 2 === 0);`,
  expect: (a) => plies(a).filter((_, i) => i % 2 === 0),
  asks: [
    {
      say: "list White's moves in order from games/opera.pgn",
      args: { path: "games/opera.pgn" },
      files: {
        "games/opera.pgn": lines(
          '[Event "Paris Opera"]',
          '[White "Morphy"]',
          '[Black "Duke and Count"]',
          "",
          "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5",
          "6. Bc4 Nf6 1-0",
        ),
      },
    },
    {
      say: "white moves, club/round3.pgn",
      args: { path: "club/round3.pgn" },
      files: { "club/round3.pgn": lines('[Round "3"]', "1.d4 Nf6 2.c4 e6 3.Nc3 Bb4 4.Qc2 O-O 5.a3 Bxc3+ 6.Qxc3 *") },
    },
    {
      say: "from tourney/final.txt I need only the plays of the side who begin, one after other",
      args: { path: "tourney/final.txt" },
      files: { "tourney/final.txt": lines("1. c4 e5 2. g3 Nf6 3. Bg2 d5", "4. cxd5 Nxd5 1/2-1/2") },
    },
  ],
};

const BLACK_MOVES: ReuseTask = {
  name: "chess:list_black_moves",
  intent: "list Black's moves in order from a chess game's PGN movetext file",
  code: `${PLIES_CODE}\nreturn toks.filter((_, i) => i % 2 === 1);`,
  expect: (a) => plies(a).filter((_, i) => i % 2 === 1),
  asks: [
    {
      say: "list Black's moves in order from games/immortal.pgn",
      args: { path: "games/immortal.pgn" },
      files: { "games/immortal.pgn": lines('[Event "London"]', "", "1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 0-1") },
    },
    {
      say: "I lost as black again lol, can you pull my moves out of online/blitz_0412.pgn?",
      args: { path: "online/blitz_0412.pgn" },
      files: { "online/blitz_0412.pgn": lines('[Site "online"]', '[TimeControl "180"]', "", "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *") },
    },
    {
      say: "replies of the second side only, lessons/caro.txt, SAN tokens",
      args: { path: "lessons/caro.txt" },
      files: { "lessons/caro.txt": lines("1.e4 c6 2.d4 d5 3.Nc3 dxe4 4.Nxe4 Bf5 5.Ng3 Bg6 1-0") },
    },
  ],
};

// ---- DNA: complement vs reverse complement, written to a file ----

const PAIR: Record<string, string> = { A: "T", T: "A", C: "G", G: "C", N: "N" };
/** The bases of a sequence file (FASTA header lines left out), upper case. */
const bases = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => !l.startsWith(">"))
    .join("")
    .replace(/\s/g, "")
    .toUpperCase();
const complement = (s: string) => [...s].map((b) => PAIR[b] ?? b).join("");

const STRAND_CODE = String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const seq = t.split("\n").filter((l) => !l.startsWith(">")).join("").replace(/\s/g, "").toUpperCase();
const m = { A: "T", T: "A", C: "G", G: "C", N: "N" };
const comp = seq.split("").map((b) => m[b] || b).join("");`;

const COMPLEMENT: ReuseTask = {
  name: "dna:write_complement_strand",
  intent: "write the complement strand (A-T and C-G swapped, same order) of a DNA sequence file to another file",
  code: `${STRAND_CODE}\nawait mcp.filesystem.write_file({ path: args.out, content: comp + "\\n" });\nreturn comp;`,
  expect: (a) => complement(bases(a)),
  leaves: (a) => ({ [a.args.out as string]: lines(complement(bases(a))) }),
  asks: [
    {
      say: "write the complement strand (A-T and C-G swapped, same order) of lab/seq1.txt to lab/seq1_comp.txt",
      args: { path: "lab/seq1.txt", out: "lab/seq1_comp.txt" },
      files: { "lab/seq1.txt": lines("ATGCGTAC", "GGATCC") },
    },
    {
      say: "complement of samples/brca.fa -> samples/brca_c.fa, no reversing",
      args: { path: "samples/brca.fa", out: "samples/brca_c.fa" },
      files: { "samples/brca.fa": lines(">brca fragment", "TTAGCCGATA", "CGGA") },
    },
    {
      say: "pair each base of primers/p7.txt with its partner, keep the 5' to 3' position as is, save primers/p7_pair.txt",
      args: { path: "primers/p7.txt", out: "primers/p7_pair.txt" },
      files: { "primers/p7.txt": lines("acgtttgcaa") },
    },
  ],
};

const REVERSE_COMPLEMENT: ReuseTask = {
  name: "dna:write_reverse_complement_strand",
  intent: "write the reverse complement of a DNA sequence file to another file",
  code: `${STRAND_CODE}\nconst rc = comp.split("").reverse().join("");\nawait mcp.filesystem.write_file({ path: args.out, content: rc + "\\n" });\nreturn rc;`,
  expect: (a) => [...complement(bases(a))].reverse().join(""),
  leaves: (a) => ({ [a.args.out as string]: lines([...complement(bases(a))].reverse().join("")) }),
  asks: [
    {
      say: "write the reverse complement of lab/gene7.txt to lab/gene7_rc.txt",
      args: { path: "lab/gene7.txt", out: "lab/gene7_rc.txt" },
      files: { "lab/gene7.txt": lines("AAGCTTGC") },
    },
    {
      say: "revrse complement plz: reads/r1.fa into reads/r1_rc.fa",
      args: { path: "reads/r1.fa", out: "reads/r1_rc.fa" },
      files: { "reads/r1.fa": lines(">r1 read one", "GATTACA", "CCG") },
    },
    {
      say: "need the minus-strand read for oligos/o3.txt, 5'->3', dump it in oligos/o3_minus.txt",
      args: { path: "oligos/o3.txt", out: "oligos/o3_minus.txt" },
      files: { "oligos/o3.txt": lines("cctgaNNtta") },
    },
  ],
};

// ---- epoch: seconds vs milliseconds to ISO 8601 ----

const stamps = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .map(Number);

const SECONDS_TO_ISO: ReuseTask = {
  name: "epoch:convert_seconds_to_iso",
  intent: "convert the Unix timestamps in seconds listed one per line in a file to ISO 8601 UTC strings",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.trim()).filter(Boolean).map((s) => new Date(Number(s) * 1000).toISOString());`,
  expect: (a) => stamps(a).map((s) => new Date(s * 1000).toISOString()),
  asks: [
    {
      say: "convert the Unix timestamps in seconds in logs/epochs.txt to ISO 8601 UTC strings",
      args: { path: "logs/epochs.txt" },
      files: { "logs/epochs.txt": lines("1700000000", "1704067200", "1711929600") },
    },
    {
      say: "timestamps in events/times.txt are epoch secs, make them readable ISO",
      args: { path: "events/times.txt" },
      files: { "events/times.txt": lines("0", "86400", "1234567890") },
    },
    {
      say: "the backend give me numbers like 1718000000 in api/created.txt, what real date-time are they? Z style",
      args: { path: "api/created.txt" },
      files: { "api/created.txt": lines("1718000000", "1609459200") },
    },
  ],
};

const MILLIS_TO_ISO: ReuseTask = {
  name: "epoch:convert_millis_to_iso",
  intent: "convert the Unix timestamps in milliseconds listed one per line in a file to ISO 8601 UTC strings",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.trim()).filter(Boolean).map((s) => new Date(Number(s)).toISOString());`,
  expect: (a) => stamps(a).map((ms) => new Date(ms).toISOString()),
  asks: [
    {
      say: "convert the Unix timestamps in milliseconds in metrics/ts_ms.txt to ISO 8601 UTC strings",
      args: { path: "metrics/ts_ms.txt" },
      files: { "metrics/ts_ms.txt": lines("1700000000000", "1704067200123") },
    },
    {
      say: "js Date.now() values in browser/clicks.txt (milliseconds) -> ISO",
      args: { path: "browser/clicks.txt" },
      files: { "browser/clicks.txt": lines("1715000000500", "1715000012345", "1715003600000") },
    },
    {
      say: "kafka/offsets.txt has 13-digit epoch-ms stamps, give me them as Zulu datetimes",
      args: { path: "kafka/offsets.txt" },
      files: { "kafka/offsets.txt": lines("1690000000000", "1690000000999") },
    },
  ],
};

// ---- iCalendar: count vs list of the events ----

/** An iCalendar file: events as [summary, start], to-dos (not events) as their summary. */
const ics = (events: [string, string][], todos: string[] = []) =>
  lines(
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//bench//cal//EN",
    ...events.flatMap(([summary, start], i) => ["BEGIN:VEVENT", `UID:ev${i}@bench`, `DTSTART:${start}`, `SUMMARY:${summary}`, "END:VEVENT"]),
    ...todos.flatMap((summary, i) => ["BEGIN:VTODO", `UID:todo${i}@bench`, `SUMMARY:${summary}`, "END:VTODO"]),
    "END:VCALENDAR",
  );
/** The summaries of the VEVENT blocks, in file order. */
const eventSummaries = (a: Ask) => {
  const out: string[] = [];
  let inEvent = false;
  for (const l of input(a)
    .split("\n")
    .map((x) => x.trim())) {
    if (l === "BEGIN:VEVENT") inEvent = true;
    else if (l === "END:VEVENT") inEvent = false;
    else if (inEvent && l.startsWith("SUMMARY:")) out.push(l.slice("SUMMARY:".length));
  }
  return out;
};

const COUNT_EVENTS: ReuseTask = {
  name: "ics:count_calendar_events",
  intent: "count the events (VEVENT blocks) in an iCalendar file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() === "BEGIN:VEVENT").length;`,
  expect: (a) => eventSummaries(a).length,
  asks: [
    {
      say: "count the events in cal/team.ics",
      args: { path: "cal/team.ics" },
      files: {
        "cal/team.ics": ics(
          [
            ["Sprint planning", "20261201T090000Z"],
            ["Retro", "20261212T150000Z"],
            ["Demo day", "20261215T130000Z"],
          ],
          ["Book the room"],
        ),
      },
    },
    {
      say: "how many events are on calendars/conf_2025.ics?",
      args: { path: "calendars/conf_2025.ics" },
      files: {
        "calendars/conf_2025.ics": ics([
          ["Keynote", "20250610T090000Z"],
          ["Lunch", "20250610T120000Z"],
          ["Workshop A", "20250610T133000Z"],
          ["Workshop B", "20250610T153000Z"],
          ["Closing party", "20250610T190000Z"],
        ]),
      },
    },
    {
      say: "my agenda export exports/work.ics, how much meetings inside?",
      args: { path: "exports/work.ics" },
      files: {
        "exports/work.ics": ics(
          [
            ["1:1 with Lea", "20261203T100000Z"],
            ["Budget review", "20261204T140000Z"],
          ],
          ["Send slides", "Expense report"],
        ),
      },
    },
  ],
};

const LIST_EVENTS: ReuseTask = {
  name: "ics:list_event_summaries",
  intent: "list the summaries (titles) of the events in an iCalendar file, in file order",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
let inside = false;
for (const raw of t.split("\n")) {
  const l = raw.trim();
  if (l === "BEGIN:VEVENT") inside = true;
  else if (l === "END:VEVENT") inside = false;
  else if (inside && l.startsWith("SUMMARY:")) out.push(l.slice(8));
}
return out;`,
  expect: (a) => eventSummaries(a),
  asks: [
    {
      say: "list the summaries of the events in cal/family.ics, in file order",
      args: { path: "cal/family.ics" },
      files: {
        "cal/family.ics": ics(
          [
            ["Grandma's birthday", "20261205T180000Z"],
            ["Dentist", "20261209T083000Z"],
          ],
          ["Buy a present"],
        ),
      },
    },
    {
      say: "titles of the events in shared/holidays.ics",
      args: { path: "shared/holidays.ics" },
      files: {
        "shared/holidays.ics": ics([
          ["New Year", "20270101T000000Z"],
          ["Carnival", "20270209T000000Z"],
          ["Easter Monday", "20270329T000000Z"],
        ]),
      },
    },
    {
      say: "what's scheduled in ops/oncall.ics? names of the meetings",
      args: { path: "ops/oncall.ics" },
      files: {
        "ops/oncall.ics": ics(
          [
            ["Handover", "20261207T080000Z"],
            ["Incident review", "20261208T160000Z"],
            ["Pager drill", "20261210T110000Z"],
            ["Handover", "20261214T080000Z"],
          ],
          ["Rotate the keys"],
        ),
      },
    },
  ],
};

// ---- names joined as an English list: with vs without the Oxford comma ----

const names = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
const joinNames = (ns: string[], oxford: boolean) => {
  if (ns.length <= 1) return ns.join("");
  if (ns.length === 2) return `${ns[0]} and ${ns[1]}`;
  return `${ns.slice(0, -1).join(", ")}${oxford ? "," : ""} and ${ns[ns.length - 1]}`;
};

const NAMES_CODE = String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ns = t.split("\n").map((l) => l.trim()).filter(Boolean);
if (ns.length < 2) return ns.join("");
if (ns.length === 2) return ns[0] + " and " + ns[1];
const last = ns.pop();`;

const OXFORD_JOIN: ReuseTask = {
  name: "prose:join_names_with_oxford_comma",
  intent: "join the names listed one per line in a file into an English list with the Oxford comma (A, B, and C)",
  code: `${NAMES_CODE}\nreturn ns.join(", ") + ", and " + last;`,
  expect: (a) => joinNames(names(a), true),
  asks: [
    {
      say: "join the names in team/members.txt into an English list with the Oxford comma",
      args: { path: "team/members.txt" },
      files: { "team/members.txt": lines("Ana", "Bruno", "Chiara") },
    },
    {
      say: "Oxford-comma sentence from guests/dinner.txt",
      args: { path: "guests/dinner.txt" },
      files: { "guests/dinner.txt": lines("Dr. Patel", "Mr. Gray", "Ms. Okafor", "Lee") },
    },
    {
      say: "writing the acknowledgements: turn credits/authors.txt into a phrase like 'X, Y, and Z' (Chicago style)",
      args: { path: "credits/authors.txt" },
      files: { "credits/authors.txt": lines("Grace Hopper", "Alan Turing", "Ada Lovelace", "Edsger Dijkstra", "Barbara Liskov") },
    },
  ],
};

const PLAIN_JOIN: ReuseTask = {
  name: "prose:join_names_without_oxford_comma",
  intent: "join the names listed one per line in a file into an English list without the Oxford comma (A, B and C)",
  code: `${NAMES_CODE}\nreturn ns.join(", ") + " and " + last;`,
  expect: (a) => joinNames(names(a), false),
  asks: [
    {
      say: "join the names in class/pupils.txt into an English list without the Oxford comma",
      args: { path: "class/pupils.txt" },
      files: { "class/pupils.txt": lines("Tom", "Ines", "Yuki", "Omar") },
    },
    {
      say: "english list, no oxford comma: crew/roster.txt",
      args: { path: "crew/roster.txt" },
      files: { "crew/roster.txt": lines("Sam", "Priya", "Jo") },
    },
    {
      say: "newspaper style please: press/quoted.txt as 'X, Y and Z' for the caption",
      args: { path: "press/quoted.txt" },
      files: { "press/quoted.txt": lines("the mayor", "two councillors", "a local baker") },
    },
  ],
};

// ---- an `ls -la` listing: the regular files' sizes with vs without dot files ----

/** One `ls -la` line: [mode, size, name]. */
const ls = (entries: [string, number, string][]) =>
  lines(`total ${entries.length * 4}`, ...entries.map(([mode, size, name]) => `${mode}  1 ana  staff  ${String(size).padStart(6)} Dec  3 10:12 ${name}`));
const regularFiles = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.startsWith("-"))
    .map((l) => {
      const f = l.trim().split(/\s+/);
      return { size: Number(f[4]), name: f.slice(8).join(" ") };
    });
const DIR = "drwxr-xr-x";
const RW = "-rw-r--r--";

const LS_CODE = String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let total = 0;
for (const l of t.split("\n")) {
  if (!l.startsWith("-")) continue;
  const f = l.trim().split(/\s+/);
  const name = f.slice(8).join(" ");`;

const SIZES_WITH_HIDDEN: ReuseTask = {
  name: "lsl:sum_sizes_with_hidden",
  intent: "sum the sizes of the regular files in an ls -la listing, dot files included",
  code: `${LS_CODE}\n  total += Number(f[4]);\n}\nreturn total;`,
  expect: (a) => regularFiles(a).reduce((n, f) => n + f.size, 0),
  asks: [
    {
      say: "sum the sizes of the regular files in listings/home.txt (ls -la output), dot files included",
      args: { path: "listings/home.txt" },
      files: {
        "listings/home.txt": ls([
          [DIR, 4096, "."],
          [DIR, 4096, ".."],
          [RW, 220, ".bash_logout"],
          [RW, 3771, ".bashrc"],
          [DIR, 4096, "Documents"],
          [RW, 1204, "notes.txt"],
          [RW, 58211, "photo.jpg"],
        ]),
      },
    },
    {
      say: "total bytes of all files incl hidden ones, dump/ls_srv.txt",
      args: { path: "dump/ls_srv.txt" },
      files: {
        "dump/ls_srv.txt": ls([
          [DIR, 4096, "."],
          [RW, 91, ".htaccess"],
          [RW, 15320, "index.php"],
          ["-rwxr-xr-x", 2048, "deploy.sh"],
          [DIR, 4096, "cache"],
        ]),
      },
    },
    {
      say: "how big is everything in proj/dir.txt together, also the secret ones with point at start (not folders)",
      args: { path: "proj/dir.txt" },
      files: {
        "proj/dir.txt": ls([
          [DIR, 4096, "."],
          [DIR, 4096, ".git"],
          [RW, 412, ".gitignore"],
          [RW, 77, ".nvmrc"],
          [RW, 1833, "package.json"],
          [RW, 9050, "README.md"],
          [DIR, 4096, "src"],
        ]),
      },
    },
  ],
};

const SIZES_WITHOUT_HIDDEN: ReuseTask = {
  name: "lsl:sum_sizes_without_hidden",
  intent: "sum the sizes of the regular files in an ls -la listing, leaving dot files out",
  code: `${LS_CODE}\n  if (!name.startsWith(".")) total += Number(f[4]);\n}\nreturn total;`,
  expect: (a) =>
    regularFiles(a)
      .filter((f) => f.name[0] !== ".")
      .reduce((n, f) => n + f.size, 0),
  asks: [
    {
      say: "sum the sizes of the regular files in listings/www.txt (ls -la output), leaving dot files out",
      args: { path: "listings/www.txt" },
      files: {
        "listings/www.txt": ls([
          [DIR, 4096, "."],
          [DIR, 4096, ".."],
          [RW, 130, ".htpasswd"],
          [RW, 5120, "index.html"],
          [RW, 20480, "style.css"],
          [DIR, 4096, "img"],
        ]),
      },
    },
    {
      say: "bytes used by visible files only, backup/ls.txt",
      args: { path: "backup/ls.txt" },
      files: {
        "backup/ls.txt": ls([
          [DIR, 4096, "."],
          [RW, 1048576, "db.dump"],
          [RW, 64, ".lock"],
          [RW, 2300, "manifest.txt"],
          [RW, 9, ".version"],
        ]),
      },
    },
    {
      say: "du-ish total for repo/tree.txt but skip hidden stuff and dirs",
      args: { path: "repo/tree.txt" },
      files: {
        "repo/tree.txt": ls([
          [DIR, 4096, "."],
          [DIR, 4096, ".github"],
          [RW, 250, ".editorconfig"],
          [RW, 1100, "LICENSE"],
          [RW, 730, "Makefile"],
          [RW, 18, ".tool-versions"],
          [DIR, 4096, "docs"],
        ]),
      },
    },
  ],
};

// ---- a mail message's headers: To vs Cc ----

/** The bare addresses of one header of a message (headers unfolded, the body left out). */
const headerAddresses = (a: Ask, header: string) => {
  const head = input(a).split("\n\n")[0] ?? "";
  const unfolded = head.replace(/\n[ \t]+/g, " ");
  const line = unfolded.split("\n").find((l) => l.toLowerCase().startsWith(`${header.toLowerCase()}:`));
  if (!line) return [];
  return line
    .slice(header.length + 1)
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => /<([^>]+)>/.exec(p)?.[1] ?? p);
};
const mail = (headers: string[], body: string[]) => lines(...headers, "", ...body);

const addressCode = (header: string) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const head = t.split("\n\n")[0].replace(/\n[ \t]+/g, " ");
const line = head.split("\n").find((l) => /^${header}:/i.test(l));
if (!line) return [];
return line.slice(line.indexOf(":") + 1).split(",").map((p) => p.trim()).filter(Boolean).map((p) => {
  const m = p.match(/<([^>]+)>/);
  return m ? m[1] : p;
});`;

const TO_ADDRESSES: ReuseTask = {
  name: "mail:list_to_addresses",
  intent: "list the addresses in the To header of an email message file (bare addresses, in order)",
  code: addressCode("To"),
  expect: (a) => headerAddresses(a, "To"),
  asks: [
    {
      say: "list the addresses in the To header of mail/invite.eml, bare addresses in order",
      args: { path: "mail/invite.eml" },
      files: {
        "mail/invite.eml": mail(
          ["From: Ana Ruiz <ana@acme.test>", "To: Bo Lind <bo@acme.test>, cy@partner.test", "Cc: Dee Moss <dee@acme.test>", "Subject: Kick-off"],
          ["Hi all,", "see you Monday.", "To: nobody in particular"],
        ),
      },
    },
    {
      say: "To: addresses of inbox/0193.eml pls",
      args: { path: "inbox/0193.eml" },
      files: {
        "inbox/0193.eml": mail(
          [
            "From: billing@shop.test",
            "Subject: Your invoice",
            "To: Eli Stone <eli@home.test>,",
            "  Fay Ito <fay@home.test>",
            "Cc: accounts@shop.test",
            "Date: Tue, 1 Dec 2026 09:00:00 +0000",
          ],
          ["Invoice attached."],
        ),
      },
    },
    {
      say: "who are the main receivers of support/ticket.txt? just user@host parts, not the carbon copy ones",
      args: { path: "support/ticket.txt" },
      files: {
        "support/ticket.txt": mail(
          ["From: Gus Hale <gus@client.test>", "Cc: Hal Ng <hal@client.test>, ivy@client.test", "To: help@vendor.test", "Subject: Login broken"],
          ["Cc: my manager too please"],
        ),
      },
    },
  ],
};

const CC_ADDRESSES: ReuseTask = {
  name: "mail:list_cc_addresses",
  intent: "list the addresses in the Cc header of an email message file (bare addresses, in order)",
  code: addressCode("Cc"),
  expect: (a) => headerAddresses(a, "Cc"),
  asks: [
    {
      say: "list the addresses in the Cc header of mail/budget.eml, bare addresses in order",
      args: { path: "mail/budget.eml" },
      files: {
        "mail/budget.eml": mail(
          ["From: Jon Bek <jon@acme.test>", "To: Kim Sato <kim@acme.test>", "Cc: Lou Berg <lou@acme.test>, finance@acme.test", "Subject: Q1 budget"],
          ["Numbers inside."],
        ),
      },
    },
    {
      say: "cc list of threads/re_launch.eml?",
      args: { path: "threads/re_launch.eml" },
      files: {
        "threads/re_launch.eml": mail(
          ["From: Zoe <zoe@startup.test>", "To: Rex <rex@startup.test>, Bo <bo@startup.test>", "Cc: press@startup.test,", "\tMae <mae@agency.test>", "Subject: Re: launch"],
          ["> To: the old list", "Agreed."],
        ),
      },
    },
    {
      say: "who was carbon-copied on archive/2024-11-02.txt, plain user@domain values",
      args: { path: "archive/2024-11-02.txt" },
      files: {
        "archive/2024-11-02.txt": mail(
          ["Subject: Minutes", "Cc: Ed <ed@board.test>", "From: Di <di@board.test>", "To: Chen <chen@board.test>, Ana <ana@board.test>"],
          ["Attached are the minutes."],
        ),
      },
    },
  ],
};

// ---- Morse: encode vs decode ----

const MORSE: Record<string, string> = {
  A: ".-",
  B: "-...",
  C: "-.-.",
  D: "-..",
  E: ".",
  F: "..-.",
  G: "--.",
  H: "....",
  I: "..",
  J: ".---",
  K: "-.-",
  L: ".-..",
  M: "--",
  N: "-.",
  O: "---",
  P: ".--.",
  Q: "--.-",
  R: ".-.",
  S: "...",
  T: "-",
  U: "..-",
  V: "...-",
  W: ".--",
  X: "-..-",
  Y: "-.--",
  Z: "--..",
  "0": "-----",
  "1": ".----",
  "2": "..---",
  "3": "...--",
  "4": "....-",
  "5": ".....",
  "6": "-....",
  "7": "--...",
  "8": "---..",
  "9": "----.",
};
const FROM_MORSE = Object.fromEntries(Object.entries(MORSE).map(([k, v]) => [v, k]));
const MORSE_TABLE = JSON.stringify(MORSE);

const MORSE_ENCODE: ReuseTask = {
  name: "morse:encode_text_file",
  intent: "encode the text of a file as Morse code (letters split by spaces, words by ' / ')",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const m = ${MORSE_TABLE};
return t.toUpperCase().split(/\s+/).filter(Boolean)
  .map((w) => w.split("").map((c) => m[c]).filter(Boolean).join(" "))
  .filter(Boolean).join(" / ");`,
  expect: (a) =>
    input(a)
      .toUpperCase()
      .split(/\s+/)
      .filter((w) => w !== "")
      .map((w) => [...w].flatMap((c) => (MORSE[c] ? [MORSE[c]] : [])).join(" "))
      .filter((w) => w !== "")
      .join(" / "),
  asks: [
    {
      say: "encode the text of msgs/hello.txt as Morse code, letters split by spaces and words by ' / '",
      args: { path: "msgs/hello.txt" },
      files: { "msgs/hello.txt": lines("hello world") },
    },
    { say: "morse for radio/callsign.txt", args: { path: "radio/callsign.txt" }, files: { "radio/callsign.txt": lines("CQ DX 73") } },
    {
      say: "my kid wants beeps: make scouts/secret.txt into dots and dashes, slash in the gaps",
      args: { path: "scouts/secret.txt" },
      files: { "scouts/secret.txt": lines("meet at 5", "by the oak") },
    },
  ],
};

const MORSE_DECODE: ReuseTask = {
  name: "morse:decode_text_file",
  intent: "decode the Morse code in a file (letters split by spaces, words by ' / ') to uppercase text",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const m = ${MORSE_TABLE};
const back = {};
for (const k of Object.keys(m)) back[m[k]] = k;
return t.trim().split("/").map((w) => w.trim().split(/\s+/).filter(Boolean).map((c) => back[c] || "?").join("")).join(" ");`,
  expect: (a) =>
    input(a)
      .trim()
      .split("/")
      .map((w) =>
        w
          .trim()
          .split(/\s+/)
          .filter((c) => c !== "")
          .map((c) => FROM_MORSE[c] ?? "?")
          .join(""),
      )
      .join(" "),
  asks: [
    {
      say: "decode the Morse code in radio/in.txt to uppercase text",
      args: { path: "radio/in.txt" },
      files: { "radio/in.txt": lines("... --- ... / .... . .-.. .--.") },
    },
    { say: "decode this mors pls: ham/rx_0311.txt", args: { path: "ham/rx_0311.txt" }, files: { "ham/rx_0311.txt": lines("-.-. --.- / -.. .") } },
    {
      say: "I have dits and dahs in beacon/log.txt, what it say in plain English?",
      args: { path: "beacon/log.txt" },
      files: { "beacon/log.txt": lines("- . ... - / .---- ..--- ...--") },
    },
  ],
};

// ---- single tasks ----

const SCRABBLE_VALUES: Record<string, number> = {};
for (const [letters, v] of [
  ["AEIOULNSTR", 1],
  ["DG", 2],
  ["BCMP", 3],
  ["FHVWY", 4],
  ["K", 5],
  ["JX", 8],
  ["QZ", 10],
] as const)
  for (const c of letters) SCRABBLE_VALUES[c] = v;

const SCRABBLE: ReuseTask = {
  name: "scrabble:score_listed_words",
  intent: "compute the Scrabble score of each word listed one per line in a file (standard English letter values), as an object word to score",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const v = {};
const groups = [["AEIOULNSTR", 1], ["DG", 2], ["BCMP", 3], ["FHVWY", 4], ["K", 5], ["JX", 8], ["QZ", 10]];
for (const [ls, n] of groups) for (const c of ls) v[c] = n;
const out = {};
for (const w of t.split("\n").map((l) => l.trim()).filter(Boolean)) {
  out[w] = w.toUpperCase().split("").reduce((s, c) => s + (v[c] || 0), 0);
}
return out;`,
  expect: (a) => Object.fromEntries(names(a).map((w) => [w, [...w.toUpperCase()].reduce((s, c) => s + (SCRABBLE_VALUES[c] ?? 0), 0)])),
  asks: [
    {
      say: "compute the Scrabble score of each word in games/rack.txt",
      args: { path: "games/rack.txt" },
      files: { "games/rack.txt": lines("quiz", "jazz", "cat") },
    },
    { say: "scrabble points for words/tonight.txt, word by word", args: { path: "words/tonight.txt" }, files: { "words/tonight.txt": lines("oxygen", "fjord", "Boxer") } },
    {
      say: "how many tile points make every entry of board/plays.txt?",
      args: { path: "board/plays.txt" },
      files: { "board/plays.txt": lines("zephyr", "kayak", "vex") },
    },
  ],
};

const escapeHtml = (s: string) => s.split("&").join("&amp;").split("<").join("&lt;").split(">").join("&gt;");
const bulletPage = (a: Ask) =>
  lines(
    "<ul>",
    ...input(a)
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => `<li>${escapeHtml(l.trim())}</li>`),
    "</ul>",
  );

const BULLET_PAGE: ReuseTask = {
  name: "html:write_bullet_list_page",
  intent: "write the lines of a text file as an HTML unordered list (a <ul> with one <li> per non-empty line, &, < and > escaped) to a new file, returning the item count",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const items = t.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => "<li>" + esc(l) + "</li>");
await mcp.filesystem.write_file({ path: args.out, content: ["<ul>", ...items, "</ul>"].join("\n") + "\n" });
return items.length;`,
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l) => l.trim() !== "").length,
  leaves: (a) => ({ [a.args.out as string]: bulletPage(a) }),
  asks: [
    {
      say: "write the lines of notes/links.txt as an HTML unordered list to site/links.html, escaping &, < and >",
      args: { path: "notes/links.txt", out: "site/links.html" },
      files: { "notes/links.txt": lines("Docs & guides", "Use <b> sparingly", "", "FAQ") },
    },
    {
      say: "html ul from todo/week.txt -> todo/week.html",
      args: { path: "todo/week.txt", out: "todo/week.html" },
      files: { "todo/week.txt": lines("buy milk", "call Tom & Jerry", "fix 2 < 3 bug", "", "") },
    },
    {
      say: "put menu/dishes.txt on a web page as bullets, save as public/menu.htm",
      args: { path: "menu/dishes.txt", out: "public/menu.htm" },
      files: { "menu/dishes.txt": lines("Fish & chips", "Soup of the day", "Pie > cake") },
    },
  ],
};

/** Levenshtein distance, one row at a time. */
const editDistance = (a: string, b: string) => {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
};

const EDIT_DISTANCE: ReuseTask = {
  name: "strings:measure_edit_distance",
  intent: "compute the Levenshtein edit distance between two strings",
  code: String.raw`const a = String(args.a), b = String(args.b);
const d = [];
for (let i = 0; i <= a.length; i++) { d.push([i]); }
for (let j = 1; j <= b.length; j++) d[0][j] = j;
for (let i = 1; i <= a.length; i++)
  for (let j = 1; j <= b.length; j++)
    d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
return d[a.length][b.length];`,
  expect: (a) => editDistance(a.args.a as string, a.args.b as string),
  asks: [
    { say: "compute the Levenshtein edit distance between kitten and sitting", args: { a: "kitten", b: "sitting" } },
    { say: "distance from 'flaw' to 'lawn'?", args: { a: "flaw", b: "lawn" } },
    { say: "how many single-char insert/delete/substitute ops turn 'intention' into 'execution'?", args: { a: "intention", b: "execution" } },
  ],
};

const MOVING_AVERAGE: ReuseTask = {
  name: "series:compute_moving_average",
  intent: "compute the simple moving average over a window of N values of the numbers listed one per line in a file, rounded to 2 decimals",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const xs = t.split("\n").map((l) => l.trim()).filter(Boolean).map(Number);
const w = Number(args.window);
const out = [];
for (let i = 0; i + w <= xs.length; i++) {
  let s = 0;
  for (let j = i; j < i + w; j++) s += xs[j];
  out.push(Math.round((s / w) * 100) / 100);
}
return out;`,
  expect: (a) => {
    const xs = names(a).map(Number);
    const w = a.args.window as number;
    return xs.slice(0, xs.length - w + 1).map((_, i) => round2(xs.slice(i, i + w).reduce((s, x) => s + x, 0) / w));
  },
  asks: [
    {
      say: "compute the simple moving average with a window of 3 over the numbers in data/sales.txt, rounded to 2 decimals",
      args: { path: "data/sales.txt", window: 3 },
      files: { "data/sales.txt": lines("10", "12", "13", "15", "20") },
    },
    {
      say: "rolling 2-point average of sensors/temp.txt",
      args: { path: "sensors/temp.txt", window: 2 },
      files: { "sensors/temp.txt": lines("20.5", "21", "22.25", "21.75") },
    },
    {
      say: "smooth prices/btc.txt with a 4-day SMA, 2dp",
      args: { path: "prices/btc.txt", window: 4 },
      files: { "prices/btc.txt": lines("100", "104", "98", "102", "110", "108") },
    },
  ],
};

export const BLIND_26_TASKS: ReuseTask[] = [
  WHITE_MOVES,
  COMPLEMENT,
  SECONDS_TO_ISO,
  COUNT_EVENTS,
  OXFORD_JOIN,
  SIZES_WITH_HIDDEN,
  TO_ADDRESSES,
  MORSE_ENCODE,
  SCRABBLE,
  BLACK_MOVES,
  REVERSE_COMPLEMENT,
  MILLIS_TO_ISO,
  LIST_EVENTS,
  BULLET_PAGE,
  PLAIN_JOIN,
  SIZES_WITHOUT_HIDDEN,
  CC_ADDRESSES,
  MORSE_DECODE,
  EDIT_DISTANCE,
  MOVING_AVERAGE,
];
