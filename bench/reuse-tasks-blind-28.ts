// The 28th blind reuse stream (`--tasks blind28`), written blind on 2026-12-08 by someone who saw
// only the format (bench/reuse-tasks.ts's types, helpers and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60
// requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names
// and kinds (heaviest vs lightest row, peak vs final reading, count vs list of misses, a total in
// seconds vs formatted m:ss, delivered vs not delivered, climb vs descent, one field vs another of
// the oldest row, next departure after vs last before a time) and 4 single tasks. The repeats are
// worded as different users on different days would ask (terse, chatty, a file name, jargon, typos,
// a non-native speaker); one repeat of each task shares a content word with its intent, the other
// shares none.
import { type Ask, csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
/** The rows of the CSV file an ask names in `path`, as objects keyed by the header. */
const rows = (a: Ask) => {
  const [head, ...rest] = input(a)
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  return rest.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ""])) as Record<string, string>);
};
const numbers = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map(Number);

// 1-2: the heaviest vs the lightest hive.
const hives = (a: Ask) => rows(a).map((r) => ({ hive: r.hive!, kg: Number(r.weight_kg) }));
const HEAVIEST_HIVE: ReuseTask = {
  name: "beeyard:find_heaviest_hive",
  intent: "find the hive with the highest weight in a hive inspection CSV",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.trim().split("\n").map((l) => l.split(","));
const i = ls[0].indexOf("weight_kg"), h = ls[0].indexOf("hive");
let best = null;
for (const r of ls.slice(1)) if (best === null || Number(r[i]) > Number(best[i])) best = r;
return best ? best[h] : null;`,
  expect: (a) => hives(a).reduce((b, r) => (r.kg > b.kg ? r : b)).hive,
  asks: [
    {
      say: "find the hive with the highest weight in apiary/june.csv",
      args: { path: "apiary/june.csv" },
      files: {
        "apiary/june.csv": csv("hive,brood_frames,weight_kg", [
          ["H1", 6, 38.5],
          ["H2", 8, 44.1],
          ["H3", 4, 29.7],
          ["H4", 7, 41.0],
        ]),
      },
    },
    {
      say: "heaviest hive in yard2/inspect.csv?",
      args: { path: "yard2/inspect.csv" },
      files: {
        "yard2/inspect.csv": csv("hive,brood_frames,weight_kg", [
          ["Linden", 5, 33.2],
          ["Acacia", 9, 52.8],
          ["Heather", 3, 21.4],
        ]),
      },
    },
    {
      say: "bees/sept_check.txt, which colony is the fattest one kg-wise?",
      args: { path: "bees/sept_check.txt" },
      files: {
        "bees/sept_check.txt": csv("hive,brood_frames,weight_kg", [
          ["B-01", 2, 24.9],
          ["B-02", 4, 31.6],
          ["B-03", 6, 47.3],
          ["B-04", 1, 18.2],
          ["B-05", 5, 36.0],
        ]),
      },
    },
  ],
};
const LIGHTEST_HIVE: ReuseTask = {
  name: "beeyard:find_lightest_hive",
  intent: "find the hive with the lowest weight in a hive inspection CSV",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.trim().split("\n").map((l) => l.split(","));
const i = ls[0].indexOf("weight_kg"), h = ls[0].indexOf("hive");
let best = null;
for (const r of ls.slice(1)) if (best === null || Number(r[i]) < Number(best[i])) best = r;
return best ? best[h] : null;`,
  expect: (a) => hives(a).reduce((b, r) => (r.kg < b.kg ? r : b)).hive,
  asks: [
    {
      say: "find the hive with the lowest weight in apiary/may.csv",
      args: { path: "apiary/may.csv" },
      files: {
        "apiary/may.csv": csv("hive,brood_frames,weight_kg", [
          ["H1", 5, 35.0],
          ["H2", 7, 40.2],
          ["H3", 3, 26.9],
          ["H4", 6, 37.7],
        ]),
      },
    },
    {
      say: "lightest hive in north/inspection.csv pls",
      args: { path: "north/inspection.csv" },
      files: {
        "north/inspection.csv": csv("hive,brood_frames,weight_kg", [
          ["Oak", 8, 49.5],
          ["Elm", 2, 19.8],
          ["Ash", 5, 30.3],
        ]),
      },
    },
    {
      say: "which colony might be starving? smallest kg on bees/oct_check.txt",
      args: { path: "bees/oct_check.txt" },
      files: {
        "bees/oct_check.txt": csv("hive,brood_frames,weight_kg", [
          ["B-01", 3, 27.4],
          ["B-02", 1, 15.6],
          ["B-03", 6, 44.9],
          ["B-04", 2, 22.0],
        ]),
      },
    },
  ],
};

// 3-4: the peak vs the final reading of a firing.
const temps = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => Number(l.trim().split(/\s+/)[1]));
const PEAK_TEMP: ReuseTask = {
  name: "kiln:get_peak_firing_temp",
  intent: "get the peak temperature from a kiln firing log",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const v = t.split("\n").filter((l) => l.trim() !== "").map((l) => Number(l.trim().split(/\s+/)[1]));
return Math.max(...v);`,
  expect: (a) => Math.max(...temps(a)),
  asks: [
    {
      say: "get the peak temperature from kiln/bisque_0412.log",
      args: { path: "kiln/bisque_0412.log" },
      files: { "kiln/bisque_0412.log": lines("08:00 25", "10:00 310", "12:00 640", "14:00 955", "15:30 1000", "17:00 720", "19:00 410") },
    },
    {
      say: "what was the peak in firings/glaze_run.log",
      args: { path: "firings/glaze_run.log" },
      files: { "firings/glaze_run.log": lines("06:00 30", "09:00 480", "12:00 1010", "13:30 1222", "15:00 1180", "18:00 690") },
    },
    {
      say: "hottest reading, studio/cone6.txt",
      args: { path: "studio/cone6.txt" },
      files: { "studio/cone6.txt": lines("07:15 22", "09:15 350", "11:15 820", "12:45 1186", "13:15 1204", "16:00 860", "20:00 300") },
    },
  ],
};
const FINAL_TEMP: ReuseTask = {
  name: "kiln:get_final_firing_temp",
  intent: "get the last recorded temperature from a kiln firing log",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const v = t.split("\n").filter((l) => l.trim() !== "").map((l) => Number(l.trim().split(/\s+/)[1]));
return v.length ? v[v.length - 1] : null;`,
  expect: (a) => temps(a).at(-1),
  asks: [
    {
      say: "get the last recorded temperature from kiln/raku_0501.log",
      args: { path: "kiln/raku_0501.log" },
      files: { "kiln/raku_0501.log": lines("09:00 20", "09:40 400", "10:20 780", "10:50 960", "11:30 540", "12:10 260") },
    },
    {
      say: "final temperature in firings/cone10.log when it stopped logging?",
      args: { path: "firings/cone10.log" },
      files: { "firings/cone10.log": lines("05:00 18", "08:00 520", "11:00 1050", "13:00 1290", "16:00 1100", "21:00 615") },
    },
    {
      say: "where did studio/overnight.txt end up degrees-wise, at the bottom line?",
      args: { path: "studio/overnight.txt" },
      files: { "studio/overnight.txt": lines("18:00 24", "20:00 410", "22:00 890", "00:00 1160", "02:00 940", "04:00 530", "06:00 188") },
    },
  ],
};

// 5-6: how many answers were right vs which questions were wrong.
const sheet = (a: Ask) => JSON.parse(input(a)) as { key: string[]; answers: string[] };
const CORRECT_COUNT: ReuseTask = {
  name: "quiz:count_correct_answers",
  intent: "count the correct answers on a quiz answer sheet",
  code: String.raw`const s = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
let n = 0;
for (let i = 0; i < s.key.length; i++) if (s.answers[i] === s.key[i]) n++;
return n;`,
  expect: (a) => {
    const s = sheet(a);
    return s.key.filter((k, i) => s.answers[i] === k).length;
  },
  asks: [
    {
      say: "count the correct answers on quiz/week3.json",
      args: { path: "quiz/week3.json" },
      files: { "quiz/week3.json": json({ key: ["B", "A", "D", "C", "A", "B"], answers: ["B", "C", "D", "C", "B", "B"] }) },
    },
    {
      say: "number of correct ones in tests/lea.json",
      args: { path: "tests/lea.json" },
      files: { "tests/lea.json": json({ key: ["A", "A", "C", "D", "B", "C", "D", "A"], answers: ["A", "B", "C", "D", "B", "A", "D", "A"] }) },
    },
    {
      say: "whats Tomás score, how many he nailed? marks/tomas.json",
      args: { path: "marks/tomas.json" },
      files: { "marks/tomas.json": json({ key: ["D", "B", "B", "A", "C"], answers: ["D", "A", "B", "C", "C"] }) },
    },
  ],
};
const WRONG_LIST: ReuseTask = {
  name: "quiz:list_wrong_question_numbers",
  intent: "list the question numbers answered wrong on a quiz answer sheet",
  code: String.raw`const s = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
const out = [];
for (let i = 0; i < s.key.length; i++) if (s.answers[i] !== s.key[i]) out.push(i + 1);
return out;`,
  expect: (a) => {
    const s = sheet(a);
    return s.key.flatMap((k, i) => (s.answers[i] === k ? [] : [i + 1]));
  },
  asks: [
    {
      say: "list the question numbers answered wrong on quiz/week4.json",
      args: { path: "quiz/week4.json" },
      files: { "quiz/week4.json": json({ key: ["C", "C", "A", "B", "D", "A"], answers: ["C", "B", "A", "B", "A", "A"] }) },
    },
    {
      say: "which question nos did Sam get wrong in tests/sam.json",
      args: { path: "tests/sam.json" },
      files: { "tests/sam.json": json({ key: ["B", "D", "A", "A", "C", "B", "D"], answers: ["A", "D", "A", "C", "C", "B", "B"] }) },
    },
    {
      say: "marks/ines.json: mistakes at what item positions pls",
      args: { path: "marks/ines.json" },
      files: { "marks/ines.json": json({ key: ["A", "B", "C", "D", "A", "B", "C", "D"], answers: ["A", "B", "D", "D", "A", "C", "C", "A"] }) },
    },
  ],
};

// 7-8: a tracklist's total as seconds vs as m:ss.
const trackSeconds = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => /(\d+):(\d{2})\s*$/.exec(l))
    .reduce((s, m) => s + (m ? Number(m[1]) * 60 + Number(m[2]) : 0), 0);
const TRACK_SECONDS: ReuseTask = {
  name: "vinyl:sum_track_seconds",
  intent: "sum the track lengths of a tracklist in seconds",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let s = 0;
for (const l of t.split("\n")) { const m = /(\d+):(\d{2})\s*$/.exec(l); if (m) s += Number(m[1]) * 60 + Number(m[2]); }
return s;`,
  expect: trackSeconds,
  asks: [
    {
      say: "sum the track lengths of records/side_a.txt in seconds",
      args: { path: "records/side_a.txt" },
      files: { "records/side_a.txt": lines("Morning Tide - 4:12", "Salt Road - 3:48", "Low Lantern - 5:05", "Copper Sky - 2:59") },
    },
    {
      say: "total seconds for records/blue_train.txt?",
      args: { path: "records/blue_train.txt" },
      files: { "records/blue_train.txt": lines("Blue Train - 10:43", "Moment's Notice - 9:10", "Locomotion - 7:14", "I'm Old Fashioned - 7:58", "Lazy Bird - 7:00") },
    },
    {
      say: "playing time of mixtape/road.txt, give me a plain integer (no colon)",
      args: { path: "mixtape/road.txt" },
      files: { "mixtape/road.txt": lines("Highway Song - 3:31", "Dust - 2:47", "Night Drive - 4:56") },
    },
  ],
};
const mss = (t: number) => `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
const RUNTIME_MSS: ReuseTask = {
  name: "vinyl:format_side_runtime",
  intent: "format the total runtime of a tracklist as minutes and seconds",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let s = 0;
for (const l of t.split("\n")) { const m = /(\d+):(\d{2})\s*$/.exec(l); if (m) s += Number(m[1]) * 60 + Number(m[2]); }
return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");`,
  expect: (a) => mss(trackSeconds(a)),
  asks: [
    {
      say: "format the total runtime of records/side_b.txt as minutes and seconds",
      args: { path: "records/side_b.txt" },
      files: { "records/side_b.txt": lines("Harbour Lights - 3:27", "Fold - 4:44", "Willow - 6:02", "Ember Street - 3:15") },
    },
    {
      say: "runtime of records/kind_of_blue.txt as mm:ss",
      args: { path: "records/kind_of_blue.txt" },
      files: { "records/kind_of_blue.txt": lines("So What - 9:22", "Freddie Freeloader - 9:46", "Blue in Green - 5:37", "All Blues - 11:33", "Flamenco Sketches - 9:26") },
    },
    {
      say: "how long is mixtape/summer.txt? like 41:07 style",
      args: { path: "mixtape/summer.txt" },
      files: { "mixtape/summer.txt": lines("Sunburn - 3:09", "Lemonade - 2:58", "Pool Party - 4:21", "Late Bus - 3:40") },
    },
  ],
};

// 9-10: the parcels not delivered vs the delivered ones.
const parcels = (a: Ask) => JSON.parse(input(a)) as { id: string; status: string }[];
const UNDELIVERED: ReuseTask = {
  name: "parcel:list_undelivered_parcel_ids",
  intent: "list the ids of parcels not yet delivered in a shipment file",
  code: String.raw`const p = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return p.filter((x) => x.status !== "delivered").map((x) => x.id);`,
  expect: (a) => parcels(a).flatMap((p) => (p.status === "delivered" ? [] : [p.id])),
  asks: [
    {
      say: "list the ids of parcels not yet delivered in shipping/monday.json",
      args: { path: "shipping/monday.json" },
      files: {
        "shipping/monday.json": json([
          { id: "PX-101", status: "delivered" },
          { id: "PX-102", status: "in_transit" },
          { id: "PX-103", status: "delivered" },
          { id: "PX-104", status: "out_for_delivery" },
        ]),
      },
    },
    {
      say: "which parcels are still out? shipping/tue.json",
      args: { path: "shipping/tue.json" },
      files: {
        "shipping/tue.json": json([
          { id: "QZ-7", status: "in_transit" },
          { id: "QZ-8", status: "delivered" },
          { id: "QZ-9", status: "in_transit" },
        ]),
      },
    },
    {
      say: "orders/batch7.json - what's still on the road or bounced back? tracking codes only",
      args: { path: "orders/batch7.json" },
      files: {
        "orders/batch7.json": json([
          { id: "B7-01", status: "returned" },
          { id: "B7-02", status: "delivered" },
          { id: "B7-03", status: "delivered" },
          { id: "B7-04", status: "out_for_delivery" },
          { id: "B7-05", status: "delivered" },
        ]),
      },
    },
  ],
};
const DELIVERED: ReuseTask = {
  name: "parcel:list_delivered_parcel_ids",
  intent: "list the ids of parcels marked delivered in a shipment file",
  code: String.raw`const p = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return p.filter((x) => x.status === "delivered").map((x) => x.id);`,
  expect: (a) => parcels(a).flatMap((p) => (p.status === "delivered" ? [p.id] : [])),
  asks: [
    {
      say: "list the ids of parcels marked delivered in shipping/friday.json",
      args: { path: "shipping/friday.json" },
      files: {
        "shipping/friday.json": json([
          { id: "FR-11", status: "in_transit" },
          { id: "FR-12", status: "delivered" },
          { id: "FR-13", status: "delivered" },
          { id: "FR-14", status: "returned" },
        ]),
      },
    },
    {
      say: "delivered ones in shipping/wed.json, ids",
      args: { path: "shipping/wed.json" },
      files: {
        "shipping/wed.json": json([
          { id: "W-300", status: "delivered" },
          { id: "W-301", status: "out_for_delivery" },
          { id: "W-302", status: "in_transit" },
        ]),
      },
    },
    {
      say: "orders/batch9.json: what arrived at the door already? just the codes",
      args: { path: "orders/batch9.json" },
      files: {
        "orders/batch9.json": json([
          { id: "B9-01", status: "delivered" },
          { id: "B9-02", status: "delivered" },
          { id: "B9-03", status: "in_transit" },
          { id: "B9-04", status: "delivered" },
          { id: "B9-05", status: "returned" },
        ]),
      },
    },
  ],
};

// 11-12: metres climbed vs metres descended.
const diffs = (a: Ask) => {
  const v = numbers(a);
  return v.slice(1).map((x, i) => x - v[i]!);
};
const CLIMB: ReuseTask = {
  name: "velo:sum_ride_climb_metres",
  intent: "sum the elevation gained over a ride's elevation profile",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const v = t.split("\n").filter((l) => l.trim() !== "").map(Number);
let up = 0;
for (let i = 1; i < v.length; i++) if (v[i] > v[i - 1]) up += v[i] - v[i - 1];
return up;`,
  expect: (a) => diffs(a).reduce((s, d) => s + Math.max(d, 0), 0),
  asks: [
    {
      say: "sum the elevation gained over rides/alpe.txt",
      args: { path: "rides/alpe.txt" },
      files: { "rides/alpe.txt": lines("720", "850", "1010", "980", "1240", "1515", "1490", "1850") },
    },
    {
      say: "total elevation gain for rides/sunday_loop.txt",
      args: { path: "rides/sunday_loop.txt" },
      files: { "rides/sunday_loop.txt": lines("120", "145", "210", "180", "95", "130", "160", "110") },
    },
    {
      say: "how much up did I do on gpx/commute_0611.txt (metres of ascent)",
      args: { path: "gpx/commute_0611.txt" },
      files: { "gpx/commute_0611.txt": lines("40", "62", "58", "71", "30", "25", "44") },
    },
  ],
};
const DESCENT: ReuseTask = {
  name: "velo:sum_ride_descent_metres",
  intent: "sum the elevation lost over a ride's elevation profile",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const v = t.split("\n").filter((l) => l.trim() !== "").map(Number);
let down = 0;
for (let i = 1; i < v.length; i++) if (v[i] < v[i - 1]) down += v[i - 1] - v[i];
return down;`,
  expect: (a) => diffs(a).reduce((s, d) => s + Math.max(-d, 0), 0),
  asks: [
    {
      say: "sum the elevation lost over rides/stelvio.txt",
      args: { path: "rides/stelvio.txt" },
      files: { "rides/stelvio.txt": lines("2750", "2600", "2310", "2350", "1900", "1550", "1600", "1210") },
    },
    {
      say: "how much elevation did I drop on rides/gravel.txt",
      args: { path: "rides/gravel.txt" },
      files: { "rides/gravel.txt": lines("300", "340", "290", "410", "380", "260", "275") },
    },
    {
      say: "downhill metres total gpx/evening_0612.txt",
      args: { path: "gpx/evening_0612.txt" },
      files: { "gpx/evening_0612.txt": lines("88", "120", "76", "54", "97", "61") },
    },
  ],
};

// 13-14: the oldest roast's origin vs its batch id.
const oldestRoast = (a: Ask) => rows(a).reduce((b, r) => (r.roast_date! < b.roast_date! ? r : b));
const OLDEST_ORIGIN: ReuseTask = {
  name: "roastery:get_oldest_batch_origin",
  intent: "get the origin of the oldest roasted batch in a coffee roast log",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.trim().split("\n").map((l) => l.split(","));
const d = ls[0].indexOf("roast_date"), o = ls[0].indexOf("origin");
let best = null;
for (const r of ls.slice(1)) if (best === null || r[d] < best[d]) best = r;
return best ? best[o] : null;`,
  expect: (a) => oldestRoast(a).origin,
  asks: [
    {
      say: "get the origin of the oldest roasted batch in roastery/log.csv",
      args: { path: "roastery/log.csv" },
      files: {
        "roastery/log.csv": csv("batch,origin,roast_date,weight_g", [
          ["R-221", "Ethiopia", "2026-11-20", 1000],
          ["R-219", "Colombia", "2026-11-14", 750],
          ["R-223", "Kenya", "2026-11-27", 500],
        ]),
      },
    },
    {
      say: "origin of the oldest batch, beans/march.csv",
      args: { path: "beans/march.csv" },
      files: {
        "beans/march.csv": csv("batch,origin,roast_date,weight_g", [
          ["M-07", "Brazil", "2026-03-12", 1200],
          ["M-05", "Guatemala", "2026-03-02", 900],
          ["M-09", "Rwanda", "2026-03-19", 600],
          ["M-06", "Peru", "2026-03-08", 800],
        ]),
      },
    },
    {
      say: "stock/pantry.txt: the stalest sack comes from which country?",
      args: { path: "stock/pantry.txt" },
      files: {
        "stock/pantry.txt": csv("batch,origin,roast_date,weight_g", [
          ["P-31", "Sumatra", "2026-10-30", 400],
          ["P-28", "Honduras", "2026-10-11", 1000],
          ["P-33", "Yemen", "2026-11-04", 250],
        ]),
      },
    },
  ],
};
const OLDEST_ID: ReuseTask = {
  name: "roastery:get_oldest_roast_batch_id",
  intent: "get the batch id of the oldest roast in a coffee roast log",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.trim().split("\n").map((l) => l.split(","));
const d = ls[0].indexOf("roast_date"), b = ls[0].indexOf("batch");
let best = null;
for (const r of ls.slice(1)) if (best === null || r[d] < best[d]) best = r;
return best ? best[b] : null;`,
  expect: (a) => oldestRoast(a).batch,
  asks: [
    {
      say: "get the batch id of the oldest roast in roastery/april.csv",
      args: { path: "roastery/april.csv" },
      files: {
        "roastery/april.csv": csv("batch,origin,roast_date,weight_g", [
          ["A-14", "Costa Rica", "2026-04-16", 700],
          ["A-11", "Uganda", "2026-04-03", 1100],
          ["A-15", "Panama", "2026-04-21", 350],
        ]),
      },
    },
    {
      say: "oldest roast id in beans/may.csv?",
      args: { path: "beans/may.csv" },
      files: {
        "beans/may.csv": csv("batch,origin,roast_date,weight_g", [
          ["Y-40", "Burundi", "2026-05-18", 500],
          ["Y-38", "Mexico", "2026-05-25", 900],
          ["Y-36", "Nicaragua", "2026-05-09", 1000],
        ]),
      },
    },
    {
      say: "stock/shelf.txt - code of the stalest sack, I'll use it up first",
      args: { path: "stock/shelf.txt" },
      files: {
        "stock/shelf.txt": csv("batch,origin,roast_date,weight_g", [
          ["S-02", "Tanzania", "2026-09-22", 600],
          ["S-01", "India", "2026-09-01", 800],
          ["S-03", "Bolivia", "2026-09-30", 450],
          ["S-04", "Laos", "2026-09-14", 300],
        ]),
      },
    },
  ],
};

// 15-16: the next departure after a time vs the last one before it.
const departures = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => l.trim().split(/\s+/)[0]!)
    .sort();
const NEXT_FERRY: ReuseTask = {
  name: "ferry:find_next_departure_after",
  intent: "find the next ferry departure after a given time in a timetable",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ts = t.split("\n").filter((l) => l.trim() !== "").map((l) => l.trim().split(/\s+/)[0]).sort();
for (const x of ts) if (x > args.at) return x;
return null;`,
  expect: (a) => departures(a).find((x) => x > (a.args.at as string)) ?? null,
  asks: [
    {
      say: "find the next ferry departure after 10:15 in ferry/harbour.txt",
      args: { path: "ferry/harbour.txt", at: "10:15" },
      files: { "ferry/harbour.txt": lines("07:30 Isle Mor", "13:00 Isle Mor", "09:45 Kestrel Point", "11:20 Isle Mor", "16:10 Kestrel Point") },
    },
    {
      say: "next boat after 13:40? ferry/island_line.txt",
      args: { path: "ferry/island_line.txt", at: "13:40" },
      files: { "ferry/island_line.txt": lines("15:05 Brannock", "12:50 Brannock", "14:20 Little Holm", "18:00 Brannock", "08:15 Little Holm") },
    },
    {
      say: "I land at the pier at 16:05, what is the soonest sailing I can catch, sched/north.txt",
      args: { path: "sched/north.txt", at: "16:05" },
      files: { "sched/north.txt": lines("06:40 Skerry", "17:25 Skerry", "10:30 Fair Sound", "16:50 Fair Sound", "14:00 Skerry", "20:15 Fair Sound") },
    },
  ],
};
const PREV_FERRY: ReuseTask = {
  name: "ferry:find_last_departure_before",
  intent: "find the last ferry departure before a given time in a timetable",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ts = t.split("\n").filter((l) => l.trim() !== "").map((l) => l.trim().split(/\s+/)[0]).sort();
let best = null;
for (const x of ts) if (x < args.at) best = x;
return best;`,
  expect: (a) =>
    departures(a)
      .filter((x) => x < (a.args.at as string))
      .at(-1) ?? null,
  asks: [
    {
      say: "find the last ferry departure before 11:30 in ferry/bay.txt",
      args: { path: "ferry/bay.txt", at: "11:30" },
      files: { "ferry/bay.txt": lines("12:15 Gull Rock", "08:00 Gull Rock", "10:40 Seal Cove", "14:30 Seal Cove", "09:20 Gull Rock") },
    },
    {
      say: "which ferry left just before 09:50, ferry/cove.txt",
      args: { path: "ferry/cove.txt", at: "09:50" },
      files: { "ferry/cove.txt": lines("07:10 Otter Bay", "10:05 Otter Bay", "09:35 Pine Isle", "11:45 Pine Isle", "08:25 Otter Bay") },
    },
    {
      say: "missed it... at 18:20 which sailing had I just missed, sched/south.txt?",
      args: { path: "sched/south.txt", at: "18:20" },
      files: { "sched/south.txt": lines("19:00 Tern Island", "15:45 Tern Island", "17:55 Heron Quay", "21:10 Heron Quay", "12:30 Tern Island") },
    },
  ],
};

// 17-20: single tasks.
const AVG_PH: ReuseTask = {
  name: "aquarium:average_water_ph",
  intent: "average the pH readings of an aquarium water log",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.trim().split("\n").map((l) => l.split(","));
const i = ls[0].indexOf("ph");
const v = ls.slice(1).map((r) => Number(r[i]));
return Math.round((v.reduce((s, x) => s + x, 0) / v.length) * 100) / 100;`,
  expect: (a) => {
    const v = rows(a).map((r) => Number(r.ph));
    return round2(v.reduce((s, x) => s + x, 0) / v.length);
  },
  asks: [
    {
      say: "average the pH readings in aquarium/reef.csv",
      args: { path: "aquarium/reef.csv" },
      files: {
        "aquarium/reef.csv": csv("date,tank,ph", [
          ["2026-11-01", "reef", 8.1],
          ["2026-11-08", "reef", 8.3],
          ["2026-11-15", "reef", 8.0],
          ["2026-11-22", "reef", 8.2],
        ]),
      },
    },
    {
      say: "mean pH in tanks/cichlid.csv",
      args: { path: "tanks/cichlid.csv" },
      files: {
        "tanks/cichlid.csv": csv("date,tank,ph", [
          ["2026-10-03", "T2", 7.8],
          ["2026-10-10", "T2", 8.1],
          ["2026-10-17", "T2", 7.9],
        ]),
      },
    },
    {
      say: "how acidic is fishroom/planted.txt on the whole, typical value across all rows",
      args: { path: "fishroom/planted.txt" },
      files: {
        "fishroom/planted.txt": csv("date,tank,ph", [
          ["2026-09-05", "P1", 6.6],
          ["2026-09-12", "P1", 6.9],
          ["2026-09-19", "P1", 6.4],
          ["2026-09-26", "P1", 6.7],
          ["2026-10-03", "P1", 6.8],
        ]),
      },
    },
  ],
};

const labelText = (a: Ask) => lines(...(JSON.parse(input(a)) as { genus: string; species: string; site: string }[]).map((s) => `${s.genus} ${s.species} (${s.site})`));
const SPECIMEN_LABELS: ReuseTask = {
  name: "herbarium:write_specimen_labels",
  intent: "write specimen labels from a herbarium JSON list to a text file, one per line",
  code: String.raw`const s = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
const content = s.map((x) => x.genus + " " + x.species + " (" + x.site + ")").join("\n") + "\n";
await mcp.filesystem.write_file({ path: args.out, content });
return s.length;`,
  expect: (a) => (JSON.parse(input(a)) as unknown[]).length,
  leaves: (a) => ({ [a.args.out as string]: labelText(a) }),
  asks: [
    {
      say: "write specimen labels from herbarium/box1.json to herbarium/box1_labels.txt",
      args: { path: "herbarium/box1.json", out: "herbarium/box1_labels.txt" },
      files: {
        "herbarium/box1.json": json([
          { genus: "Quercus", species: "robur", site: "Wytham Wood" },
          { genus: "Primula", species: "vulgaris", site: "Hedge bank, lane 4" },
          { genus: "Digitalis", species: "purpurea", site: "Quarry edge" },
        ]),
      },
    },
    {
      say: "labels for herbarium/ferns.json into print/ferns.txt please",
      args: { path: "herbarium/ferns.json", out: "print/ferns.txt" },
      files: {
        "herbarium/ferns.json": json([
          { genus: "Asplenium", species: "scolopendrium", site: "Old well" },
          { genus: "Polypodium", species: "vulgare", site: "Stone wall" },
        ]),
      },
    },
    {
      say: "make the sheet tags for collections/moss.dat and save them as print/moss.txt",
      args: { path: "collections/moss.dat", out: "print/moss.txt" },
      files: {
        "collections/moss.dat": json([
          { genus: "Sphagnum", species: "palustre", site: "Bog pool" },
          { genus: "Polytrichum", species: "commune", site: "Heath track" },
          { genus: "Hypnum", species: "cupressiforme", site: "Birch trunk" },
          { genus: "Bryum", species: "argenteum", site: "Car park" },
        ]),
      },
    },
  ],
};

const durationSeconds = (t: string) => {
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1 };
  return [...t.matchAll(/(\d+)\s*([hms])/g)].reduce((s, m) => s + Number(m[1]) * unit[m[2]!]!, 0);
};
const DURATION: ReuseTask = {
  name: "sundial:convert_duration_to_seconds",
  intent: "convert a duration like 1h 20m 5s to seconds",
  code: String.raw`const unit = { h: 3600, m: 60, s: 1 };
let s = 0;
const re = /(\d+)\s*([hms])/g;
let m;
while ((m = re.exec(args.text)) !== null) s += Number(m[1]) * unit[m[2]];
return s;`,
  expect: (a) => durationSeconds(a.args.text as string),
  asks: [
    { say: "convert the duration 1h 20m 5s to seconds", args: { text: "1h 20m 5s" } },
    { say: "2h 45s in seconds?", args: { text: "2h 45s" } },
    { say: "how much secs make 3h 7m, plz", args: { text: "3h 7m" } },
  ],
};

const countByCountry = (a: Ask) => {
  const out: Record<string, number> = {};
  for (const r of rows(a)) out[r.country!] = (out[r.country!] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
};
const STAMPS: ReuseTask = {
  name: "philately:count_stamps_by_country",
  intent: "count the stamps per country in a stamp collection CSV",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.trim().split("\n").map((l) => l.split(","));
const c = ls[0].indexOf("country");
const out = {};
for (const r of ls.slice(1)) out[r[c]] = (out[r[c]] || 0) + 1;
const sorted = {};
for (const k of Object.keys(out).sort()) sorted[k] = out[k];
return sorted;`,
  expect: countByCountry,
  asks: [
    {
      say: "count the stamps per country in philately/album.csv",
      args: { path: "philately/album.csv" },
      files: {
        "philately/album.csv": csv("id,country,year", [
          [1, "Norway", 1955],
          [2, "Chile", 1972],
          [3, "Norway", 1961],
          [4, "Japan", 1980],
          [5, "Chile", 1969],
        ]),
      },
    },
    {
      say: "stamps by country, albums/2nd.csv",
      args: { path: "albums/2nd.csv" },
      files: {
        "albums/2nd.csv": csv("id,country,year", [
          [10, "Iceland", 1944],
          [11, "Iceland", 1950],
          [12, "Peru", 1938],
          [13, "Iceland", 1962],
        ]),
      },
    },
    {
      say: "tally up pages/old_book.txt by nation",
      args: { path: "pages/old_book.txt" },
      files: {
        "pages/old_book.txt": csv("id,country,year", [
          [20, "Malta", 1922],
          [21, "Egypt", 1933],
          [22, "Malta", 1948],
          [23, "Ghana", 1957],
          [24, "Egypt", 1946],
          [25, "Malta", 1960],
        ]),
      },
    },
  ],
};

export const BLIND_28_TASKS: ReuseTask[] = [
  HEAVIEST_HIVE,
  LIGHTEST_HIVE,
  PEAK_TEMP,
  FINAL_TEMP,
  CORRECT_COUNT,
  WRONG_LIST,
  TRACK_SECONDS,
  RUNTIME_MSS,
  UNDELIVERED,
  DELIVERED,
  CLIMB,
  DESCENT,
  OLDEST_ORIGIN,
  OLDEST_ID,
  NEXT_FERRY,
  PREV_FERRY,
  AVG_PH,
  SPECIMEN_LABELS,
  DURATION,
  STAMPS,
];
