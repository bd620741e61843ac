// The 27th blind reuse stream (`--tasks blind27`), written blind on 2026-12-08 by someone who saw
// only the format (bench/reuse-tasks.ts's types, utilities and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60
// requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names
// and kinds (kilometres vs miles, at-or-above vs strictly above, mean vs median, checkbox vs
// numbered list, rotate left vs right, earliest vs latest n, Latin vs common names written out, all
// characters vs letters only) and 4 single tasks. The repeats are worded as different users on
// different days would ask (terse, chatty, a file name, jargon, typos, a non-native speaker); one
// repeat of each task shares a content word with its intent, the other shares none.
import { type Ask, csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const rows = (a: Ask) =>
  input(a)
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(","));
const metres = (a: Ask) => rows(a).reduce((s, r) => s + Number(r[1]), 0);
const levels = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => Number(l.trim().split(/\s+/)[1]));
const seconds = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.includes("|"))
    .map((l) => {
      const [m, s] = l.split("|")[1]!.trim().split(":");
      return Number(m) * 60 + Number(s);
    });
const items = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
const signers = (a: Ask) =>
  items(a)
    .map((l) => {
      const i = l.indexOf(" ");
      return { when: l.slice(0, i), who: l.slice(i + 1).trim() };
    })
    .sort((x, y) => (x.when < y.when ? -1 : x.when > y.when ? 1 : 0));
const specimens = (a: Ask) => JSON.parse(input(a)) as { latin: string; common: string }[];
const rotate = (a: Ask, dir: 1 | -1) => {
  const xs = a.args.items as unknown[];
  const k = (((dir * (a.args.n as number)) % xs.length) + xs.length) % xs.length;
  return [...xs.slice(k), ...xs.slice(0, k)];
};

const ROW_KM: ReuseTask = {
  name: "rowing:total_distance_km",
  intent: "add up the distances of a rowing log given in metres and return the total in kilometres",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rs = t.trim().split("\n").slice(1);
let m = 0;
for (const r of rs) m += Number(r.split(",")[1]);
return Math.round((m / 1000) * 100) / 100;`,
  expect: (a) => round2(metres(a) / 1000),
  asks: [
    {
      say: "add up the distances in logs/rowing-may.csv (metres) and give me the total in kilometres",
      args: { path: "logs/rowing-may.csv" },
      files: {
        "logs/rowing-may.csv": csv("date,metres", [
          ["2026-05-01", 5000],
          ["2026-05-03", 7250],
          ["2026-05-06", 6100],
        ]),
      },
    },
    {
      say: "total kilometres in club/erg_week12.csv?",
      args: { path: "club/erg_week12.csv" },
      files: {
        "club/erg_week12.csv": csv("date,metres", [
          ["2026-03-16", 2000],
          ["2026-03-17", 10000],
          ["2026-03-19", 8420],
          ["2026-03-21", 4380],
        ]),
      },
    },
    {
      say: "how far did I pull on the erg this month altogether? sessions are in me/october_erg.csv, answer in km pls",
      args: { path: "me/october_erg.csv" },
      files: {
        "me/october_erg.csv": csv("date,metres", [
          ["2026-10-02", 12000],
          ["2026-10-09", 15500],
          ["2026-10-16", 9000],
        ]),
      },
    },
  ],
};

const ROW_MILES: ReuseTask = {
  name: "rowing:total_distance_miles",
  intent: "add up the distances of a rowing log given in metres and return the total in miles",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rs = t.trim().split("\n").slice(1);
let m = 0;
for (const r of rs) m += Number(r.split(",")[1]);
return Math.round((m / 1609.344) * 100) / 100;`,
  expect: (a) => round2(metres(a) / 1609.344),
  asks: [
    {
      say: "add up the distances in logs/rowing-june.csv (metres) and give me the total in miles",
      args: { path: "logs/rowing-june.csv" },
      files: {
        "logs/rowing-june.csv": csv("date,metres", [
          ["2026-06-02", 6000],
          ["2026-06-04", 8000],
          ["2026-06-07", 5200],
        ]),
      },
    },
    {
      say: "my coach in Boston wants it imperial: how far in mi is everything in crew/spring_pieces.csv put together?",
      args: { path: "crew/spring_pieces.csv" },
      files: {
        "crew/spring_pieces.csv": csv("date,metres", [
          ["2026-04-01", 1609],
          ["2026-04-03", 16093],
          ["2026-04-05", 3218],
        ]),
      },
    },
    {
      say: "rowing total for boathouse/sept.csv in miles",
      args: { path: "boathouse/sept.csv" },
      files: {
        "boathouse/sept.csv": csv("date,metres", [
          ["2026-09-05", 21097],
          ["2026-09-12", 10000],
          ["2026-09-19", 4000],
          ["2026-09-26", 2500],
        ]),
      },
    },
  ],
};

const TIDE_AT_OR_ABOVE: ReuseTask = {
  name: "tide:count_levels_at_or_above",
  intent: "count the tide gauge readings that are at or above a given level (the level itself included)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let n = 0;
for (const l of t.split("\n")) {
  if (l.trim() === "") continue;
  if (Number(l.trim().split(/\s+/)[1]) >= args.level) n++;
}
return n;`,
  expect: (a) => levels(a).filter((v) => v >= (a.args.level as number)).length,
  asks: [
    {
      say: "count the tide readings in gauge/pier-0312.txt that are at or above 2.5 m, 2.5 itself counts",
      args: { path: "gauge/pier-0312.txt", level: 2.5 },
      files: { "gauge/pier-0312.txt": lines("00:00 1.2", "03:00 2.5", "06:00 3.1", "09:00 2.0", "12:00 2.7") },
    },
    {
      say: "harbour/0415.log: how many times did the water reach 3.0 or more? reaching it exactly is fine too",
      args: { path: "harbour/0415.log", level: 3 },
      files: { "harbour/0415.log": lines("01:00 2.1", "02:00 3.0", "03:00 3.4", "04:00 3.0", "05:00 2.8", "06:00 1.9") },
    },
    {
      say: "readings >= 1.8 in estuary/gauge_b.txt, how many",
      args: { path: "estuary/gauge_b.txt", level: 1.8 },
      files: { "estuary/gauge_b.txt": lines("00:30 1.8", "04:30 1.8", "08:30 0.9", "12:30 2.2", "16:30 1.7") },
    },
  ],
};

const TIDE_ABOVE: ReuseTask = {
  name: "tide:count_levels_strictly_above",
  intent: "count the tide gauge readings that are strictly above a given level (equal to it does not count)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let n = 0;
for (const l of t.split("\n")) {
  if (l.trim() === "") continue;
  if (Number(l.trim().split(/\s+/)[1]) > args.level) n++;
}
return n;`,
  expect: (a) => levels(a).filter((v) => v > (a.args.level as number)).length,
  asks: [
    {
      say: "count the tide readings in gauge/pier-0313.txt strictly above 2.5 m, equal to 2.5 does not count",
      args: { path: "gauge/pier-0313.txt", level: 2.5 },
      files: { "gauge/pier-0313.txt": lines("00:00 1.4", "03:00 2.6", "06:00 3.3", "09:00 2.2", "12:00 2.9") },
    },
    {
      say: "in quay/0520.log how often was the sea higher than 3.0? exactly 3.0 is not higher",
      args: { path: "quay/0520.log", level: 3 },
      files: { "quay/0520.log": lines("01:00 3.0", "02:00 3.2", "03:00 3.0", "04:00 3.6", "05:00 2.4") },
    },
    {
      say: "nb of readings > 1.8 (strict) for estuary/gauge_c.txt",
      args: { path: "estuary/gauge_c.txt", level: 1.8 },
      files: { "estuary/gauge_c.txt": lines("00:30 1.8", "04:30 2.0", "08:30 1.8", "12:30 2.5", "16:30 1.1") },
    },
  ],
};

const MEAN_TRACK: ReuseTask = {
  name: "vinyl:mean_track_length",
  intent: "the average track length of an album tracklist file (lines 'title | m:ss'), in seconds",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const xs = [];
for (const l of t.split("\n")) {
  if (!l.includes("|")) continue;
  const [m, s] = l.split("|")[1].trim().split(":");
  xs.push(Number(m) * 60 + Number(s));
}
return Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100;`,
  expect: (a) => {
    const xs = seconds(a);
    return round2(xs.reduce((s, x) => s + x, 0) / xs.length);
  },
  asks: [
    {
      say: "what is the average track length of albums/blue_train.txt, in seconds",
      args: { path: "albums/blue_train.txt" },
      files: { "albums/blue_train.txt": lines("Blue Train | 10:43", "Moment's Notice | 9:10", "Locomotion | 7:14", "I'm Old Fashioned | 7:58", "Lazy Bird | 7:00") },
    },
    {
      say: "mean song length on crates/side_a.txt? give it in secs",
      args: { path: "crates/side_a.txt" },
      files: { "crates/side_a.txt": lines("Intro | 0:45", "Night Bus | 3:30", "Harbour | 4:05", "Long Goodbye | 12:20") },
    },
    {
      say: "typical play time per cut for lp/kind_of_blue.txt — arithmetic, not middle value please",
      args: { path: "lp/kind_of_blue.txt" },
      files: { "lp/kind_of_blue.txt": lines("So What | 9:22", "Freddie Freeloader | 9:46", "Blue in Green | 5:37", "All Blues | 11:33", "Flamenco Sketches | 9:26") },
    },
  ],
};

const MEDIAN_TRACK: ReuseTask = {
  name: "vinyl:median_track_length",
  intent: "the median track length of an album tracklist file (lines 'title | m:ss'), in seconds",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const xs = [];
for (const l of t.split("\n")) {
  if (!l.includes("|")) continue;
  const [m, s] = l.split("|")[1].trim().split(":");
  xs.push(Number(m) * 60 + Number(s));
}
xs.sort((a, b) => a - b);
const h = Math.floor(xs.length / 2);
return xs.length % 2 ? xs[h] : (xs[h - 1] + xs[h]) / 2;`,
  expect: (a) => {
    const xs = seconds(a).sort((x, y) => x - y);
    const h = Math.floor(xs.length / 2);
    return xs.length % 2 ? xs[h] : (xs[h - 1]! + xs[h]!) / 2;
  },
  asks: [
    {
      say: "what is the median track length of albums/abbey_road_side2.txt, in seconds",
      args: { path: "albums/abbey_road_side2.txt" },
      files: {
        "albums/abbey_road_side2.txt": lines("Here Comes the Sun | 3:05", "Because | 2:45", "You Never Give Me Your Money | 4:02", "Sun King | 2:26", "Mean Mr. Mustard | 1:06"),
      },
    },
    {
      say: "crates/side_b.txt — middle value of the song durations? one long jam skews the avg so not that",
      args: { path: "crates/side_b.txt" },
      files: { "crates/side_b.txt": lines("Dawn | 2:10", "Ferry | 3:00", "Tide Pool | 3:40", "The Jam | 18:30") },
    },
    {
      say: "medain lenght per track for lp/pet_sounds_a.txt (secs)",
      args: { path: "lp/pet_sounds_a.txt" },
      files: {
        "lp/pet_sounds_a.txt": lines(
          "Wouldn't It Be Nice | 2:25",
          "You Still Believe in Me | 2:36",
          "That's Not Me | 2:28",
          "Don't Talk | 2:53",
          "I'm Waiting for the Day | 3:05",
          "Let's Go Away for Awhile | 2:18",
        ),
      },
    },
  ],
};

const CHECKBOXES: ReuseTask = {
  name: "pantry:format_list_as_checkboxes",
  intent: "turn a shopping list file (one item per line) into markdown checkbox lines '- [ ] item'",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => "- [ ] " + l).join("\n");`,
  expect: (a) =>
    items(a)
      .map((l) => `- [ ] ${l}`)
      .join("\n"),
  asks: [
    {
      say: "turn kitchen/shopping.txt into markdown checkbox lines, '- [ ] item' for each",
      args: { path: "kitchen/shopping.txt" },
      files: { "kitchen/shopping.txt": lines("oat milk", "lentils", "", "coriander") },
    },
    {
      say: "make weekend/bbq_buy.txt tickable for github, every thing gets an empty box",
      args: { path: "weekend/bbq_buy.txt" },
      files: { "weekend/bbq_buy.txt": lines("charcoal", "halloumi", "corn", "lemons", "ice") },
    },
    {
      say: "checkbox list in md from pantry/restock.txt please",
      args: { path: "pantry/restock.txt" },
      files: { "pantry/restock.txt": lines("  rice ", "salt", "", "olive oil") },
    },
  ],
};

const NUMBERED: ReuseTask = {
  name: "pantry:format_list_as_numbered",
  intent: "turn a shopping list file (one item per line) into a numbered list '1. item'",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.trim()).filter(Boolean).map((l, i) => (i + 1) + ". " + l).join("\n");`,
  expect: (a) =>
    items(a)
      .map((l, i) => `${i + 1}. ${l}`)
      .join("\n"),
  asks: [
    {
      say: "turn kitchen/market.txt into a numbered list, '1. item' and so on",
      args: { path: "kitchen/market.txt" },
      files: { "kitchen/market.txt": lines("tomatoes", "", "feta", "bread") },
    },
    {
      say: "please can you enumerate the things of camping/gear_buy.txt with 1. 2. 3. in front",
      args: { path: "camping/gear_buy.txt" },
      files: { "camping/gear_buy.txt": lines("gas canister", "matches", "tarp", "rope") },
    },
    {
      say: "shopping list party/snacks.txt -> numbered",
      args: { path: "party/snacks.txt" },
      files: { "party/snacks.txt": lines("crisps", " salsa", "", "lemonade", "nuts") },
    },
  ],
};

const ROT_LEFT: ReuseTask = {
  name: "carousel:rotate_items_left",
  intent: "rotate an array left by n places: the first n items move to the end",
  code: String.raw`const xs = args.items;
const k = ((args.n % xs.length) + xs.length) % xs.length;
return xs.slice(k).concat(xs.slice(0, k));`,
  expect: (a) => rotate(a, 1),
  asks: [
    { say: "rotate [a, b, c, d, e] left by 2 places, the first 2 go to the end", args: { items: ["a", "b", "c", "d", "e"], n: 2 } },
    {
      say: "shift this queue so the 1 at the head wraps round to the tail: Mon Tue Wed Thu",
      args: { items: ["Mon", "Tue", "Wed", "Thu"], n: 1 },
    },
    { say: "rotl by 3 places: [10, 20, 30, 40, 50, 60, 70]", args: { items: [10, 20, 30, 40, 50, 60, 70], n: 3 } },
  ],
};

const ROT_RIGHT: ReuseTask = {
  name: "carousel:rotate_items_right",
  intent: "rotate an array right by n places: the last n items move to the front",
  code: String.raw`const xs = args.items;
const k = ((-args.n % xs.length) + xs.length) % xs.length;
return xs.slice(k).concat(xs.slice(0, k));`,
  expect: (a) => rotate(a, -1),
  asks: [
    { say: "rotate [p, q, r, s, t] right by 2 places, the last 2 come to the front", args: { items: ["p", "q", "r", "s", "t"], n: 2 } },
    { say: "rotr 3 on [1, 2, 3, 4, 5, 6, 7] (to the right)", args: { items: [1, 2, 3, 4, 5, 6, 7], n: 3 } },
    {
      say: "the tail 1 of this playlist has to wrap round to the head: intro, verse, chorus, outro",
      args: { items: ["intro", "verse", "chorus", "outro"], n: 1 },
    },
  ],
};

const EARLIEST: ReuseTask = {
  name: "guestbook:list_earliest_signers",
  intent: "the names of the n earliest signers of a guestbook file (lines 'YYYY-MM-DD name'), oldest first",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const es = t.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
  const i = l.indexOf(" ");
  return { when: l.slice(0, i), who: l.slice(i + 1).trim() };
});
es.sort((x, y) => (x.when < y.when ? -1 : x.when > y.when ? 1 : 0));
return es.slice(0, args.n).map((e) => e.who);`,
  expect: (a) =>
    signers(a)
      .slice(0, a.args.n as number)
      .map((e) => e.who),
  asks: [
    {
      say: "who are the 2 earliest signers of cabin/guestbook.txt, oldest first",
      args: { path: "cabin/guestbook.txt", n: 2 },
      files: { "cabin/guestbook.txt": lines("2026-07-14 Ines Barros", "2026-06-02 Tom Okafor", "2026-08-30 Lea Brandt", "2026-06-19 Raj Mehta") },
    },
    {
      say: "gallery/visitors.txt: the 3 people who wrote in it before anyone else?",
      args: { path: "gallery/visitors.txt", n: 3 },
      files: {
        "gallery/visitors.txt": lines("2025-11-03 Mona Vik", "2025-09-21 Jae Park", "2026-01-15 Omar Haddad", "2025-10-08 Ulla Berg", "2026-02-27 Kofi Mensah"),
      },
    },
    {
      say: "earliest sigers in wedding/book.txt, just 1",
      args: { path: "wedding/book.txt", n: 1 },
      files: { "wedding/book.txt": lines("2026-05-09 Aunt Rosa", "2026-05-08 Pedro Alves", "2026-05-10 Lin Zhou") },
    },
  ],
};

const LATEST: ReuseTask = {
  name: "guestbook:list_latest_signers",
  intent: "the names of the n most recent signers of a guestbook file (lines 'YYYY-MM-DD name'), newest first",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const es = t.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
  const i = l.indexOf(" ");
  return { when: l.slice(0, i), who: l.slice(i + 1).trim() };
});
es.sort((x, y) => (x.when < y.when ? 1 : x.when > y.when ? -1 : 0));
return es.slice(0, args.n).map((e) => e.who);`,
  expect: (a) =>
    signers(a)
      .reverse()
      .slice(0, a.args.n as number)
      .map((e) => e.who),
  asks: [
    {
      say: "who are the 2 most recent signers of hut/guestbook.txt, newest first",
      args: { path: "hut/guestbook.txt", n: 2 },
      files: { "hut/guestbook.txt": lines("2026-03-11 Eva Lind", "2026-04-22 Sam Rossi", "2026-02-05 Noor Aziz", "2026-04-01 Ben Hart") },
    },
    {
      say: "museum/comments.txt — last 3 persons which wrote, new to old",
      args: { path: "museum/comments.txt", n: 3 },
      files: {
        "museum/comments.txt": lines("2026-09-01 Ada Ferro", "2026-10-12 Ivo Petrov", "2026-08-17 Maya Sen", "2026-10-30 Hugo Blanc", "2026-09-25 Tess Quinn"),
      },
    },
    {
      say: "latest signer of chapel/book.txt please, only one",
      args: { path: "chapel/book.txt", n: 1 },
      files: { "chapel/book.txt": lines("2026-06-12 Carl Weber", "2026-06-14 Dina Kader", "2026-06-13 Ole Holm") },
    },
  ],
};

const LATIN: ReuseTask = {
  name: "herbarium:write_latin_names",
  intent: "write the Latin names of the specimens in a catalogue to a text file, one per line",
  code: String.raw`const xs = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
const body = xs.map((x) => x.latin).join("\n") + "\n";
await mcp.filesystem.write_file({ path: args.out, content: body });
return xs.length;`,
  expect: (a) => specimens(a).length,
  leaves: (a) => ({ [a.args.out as string]: lines(...specimens(a).map((x) => x.latin)) }),
  asks: [
    {
      say: "write the Latin names of the specimens in herbarium/box1.json to herbarium/box1_latin.txt, one per line",
      args: { path: "herbarium/box1.json", out: "herbarium/box1_latin.txt" },
      files: {
        "herbarium/box1.json": json([
          { latin: "Bellis perennis", common: "daisy", found: "2026-04-02" },
          { latin: "Taraxacum officinale", common: "dandelion", found: "2026-04-05" },
        ]),
      },
    },
    {
      say: "dump the binomials from field/sheet7.json into field/sheet7_binomial.txt, a row each",
      args: { path: "field/sheet7.json", out: "field/sheet7_binomial.txt" },
      files: {
        "field/sheet7.json": json([
          { latin: "Quercus robur", common: "English oak", found: "2026-05-11" },
          { latin: "Fagus sylvatica", common: "beech", found: "2026-05-12" },
          { latin: "Betula pendula", common: "silver birch", found: "2026-05-12" },
        ]),
      },
    },
    {
      say: "scientific names only of pressed/alpine.json written into pressed/alpine_sci.txt",
      args: { path: "pressed/alpine.json", out: "pressed/alpine_sci.txt" },
      files: {
        "pressed/alpine.json": json([
          { latin: "Leontopodium nivale", common: "edelweiss", found: "2026-07-20" },
          { latin: "Gentiana acaulis", common: "trumpet gentian", found: "2026-07-21" },
        ]),
      },
    },
  ],
};

const COMMON: ReuseTask = {
  name: "herbarium:write_common_names",
  intent: "write the common names of the specimens in a catalogue to a text file, one per line",
  code: String.raw`const xs = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
const body = xs.map((x) => x.common).join("\n") + "\n";
await mcp.filesystem.write_file({ path: args.out, content: body });
return xs.length;`,
  expect: (a) => specimens(a).length,
  leaves: (a) => ({ [a.args.out as string]: lines(...specimens(a).map((x) => x.common)) }),
  asks: [
    {
      say: "write the common names of the specimens in herbarium/box2.json to herbarium/box2_common.txt, one per line",
      args: { path: "herbarium/box2.json", out: "herbarium/box2_common.txt" },
      files: {
        "herbarium/box2.json": json([
          { latin: "Primula vulgaris", common: "primrose", found: "2026-03-28" },
          { latin: "Anemone nemorosa", common: "wood anemone", found: "2026-04-01" },
        ]),
      },
    },
    {
      say: "what the plants in walk/meadow.json are called day to day (not scientific), put in walk/meadow_plain.txt, each on its own row",
      args: { path: "walk/meadow.json", out: "walk/meadow_plain.txt" },
      files: {
        "walk/meadow.json": json([
          { latin: "Leucanthemum vulgare", common: "oxeye daisy", found: "2026-06-03" },
          { latin: "Centaurea cyanus", common: "cornflower", found: "2026-06-03" },
          { latin: "Papaver rhoeas", common: "corn poppy", found: "2026-06-04" },
        ]),
      },
    },
    {
      say: "vernacular names for kids/school_plants.json -> kids/school_plants_names.txt",
      args: { path: "kids/school_plants.json", out: "kids/school_plants_names.txt" },
      files: {
        "kids/school_plants.json": json([
          { latin: "Helianthus annuus", common: "sunflower", found: "2026-08-10" },
          { latin: "Lavandula angustifolia", common: "lavender", found: "2026-08-11" },
        ]),
      },
    },
  ],
};

const ALL_CHARS: ReuseTask = {
  name: "glyph:count_characters_in_caption",
  intent: "count every character of a caption, spaces and punctuation included",
  code: "return args.caption.length;",
  expect: (a) => (a.args.caption as string).length,
  asks: [
    { say: "count every character of the caption 'Sunset at the pier, 2026!' with spaces and punctuation", args: { caption: "Sunset at the pier, 2026!" } },
    { say: "insta limit check: how long is 'Best tacos in town... no joke :)' altogether?", args: { caption: "Best tacos in town... no joke :)" } },
    { say: "character count incl. blanks: 'Hello, World - v2'", args: { caption: "Hello, World - v2" } },
  ],
};

const LETTERS: ReuseTask = {
  name: "glyph:count_letters_in_caption",
  intent: "count only the letters A-Z of a caption, leaving out spaces, digits and punctuation",
  code: "return (args.caption.match(/[A-Za-z]/g) || []).length;",
  expect: (a) => ((a.args.caption as string).match(/[A-Za-z]/g) ?? []).length,
  asks: [
    { say: "count only the letters of the caption 'Morning swim, 7am!' leaving out spaces, digits and punctuation", args: { caption: "Morning swim, 7am!" } },
    { say: "how many alphabetic chars (nothing else) are in 'Q3 results: up 12%, yay'?", args: { caption: "Q3 results: up 12%, yay" } },
    { say: "letters in 'Go team - 2 goals!!' ?", args: { caption: "Go team - 2 goals!!" } },
  ],
};

const HEAVIEST: ReuseTask = {
  name: "apiary:find_heaviest_hive",
  intent: "name the hive with the largest weight in a hive scale log (hive,weight_kg)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let best = null, w = -Infinity;
for (const r of t.trim().split("\n").slice(1)) {
  const [h, kg] = r.split(",");
  if (Number(kg) > w) { w = Number(kg); best = h; }
}
return best;`,
  expect: (a) => {
    let best: string | null = null;
    let w = Number.NEGATIVE_INFINITY;
    for (const [h, kg] of rows(a))
      if (Number(kg) > w) {
        w = Number(kg);
        best = h!;
      }
    return best;
  },
  asks: [
    {
      say: "which hive has the largest weight in apiary/scale_0601.csv",
      args: { path: "apiary/scale_0601.csv" },
      files: {
        "apiary/scale_0601.csv": csv("hive,weight_kg", [
          ["H1", 41.2],
          ["H2", 47.9],
          ["H3", 39.5],
        ]),
      },
    },
    {
      say: "bees/weighin-aug.csv - heaviest hive?",
      args: { path: "bees/weighin-aug.csv" },
      files: {
        "bees/weighin-aug.csv": csv("hive,weight_kg", [
          ["Linden", 52.3],
          ["Clover", 58.1],
          ["Heather", 55.0],
          ["Acacia", 49.7],
        ]),
      },
    },
    {
      say: "which colony tipped the balance most in yard/autumn.csv? probably the one with the most stores for winter",
      args: { path: "yard/autumn.csv" },
      files: {
        "yard/autumn.csv": csv("hive,weight_kg", [
          ["North", 36.4],
          ["South", 33.8],
          ["Orchard", 44.6],
        ]),
      },
    },
  ],
};

const BY_VARIETY: ReuseTask = {
  name: "orchard:count_trees_by_variety",
  intent: "count the trees of each variety in an orchard table (tree,variety), as an object variety -> count",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = {};
for (const r of t.trim().split("\n").slice(1)) {
  const v = r.split(",")[1];
  out[v] = (out[v] || 0) + 1;
}
return out;`,
  expect: (a) => {
    const out: Record<string, number> = {};
    for (const r of rows(a)) out[r[1]!] = (out[r[1]!] ?? 0) + 1;
    return out;
  },
  asks: [
    {
      say: "count the trees of each variety in farm/orchard.csv",
      args: { path: "farm/orchard.csv" },
      files: {
        "farm/orchard.csv": csv("tree,variety", [
          ["T1", "Gala"],
          ["T2", "Bramley"],
          ["T3", "Gala"],
          ["T4", "Cox"],
          ["T5", "Gala"],
        ]),
      },
    },
    {
      say: "how many of every cultivar are planted per plot2/planting.csv?",
      args: { path: "plot2/planting.csv" },
      files: {
        "plot2/planting.csv": csv("tree,variety", [
          ["A1", "Conference"],
          ["A2", "Comice"],
          ["A3", "Conference"],
          ["A4", "Conference"],
        ]),
      },
    },
    {
      say: "tally per variety for community/trees.csv pls",
      args: { path: "community/trees.csv" },
      files: {
        "community/trees.csv": csv("tree,variety", [
          ["1", "Victoria"],
          ["2", "Morello"],
          ["3", "Morello"],
          ["4", "Victoria"],
          ["5", "Stella"],
        ]),
      },
    },
  ],
};

const LOFT: ReuseTask = {
  name: "dovecote:write_sorted_bird_names",
  intent: "write the bird names of a loft roster file, deduplicated and sorted A-Z, to another file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ns = [...new Set(t.split("\n").map((l) => l.trim()).filter(Boolean))].sort();
await mcp.filesystem.write_file({ path: args.out, content: ns.join("\n") + "\n" });
return ns.length;`,
  expect: (a) => new Set(items(a)).size,
  leaves: (a) => ({ [a.args.out as string]: lines(...[...new Set(items(a))].sort()) }),
  asks: [
    {
      say: "write the bird names of loft/roster.txt, deduplicated and sorted A-Z, to loft/roster_sorted.txt",
      args: { path: "loft/roster.txt", out: "loft/roster_sorted.txt" },
      files: { "loft/roster.txt": lines("Pip", "Biscuit", "Pip", "Ash") },
    },
    {
      say: "pigeons/race_team.txt has repeats — alphabetise the unique ones into pigeons/race_team_clean.txt",
      args: { path: "pigeons/race_team.txt", out: "pigeons/race_team_clean.txt" },
      files: { "pigeons/race_team.txt": lines("Storm", "Comet", "Blue Bar", "Comet", "Storm", "Arrow") },
    },
    {
      say: "sorted unique names from coop/doves.txt into coop/doves_az.txt",
      args: { path: "coop/doves.txt", out: "coop/doves_az.txt" },
      files: { "coop/doves.txt": lines("Snow", "Pearl", "Snow", "Dusk") },
    },
  ],
};

const KNIT: ReuseTask = {
  name: "knitting:expand_stitch_pattern",
  intent: "expand a knitting stitch pattern like 'k2 p3' into one capital letter per stitch (KKPPP)",
  code: String.raw`let out = "";
for (const tok of args.pattern.trim().split(/\s+/)) {
  const m = tok.match(/^([a-z]+)(\d+)$/i);
  if (m) out += m[1].toUpperCase().repeat(Number(m[2]));
}
return out;`,
  expect: (a) =>
    (a.args.pattern as string)
      .trim()
      .split(/\s+/)
      .map((t) => /^([a-z]+)(\d+)$/i.exec(t))
      .map((m) => (m ? m[1]!.toUpperCase().repeat(Number(m[2])) : ""))
      .join(""),
  asks: [
    { say: "expand the knitting stitch pattern 'k2 p3 k1' into one capital letter per stitch", args: { pattern: "k2 p3 k1" } },
    { say: "spell out row 4 of my rib, 'k1 p1 k1 p1 k3', as single chars", args: { pattern: "k1 p1 k1 p1 k3" } },
    { say: "write 'p4 k2 p4' long-hand, a letter for each loop on the needle", args: { pattern: "p4 k2 p4" } },
  ],
};

export const BLIND_27_TASKS: ReuseTask[] = [
  ROW_KM,
  ROW_MILES,
  TIDE_AT_OR_ABOVE,
  TIDE_ABOVE,
  MEAN_TRACK,
  MEDIAN_TRACK,
  CHECKBOXES,
  NUMBERED,
  ROT_LEFT,
  ROT_RIGHT,
  EARLIEST,
  LATEST,
  LATIN,
  COMMON,
  ALL_CHARS,
  LETTERS,
  HEAVIEST,
  BY_VARIETY,
  LOFT,
  KNIT,
];
