// The task stream of bench/reuse.ts, written before the bench and apart from pml's ranking: for
// each distinct task, the capability name and intent an agent gives when it first solves it, the
// code it writes (run through `execute`, inputs from `args`), the critic (the right answer for the
// inputs) and the requests: the first one, then 2-5 repeats in other words, with other inputs.
// The repeats were written as a user would ask, avoiding the intent's words on purpose. Near-twins
// (lines vs CSV rows, a JSON field vs its keys, a file's words vs a text's words, °C vs °F) are
// there so that a wrong reuse can happen. Everything runs offline on pml's built-in filesystem tools.

export interface Ask {
  /** The request, in the user's words. */
  say: string;
  /** The task's inputs, named as the parameters the capability was saved with. */
  args: Record<string, unknown>;
  /** Files the workspace holds before the request (path relative to the workspace → content). */
  files?: Record<string, string>;
}

export interface ReuseTask {
  name: string;
  intent: string;
  /** The body of the async function `execute` runs, with `args` and `mcp` in scope. */
  code: string;
  /** The critic: the value a right answer returns for these inputs. */
  expect(ask: Ask): unknown;
  /** Files a right answer leaves in the workspace (tasks that write). */
  leaves?(ask: Ask): Record<string, string>;
  /** [0]: the first time the task comes up; the rest: its repeats. */
  asks: Ask[];
}

export const lines = (...ls: string[]) => `${ls.join("\n")}\n`;
export const csv = (head: string, rows: (string | number)[][]) => lines(head, ...rows.map((r) => r.join(",")));
/** The content of the file an ask names in `key`. */
export const input = (ask: Ask, key = "path") => ask.files?.[ask.args[key] as string] ?? "";
export const round2 = (x: number) => Math.round(x * 100) / 100;
const nonEmpty = (t: string) => t.split("\n").filter((l) => l.trim() !== "");
export const csvColumn = (ask: Ask) => {
  const [head, ...rows] = input(ask)
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  const i = head!.indexOf(ask.args.column as string);
  return rows.map((r) => Number(r[i]));
};

const COUNT_LINES: ReuseTask = {
  name: "fs:count_lines",
  intent: "count the non-empty lines in a text file",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").filter((l) => l.trim() !== "").length;',
  expect: (a) => nonEmpty(input(a)).length,
  asks: [
    { say: "count the non-empty lines in notes/todo.txt", args: { path: "notes/todo.txt" }, files: { "notes/todo.txt": lines("call Ana", "", "fix the sink", "pay rent") } },
    {
      say: "how many items are on lists/groceries.txt? there is one per row",
      args: { path: "lists/groceries.txt" },
      files: { "lists/groceries.txt": lines("6 eggs", "flour", "whole milk", "", "green apples", "rice") },
    },
    {
      say: "guests.txt has a person on each row, how many people is that?",
      args: { path: "party/guests.txt" },
      files: { "party/guests.txt": lines("Ana Lima", "Bo Kim", "Chen Wei", "Dara", "Eli Cohen", "Fatou Diop", "Gus") },
    },
    {
      say: "tell me how long logs/deploy.log is, in rows, blanks left out",
      args: { path: "logs/deploy.log" },
      files: { "logs/deploy.log": lines("start", "pull image", "", "migrate", "", "ready") },
    },
  ],
};

const COUNT_WORDS: ReuseTask = {
  name: "fs:count_words",
  intent: "count the words in a text file",
  code: "const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split(/\\s+/).filter(Boolean).length;",
  expect: (a) => input(a).split(/\s+/).filter(Boolean).length,
  asks: [
    {
      say: "count the words in drafts/intro.md",
      args: { path: "drafts/intro.md" },
      files: { "drafts/intro.md": lines("Welcome to the guide.", "It covers setup and use.") },
    },
    {
      say: "my abstract in paper/abstract.txt has a 250 limit: how long is it so far?",
      args: { path: "paper/abstract.txt" },
      files: { "paper/abstract.txt": lines("We study memory for agents.", "Results show reuse saves effort in long sessions.") },
    },
    {
      say: "what's the length of letters/cover.txt measured in terms, not characters?",
      args: { path: "letters/cover.txt" },
      files: { "letters/cover.txt": lines("Dear team,", "I would like to apply for the role.", "Best, Kim") },
    },
  ],
};

const READ_JSON_FIELD: ReuseTask = {
  name: "fs:read_json_field",
  intent: "read one field from a JSON file",
  code: "const o = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn o[args.key] ?? null;",
  expect: (a) => JSON.parse(input(a))[a.args.key as string] ?? null,
  asks: [
    {
      say: "read the name field from data/pet.json",
      args: { path: "data/pet.json", key: "name" },
      files: { "data/pet.json": JSON.stringify({ name: "Rex", age: 4 }) },
    },
    {
      say: "what does config/app.json say the port is?",
      args: { path: "config/app.json", key: "port" },
      files: { "config/app.json": JSON.stringify({ host: "0.0.0.0", port: 8080, debug: false }) },
    },
    {
      say: "look up who the owner is in meta/team.json",
      args: { path: "meta/team.json", key: "owner" },
      files: { "meta/team.json": JSON.stringify({ owner: "platform", members: 6 }) },
    },
    {
      say: "which timezone is set in settings/user.json?",
      args: { path: "settings/user.json", key: "timezone" },
      files: { "settings/user.json": JSON.stringify({ locale: "fr-FR", timezone: "Europe/Paris" }) },
    },
  ],
};

const LIST_JSON_KEYS: ReuseTask = {
  name: "fs:list_json_keys",
  intent: "list the top-level keys of a JSON file, sorted",
  code: "const o = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn Object.keys(o).sort();",
  expect: (a) => Object.keys(JSON.parse(input(a))).sort(),
  asks: [
    {
      say: "list the top-level keys of data/order.json",
      args: { path: "data/order.json" },
      files: { "data/order.json": JSON.stringify({ id: 7, total: 12.5, items: [], customer: "x" }) },
    },
    {
      say: "what settings are defined in config/flags.json? just their names",
      args: { path: "config/flags.json" },
      files: { "config/flags.json": JSON.stringify({ darkMode: true, beta: false, newNav: true }) },
    },
    {
      say: "which properties does data/user-42.json have at its root, alphabetically?",
      args: { path: "data/user-42.json" },
      files: { "data/user-42.json": JSON.stringify({ zip: "75001", email: "a@b.c", name: "Ana", roles: ["admin"] }) },
    },
    {
      say: "give me the entry names of locales/en.json in A-Z order",
      args: { path: "locales/en.json" },
      files: { "locales/en.json": JSON.stringify({ save: "Save", cancel: "Cancel", open: "Open" }) },
    },
  ],
};

const SUM_CSV: ReuseTask = {
  name: "fs:sum_csv_column",
  intent: "sum a numeric column of a CSV file",
  code:
    'const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\\n").map((l) => l.split(","));\n' +
    "const i = head.indexOf(args.column);\nreturn Math.round(rows.reduce((s, r) => s + Number(r[i]), 0) * 100) / 100;",
  expect: (a) => round2(csvColumn(a).reduce((s, x) => s + x, 0)),
  asks: [
    {
      say: "sum the cost column of finance/feb.csv",
      args: { path: "finance/feb.csv", column: "cost" },
      files: {
        "finance/feb.csv": csv("item,cost", [
          ["paper", 12.5],
          ["ink", 30],
          ["desk", 120.25],
        ]),
      },
    },
    {
      say: "what's the total amount in finance/march.csv?",
      args: { path: "finance/march.csv", column: "amount" },
      files: {
        "finance/march.csv": csv("date,amount", [
          ["03-01", 100],
          ["03-09", 45.5],
          ["03-20", 12],
          ["03-28", 7.25],
        ]),
      },
    },
    {
      say: "add up all the hours logged in timesheets/week12.csv",
      args: { path: "timesheets/week12.csv", column: "hours" },
      files: {
        "timesheets/week12.csv": csv("who,hours,project", [
          ["ana", 8, "x"],
          ["bo", 6.5, "y"],
          ["chen", 7, "x"],
        ]),
      },
    },
    {
      say: "how many units did we sell altogether, going by the qty of sales/q3.csv?",
      args: { path: "sales/q3.csv", column: "qty" },
      files: {
        "sales/q3.csv": csv("sku,qty,price", [
          ["a1", 3, 9.99],
          ["b2", 10, 1.5],
          ["c3", 1, 100],
        ]),
      },
    },
    {
      say: "grand total of the bytes field across logs/transfers.csv?",
      args: { path: "logs/transfers.csv", column: "bytes" },
      files: {
        "logs/transfers.csv": csv("host,bytes", [
          ["a", 1024],
          ["b", 2048],
          ["c", 512],
        ]),
      },
    },
  ],
};

const AVERAGE_CSV: ReuseTask = {
  name: "fs:average_csv_column",
  intent: "average of a numeric column in a CSV file",
  code:
    'const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\\n").map((l) => l.split(","));\n' +
    "const i = head.indexOf(args.column);\nreturn Math.round((rows.reduce((s, r) => s + Number(r[i]), 0) / rows.length) * 100) / 100;",
  expect: (a) => {
    const xs = csvColumn(a);
    return round2(xs.reduce((s, x) => s + x, 0) / xs.length);
  },
  asks: [
    {
      say: "average of the temp column in weather/june.csv",
      args: { path: "weather/june.csv", column: "temp" },
      files: {
        "weather/june.csv": csv("day,temp", [
          [1, 21],
          [2, 24],
          [3, 19.5],
        ]),
      },
    },
    {
      say: "what's the mean grade in grades/class-b.csv?",
      args: { path: "grades/class-b.csv", column: "grade" },
      files: {
        "grades/class-b.csv": csv("student,grade", [
          ["ana", 14],
          ["bo", 11],
          ["chen", 17],
          ["dara", 12],
        ]),
      },
    },
    {
      say: "typical latency_ms per request in perf/run7.csv (the arithmetic mean)",
      args: { path: "perf/run7.csv", column: "latency_ms" },
      files: {
        "perf/run7.csv": csv("req,latency_ms", [
          [1, 120],
          [2, 95],
          [3, 210],
          [4, 88],
          [5, 101],
        ]),
      },
    },
  ],
};

const COUNT_CSV_ROWS: ReuseTask = {
  name: "fs:count_csv_rows",
  intent: "count the data rows of a CSV file, without the header",
  code: 'const ls = (await mcp.filesystem.read_file({ path: args.path })).split("\\n").filter((l) => l.trim() !== "");\nreturn Math.max(0, ls.length - 1);',
  expect: (a) => Math.max(0, nonEmpty(input(a)).length - 1),
  asks: [
    {
      say: "count the data rows of exports/leads.csv, header excluded",
      args: { path: "exports/leads.csv" },
      files: {
        "exports/leads.csv": csv("name,email", [
          ["a", "a@x"],
          ["b", "b@x"],
        ]),
      },
    },
    {
      say: "how many records are in exports/customers.csv? the first row is just titles",
      args: { path: "exports/customers.csv" },
      files: {
        "exports/customers.csv": csv("id,name", [
          [1, "Ana"],
          [2, "Bo"],
          [3, "Chen"],
          [4, "Dara"],
        ]),
      },
    },
    {
      say: "number of entries in the spreadsheet dump inventory/stock.csv",
      args: { path: "inventory/stock.csv" },
      files: {
        "inventory/stock.csv": csv("sku,qty", [
          ["a", 1],
          ["b", 0],
          ["c", 5],
          ["d", 2],
          ["e", 9],
        ]),
      },
    },
  ],
};

const FIND_BY_EXT: ReuseTask = {
  name: "fs:find_files_by_extension",
  intent: "list the files with a given extension under a folder",
  code: 'const out = await mcp.filesystem.search_files({ pattern: "**/*." + args.ext, path: args.dir });\nreturn out.startsWith("No matches") ? [] : out.split("\\n").filter(Boolean).sort();',
  expect: (a) =>
    Object.keys(a.files ?? {})
      .filter((p) => p.startsWith(`${a.args.dir}/`) && p.endsWith(`.${a.args.ext}`))
      .sort(),
  asks: [
    {
      say: "list the .json files under fixtures",
      args: { dir: "fixtures", ext: "json" },
      files: { "fixtures/a.json": "{}", "fixtures/deep/b.json": "{}", "fixtures/c.txt": "c" },
    },
    {
      say: "which python scripts live somewhere in tools/?",
      args: { dir: "tools", ext: "py" },
      files: { "tools/build.py": "pass", "tools/ci/lint.py": "pass", "tools/README.md": "# tools" },
    },
    {
      say: "show me every yaml manifest inside deploy",
      args: { dir: "deploy", ext: "yaml" },
      files: { "deploy/app.yaml": "a: 1", "deploy/prod/db.yaml": "b: 2", "deploy/notes.md": "n" },
    },
    {
      say: "where are the markdown docs in handbook?",
      args: { dir: "handbook", ext: "md" },
      files: { "handbook/intro.md": "# a", "handbook/hr/leave.md": "# b", "handbook/logo.png": "x" },
    },
  ],
};

const FILE_SIZE: ReuseTask = {
  name: "fs:file_size_bytes",
  intent: "get the size of a file in bytes",
  code: "const info = await mcp.filesystem.get_file_info({ path: args.path });\nreturn info.size;",
  expect: (a) => Buffer.byteLength(input(a)),
  asks: [
    { say: "get the size in bytes of assets/logo.svg", args: { path: "assets/logo.svg" }, files: { "assets/logo.svg": "<svg>logo</svg>" } },
    { say: "how big is backup/dump.sql?", args: { path: "backup/dump.sql" }, files: { "backup/dump.sql": lines("CREATE TABLE t (id int);", "INSERT INTO t VALUES (1);") } },
    { say: "how much room does fonts/inter.txt take on disk?", args: { path: "fonts/inter.txt" }, files: { "fonts/inter.txt": "inter regular 400".repeat(20) } },
  ],
};

const GREP_LINES: ReuseTask = {
  name: "fs:grep_lines",
  intent: "find the lines of a file that contain a given text",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").filter((l) => l.includes(args.needle));',
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l) => l.includes(a.args.needle as string)),
  asks: [
    {
      say: "find the lines of logs/web.log that contain 404",
      args: { path: "logs/web.log", needle: "404" },
      files: { "logs/web.log": lines("GET / 200", "GET /x 404", "GET /y 404", "POST /z 201") },
    },
    {
      say: "show me where ERROR shows up in logs/api.log",
      args: { path: "logs/api.log", needle: "ERROR" },
      files: { "logs/api.log": lines("INFO boot", "ERROR db down", "INFO retry", "ERROR db down again") },
    },
    {
      say: "which rows of contacts.txt mention Berlin?",
      args: { path: "contacts.txt", needle: "Berlin" },
      files: { "contacts.txt": lines("Ana, Berlin", "Bo, Paris", "Chen, Berlin", "Dara, Rome") },
    },
    {
      say: "pull out every entry of CHANGELOG.txt that talks about fix",
      args: { path: "CHANGELOG.txt", needle: "fix" },
      files: { "CHANGELOG.txt": lines("1.2 fix login", "1.1 add export", "1.0 fix crash on start", "0.9 first") },
    },
  ],
};

const HEAD_LINES: ReuseTask = {
  name: "fs:head_lines",
  intent: "show the first N lines of a file",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").slice(0, args.n);',
  expect: (a) =>
    input(a)
      .split("\n")
      .slice(0, a.args.n as number),
  asks: [
    { say: "show the first 2 lines of data/big.txt", args: { path: "data/big.txt", n: 2 }, files: { "data/big.txt": lines("l1", "l2", "l3", "l4") } },
    { say: "peek at the top 3 rows of queue.txt", args: { path: "queue.txt", n: 3 }, files: { "queue.txt": lines("job-a", "job-b", "job-c", "job-d", "job-e") } },
    {
      say: "what are the opening 4 entries in ranking.txt?",
      args: { path: "ranking.txt", n: 4 },
      files: { "ranking.txt": lines("gold", "silver", "bronze", "fourth", "fifth") },
    },
  ],
};

const LAST_LINE: ReuseTask = {
  name: "fs:last_line",
  intent: "get the last non-empty line of a file",
  code: 'const ls = (await mcp.filesystem.read_file({ path: args.path })).split("\\n").filter((l) => l.trim() !== "");\nreturn ls[ls.length - 1] ?? null;',
  expect: (a) => nonEmpty(input(a)).at(-1) ?? null,
  asks: [
    { say: "get the last non-empty line of logs/cron.log", args: { path: "logs/cron.log" }, files: { "logs/cron.log": lines("run 1", "run 2", "run 3 ok", "") } },
    {
      say: "what was the final entry written to logs/worker.log?",
      args: { path: "logs/worker.log" },
      files: { "logs/worker.log": lines("job started", "job 50%", "job done") },
    },
    {
      say: "most recent thing at the bottom of journal.txt?",
      args: { path: "journal.txt" },
      files: { "journal.txt": lines("mon: rain", "tue: sun", "wed: wind", "", "") },
    },
    {
      say: "read me the closing row of history/commands.txt",
      args: { path: "history/commands.txt" },
      files: { "history/commands.txt": lines("ls", "cd src", "make test") },
    },
  ],
};

const COPY_FILE: ReuseTask = {
  name: "fs:copy_file",
  intent: "copy a file to a new path",
  code: "const t = await mcp.filesystem.read_file({ path: args.source });\nawait mcp.filesystem.write_file({ path: args.destination, content: t });\nreturn t.length;",
  expect: (a) => input(a, "source").length,
  leaves: (a) => ({ [a.args.destination as string]: input(a, "source") }),
  asks: [
    {
      say: "copy report.md to report-copy.md",
      args: { source: "report.md", destination: "report-copy.md" },
      files: { "report.md": lines("# Report", "all good") },
    },
    {
      say: "duplicate config/db.ini as config/db.ini.bak before I touch it",
      args: { source: "config/db.ini", destination: "config/db.ini.bak" },
      files: { "config/db.ini": lines("host=db", "port=5432") },
    },
    {
      say: "clone templates/invoice.html into out/invoice-7.html",
      args: { source: "templates/invoice.html", destination: "out/invoice-7.html" },
      files: { "templates/invoice.html": "<h1>Invoice</h1>" },
    },
  ],
};

const APPEND_LINE: ReuseTask = {
  name: "fs:append_line",
  intent: "append a line at the end of a text file",
  code:
    'const t = await mcp.filesystem.read_file({ path: args.path });\nconst next = (t === "" || t.endsWith("\\n") ? t : t + "\\n") + args.line + "\\n";\n' +
    'await mcp.filesystem.write_file({ path: args.path, content: next });\nreturn next.split("\\n").filter((l) => l.trim() !== "").length;',
  expect: (a) => nonEmpty(input(a)).length + 1,
  leaves: (a) => ({ [a.args.path as string]: `${input(a)}${a.args.line}\n` }),
  asks: [
    { say: "append the line 'call dentist' to todo/work.txt", args: { path: "todo/work.txt", line: "call dentist" }, files: { "todo/work.txt": lines("email Bo") } },
    {
      say: "add 'buy milk' to the bottom of todo/home.txt",
      args: { path: "todo/home.txt", line: "buy milk" },
      files: { "todo/home.txt": lines("water plants", "fix door") },
    },
    { say: "tack 'v1.4 released' onto news.txt", args: { path: "news.txt", line: "v1.4 released" }, files: { "news.txt": lines("v1.3 released") } },
  ],
};

const REPLACE_WORD: ReuseTask = {
  name: "fs:replace_word",
  intent: "replace every occurrence of a word in a file and say how many were replaced",
  code:
    "const t = await mcp.filesystem.read_file({ path: args.path });\nconst parts = t.split(args.find);\n" +
    "await mcp.filesystem.write_file({ path: args.path, content: parts.join(args.replace) });\nreturn parts.length - 1;",
  expect: (a) => input(a).split(a.args.find as string).length - 1,
  leaves: (a) => ({
    [a.args.path as string]: input(a)
      .split(a.args.find as string)
      .join(a.args.replace as string),
  }),
  asks: [
    {
      say: "replace every 'foo' with 'bar' in src/demo.txt",
      args: { path: "src/demo.txt", find: "foo", replace: "bar" },
      files: { "src/demo.txt": lines("foo one", "foo two", "baz") },
    },
    {
      say: "rename Acme to Globex all through contract.md",
      args: { path: "contract.md", find: "Acme", replace: "Globex" },
      files: { "contract.md": lines("Acme agrees.", "Acme pays.", "Signed, Acme") },
    },
    {
      say: "swap colour for color throughout style-guide.txt",
      args: { path: "style-guide.txt", find: "colour", replace: "color" },
      files: { "style-guide.txt": lines("Use one colour.", "The colour of links is blue.") },
    },
    {
      say: "in notes/meeting.txt, change each Bob into Robert",
      args: { path: "notes/meeting.txt", find: "Bob", replace: "Robert" },
      files: { "notes/meeting.txt": lines("Bob opened.", "Ana and Bob agreed.", "Bob closes.", "Bob?") },
    },
  ],
};

const PACKAGE_VERSION: ReuseTask = {
  name: "fs:package_version",
  intent: "read the version from a project's package.json",
  code: 'const p = JSON.parse(await mcp.filesystem.read_file({ path: args.dir + "/package.json" }));\nreturn p.version;',
  expect: (a) => JSON.parse(a.files?.[`${a.args.dir}/package.json`] ?? "{}").version,
  asks: [
    {
      say: "read the version from the package.json of packages/core",
      args: { dir: "packages/core" },
      files: { "packages/core/package.json": JSON.stringify({ name: "core", version: "2.3.1" }) },
    },
    {
      say: "which release is packages/ui at?",
      args: { dir: "packages/ui" },
      files: { "packages/ui/package.json": JSON.stringify({ name: "ui", version: "0.9.0-beta.2" }) },
    },
    {
      say: "what semver does services/api declare for itself?",
      args: { dir: "services/api" },
      files: { "services/api/package.json": JSON.stringify({ name: "api", version: "5.0.0", private: true }) },
    },
  ],
};

const COUNT_TODOS: ReuseTask = {
  name: "fs:count_todos",
  intent: "count TODO comments in the TypeScript files under a folder",
  code:
    'const out = await mcp.filesystem.search_files({ pattern: "**/*.ts", path: args.dir });\nconst files = out.startsWith("No matches") ? [] : out.split("\\n").filter(Boolean);\n' +
    'let n = 0;\nfor (const f of files) n += (await mcp.filesystem.read_file({ path: f })).split("TODO").length - 1;\nreturn n;',
  expect: (a) =>
    Object.entries(a.files ?? {})
      .filter(([p]) => p.startsWith(`${a.args.dir}/`) && p.endsWith(".ts"))
      .reduce((n, [, t]) => n + t.split("TODO").length - 1, 0),
  asks: [
    {
      say: "count TODO comments in the TypeScript of lib/",
      args: { dir: "lib" },
      files: { "lib/a.ts": lines("// TODO a", "x()"), "lib/b/c.ts": lines("// TODO b", "// TODO c"), "lib/notes.md": "TODO not code" },
    },
    {
      say: "how much unfinished work is flagged in the code of app/auth?",
      args: { dir: "app/auth" },
      files: { "app/auth/login.ts": lines("// TODO rate limit", "login()"), "app/auth/oauth/google.ts": lines("// TODO refresh", "// TODO scopes", "// TODO tests") },
    },
    {
      say: "how many open to-do markers are left in src/billing?",
      args: { dir: "src/billing" },
      files: { "src/billing/invoice.ts": lines("// TODO vat", "bill()"), "src/billing/tax.ts": lines("tax()") },
    },
  ],
};

const MERGE_JSON: ReuseTask = {
  name: "fs:merge_json_files",
  intent: "merge two JSON files into a third one, the second one's keys winning",
  code:
    "const a = JSON.parse(await mcp.filesystem.read_file({ path: args.left }));\nconst b = JSON.parse(await mcp.filesystem.read_file({ path: args.right }));\n" +
    "const m = { ...a, ...b };\nawait mcp.filesystem.write_file({ path: args.output, content: JSON.stringify(m, null, 2) });\nreturn m;",
  expect: (a) => ({ ...JSON.parse(input(a, "left")), ...JSON.parse(input(a, "right")) }),
  leaves: (a) => ({ [a.args.output as string]: JSON.stringify({ ...JSON.parse(input(a, "left")), ...JSON.parse(input(a, "right")) }, null, 2) }),
  asks: [
    {
      say: "merge base.json and local.json into merged.json",
      args: { left: "cfg/base.json", right: "cfg/local.json", output: "cfg/merged.json" },
      files: { "cfg/base.json": JSON.stringify({ a: 1, b: 2 }), "cfg/local.json": JSON.stringify({ b: 3 }) },
    },
    {
      say: "combine defaults.json with overrides.json and save the outcome as final.json",
      args: { left: "env/defaults.json", right: "env/overrides.json", output: "env/final.json" },
      files: { "env/defaults.json": JSON.stringify({ port: 80, tls: false }), "env/overrides.json": JSON.stringify({ tls: true, host: "x" }) },
    },
    {
      say: "overlay theme-dark.json on theme.json, writing the result to theme-out.json",
      args: { left: "ui/theme.json", right: "ui/theme-dark.json", output: "ui/theme-out.json" },
      files: { "ui/theme.json": JSON.stringify({ bg: "white", fg: "black", accent: "blue" }), "ui/theme-dark.json": JSON.stringify({ bg: "black", fg: "white" }) },
    },
  ],
};

const INI_VALUE: ReuseTask = {
  name: "fs:read_config_value",
  intent: "read a setting from a key=value config file",
  code:
    'const line = (await mcp.filesystem.read_file({ path: args.path })).split("\\n").find((l) => l.split("=")[0].trim() === args.key);\n' +
    'return line ? line.slice(line.indexOf("=") + 1).trim() : null;',
  expect: (a) => {
    const line = input(a)
      .split("\n")
      .find((l) => l.split("=")[0]!.trim() === a.args.key);
    return line ? line.slice(line.indexOf("=") + 1).trim() : null;
  },
  asks: [
    {
      say: "read the setting timeout from conf/app.conf",
      args: { path: "conf/app.conf", key: "timeout" },
      files: { "conf/app.conf": lines("name=app", "timeout = 30", "retries=2") },
    },
    {
      say: "what is DB_HOST pointing at in conf/service.properties?",
      args: { path: "conf/service.properties", key: "DB_HOST" },
      files: { "conf/service.properties": lines("DB_HOST=db.internal", "DB_PORT=5432") },
    },
    {
      say: "which log_level does etc/agent.cfg use?",
      args: { path: "etc/agent.cfg", key: "log_level" },
      files: { "etc/agent.cfg": lines("# agent", "log_level=warn", "interval=60") },
    },
    {
      say: "tell me the region configured in deploy/aws.ini",
      args: { path: "deploy/aws.ini", key: "region" },
      files: { "deploy/aws.ini": lines("profile=prod", "region=eu-west-3") },
    },
  ],
};

const MD_HEADINGS: ReuseTask = {
  name: "fs:markdown_headings",
  intent: "list the headings of a markdown document",
  code: 'return (await mcp.filesystem.read_file({ path: args.path })).split("\\n").filter((l) => /^#{1,6} /.test(l)).map((l) => l.replace(/^#+ /, ""));',
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => l.replace(/^#+ /, "")),
  asks: [
    {
      say: "list the headings of docs/setup.md",
      args: { path: "docs/setup.md" },
      files: { "docs/setup.md": lines("# Setup", "text", "## Install", "## Run", "more") },
    },
    {
      say: "give me a table of contents for docs/guide.md",
      args: { path: "docs/guide.md" },
      files: { "docs/guide.md": lines("# Guide", "## Basics", "x", "### Advanced", "y") },
    },
    {
      say: "what sections does rfc/RFC-12.md have?",
      args: { path: "rfc/RFC-12.md" },
      files: { "rfc/RFC-12.md": lines("# RFC 12", "## Motivation", "## Design", "## Drawbacks") },
    },
    {
      say: "outline the titles in blog/post.md",
      args: { path: "blog/post.md" },
      files: { "blog/post.md": lines("# Why we moved", "intro", "## Costs", "## People") },
    },
  ],
};

const COUNT_ENTRIES: ReuseTask = {
  name: "fs:count_directory_entries",
  intent: "count the entries directly inside a folder",
  code: 'const out = await mcp.filesystem.list_directory({ path: args.dir });\nreturn out.startsWith("(empty") ? 0 : out.split("\\n").filter(Boolean).length;',
  expect: (a) => new Set(Object.keys(a.files ?? {}).map((p) => p.slice((a.args.dir as string).length + 1).split("/")[0])).size,
  asks: [
    { say: "count the entries in the folder inbox", args: { dir: "inbox" }, files: { "inbox/a.eml": "a", "inbox/b.eml": "b", "inbox/old/c.eml": "c" } },
    {
      say: "how many things sit right at the top of photos/2024?",
      args: { dir: "photos/2024" },
      files: { "photos/2024/a.jpg": "a", "photos/2024/b.jpg": "b", "photos/2024/c.jpg": "c", "photos/2024/trip/d.jpg": "d" },
    },
    {
      say: "what's the item tally of the uploads directory, subfolders counted once?",
      args: { dir: "uploads" },
      files: { "uploads/x.pdf": "x", "uploads/2023/y.pdf": "y", "uploads/2024/z.pdf": "z" },
    },
  ],
};

const DEDUPE_LINES: ReuseTask = {
  name: "fs:dedupe_lines",
  intent: "remove duplicate lines from a file, keeping the first of each, and say how many were removed",
  code:
    'const ls = (await mcp.filesystem.read_file({ path: args.path })).split("\\n").filter((l) => l !== "");\nconst kept = [...new Set(ls)];\n' +
    'await mcp.filesystem.write_file({ path: args.path, content: kept.join("\\n") + "\\n" });\nreturn ls.length - kept.length;',
  expect: (a) => {
    const ls = input(a)
      .split("\n")
      .filter((l) => l !== "");
    return ls.length - new Set(ls).size;
  },
  leaves: (a) => ({
    [a.args.path as string]: `${[
      ...new Set(
        input(a)
          .split("\n")
          .filter((l) => l !== ""),
      ),
    ].join("\n")}\n`,
  }),
  asks: [
    { say: "remove duplicate lines from tags.txt", args: { path: "tags.txt" }, files: { "tags.txt": lines("a", "b", "a", "c", "b") } },
    {
      say: "emails.txt has repeats; clean them out and tell me how many went away",
      args: { path: "lists/emails.txt" },
      files: { "lists/emails.txt": lines("a@x", "b@x", "a@x", "a@x", "c@x") },
    },
    {
      say: "make every row of hosts-list.txt unique",
      args: { path: "net/hosts-list.txt" },
      files: { "net/hosts-list.txt": lines("web1", "web2", "web1", "db1") },
    },
  ],
};

const C_TO_F: ReuseTask = {
  name: "util:celsius_to_fahrenheit",
  intent: "convert a temperature from celsius to fahrenheit",
  code: "return Math.round((args.celsius * 9 / 5 + 32) * 100) / 100;",
  expect: (a) => round2(((a.args.celsius as number) * 9) / 5 + 32),
  asks: [
    { say: "convert 25 celsius to fahrenheit", args: { celsius: 25 } },
    { say: "it's 31 °C here, what would an American thermometer read?", args: { celsius: 31 } },
    { say: "my oven manual says 180 degrees C; what's that in F?", args: { celsius: 180 } },
    { say: "-40C in Fahrenheit please", args: { celsius: -40 } },
  ],
};

const F_TO_C: ReuseTask = {
  name: "util:fahrenheit_to_celsius",
  intent: "convert a temperature from fahrenheit to celsius",
  code: "return Math.round(((args.fahrenheit - 32) * 5 / 9) * 100) / 100;",
  expect: (a) => round2((((a.args.fahrenheit as number) - 32) * 5) / 9),
  asks: [
    { say: "convert 212 fahrenheit to celsius", args: { fahrenheit: 212 } },
    { say: "a US recipe says bake at 350 F, what do I set on a metric oven?", args: { fahrenheit: 350 } },
    { say: "the forecast in Boston is 68 degrees F; how warm is that for a European?", args: { fahrenheit: 68 } },
  ],
};

const METERS_TO_FEET: ReuseTask = {
  name: "util:convert_meters_to_feet",
  intent: "convert a length in meters to feet",
  code: "return Math.round(args.meters * 3.28084 * 100) / 100;",
  expect: (a) => round2((a.args.meters as number) * 3.28084),
  asks: [
    { say: "convert 10 meters to feet", args: { meters: 10 } },
    { say: "how many ft is a 3 m ceiling?", args: { meters: 3 } },
    { say: "the pool is 25 metres long, give me that in imperial", args: { meters: 25 } },
    { say: "Everest is 8849 m tall: what is that in foot units?", args: { meters: 8849 } },
  ],
};

const COMPOUND_INTEREST: ReuseTask = {
  name: "util:compound_interest",
  intent: "compute the final amount of a deposit with yearly compound interest",
  code: "return Math.round(args.principal * Math.pow(1 + args.rate / 100, args.years) * 100) / 100;",
  expect: (a) => round2((a.args.principal as number) * (1 + (a.args.rate as number) / 100) ** (a.args.years as number)),
  asks: [
    { say: "compound interest: 1000 at 5% for 3 years, final amount?", args: { principal: 1000, rate: 5, years: 3 } },
    { say: "if I leave 2500 in a savings account paying 3% a year for 10 years, what will I have?", args: { principal: 2500, rate: 3, years: 10 } },
    { say: "what does 400 grow to after 7 years at 6 percent annually, gains reinvested?", args: { principal: 400, rate: 6, years: 7 } },
  ],
};

const PERCENT_CHANGE: ReuseTask = {
  name: "util:percent_change",
  intent: "compute the percentage change between two values",
  code: "return Math.round(((args.after - args.before) / args.before) * 100 * 100) / 100;",
  expect: (a) => round2((((a.args.after as number) - (a.args.before as number)) / (a.args.before as number)) * 100),
  asks: [
    { say: "percentage change from 80 to 100", args: { before: 80, after: 100 } },
    { say: "revenue went from 1200 to 1500 this quarter, by how much % did it grow?", args: { before: 1200, after: 1500 } },
    { say: "our bundle shrank from 640 KB to 512 KB, what's that as a percent?", args: { before: 640, after: 512 } },
    { say: "rent rose from 950 to 1020: how steep an increase relative to before?", args: { before: 950, after: 1020 } },
  ],
};

const SLUGIFY: ReuseTask = {
  name: "transform:slugify_title",
  intent: "make a URL slug from a title",
  code: 'return args.text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");',
  expect: (a) =>
    (a.args.text as string)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, ""),
  asks: [
    { say: "make a URL slug from 'Hello World Again'", args: { text: "Hello World Again" } },
    { say: "turn 'Ten Tips for Better Sleep!' into something I can put in a link path", args: { text: "Ten Tips for Better Sleep!" } },
    { say: "web-safe lowercase-dashed version of 'Q3 Results: Up 12%'", args: { text: "Q3 Results: Up 12%" } },
  ],
};

const WRAP_TEXT: ReuseTask = {
  name: "transform:wrap_text",
  intent: "wrap text into lines of at most a given width",
  code:
    'const out = [];\nlet cur = "";\nfor (const w of args.text.split(/\\s+/).filter(Boolean)) {\n  if (cur && (cur + " " + w).length > args.width) { out.push(cur); cur = w; }\n' +
    '  else cur = cur ? cur + " " + w : w;\n}\nif (cur) out.push(cur);\nreturn out;',
  expect: (a) => {
    const out: string[] = [];
    let cur = "";
    for (const w of (a.args.text as string).split(/\s+/).filter(Boolean)) {
      if (cur && `${cur} ${w}`.length > (a.args.width as number)) {
        out.push(cur);
        cur = w;
      } else cur = cur ? `${cur} ${w}` : w;
    }
    if (cur) out.push(cur);
    return out;
  },
  asks: [
    { say: "wrap this text at 10 characters: the quick brown fox jumps", args: { text: "the quick brown fox jumps", width: 10 } },
    {
      say: "reflow this paragraph so nothing runs past 20 columns: memory makes agents faster when tasks come back again",
      args: { text: "memory makes agents faster when tasks come back again", width: 20 },
    },
    { say: "break 'one two three four five six seven' into rows no longer than 9 chars", args: { text: "one two three four five six seven", width: 9 } },
  ],
};

const TOP_WORDS: ReuseTask = {
  name: "transform:top_words",
  intent: "find the most frequent words in a text",
  code:
    "const counts = {};\nfor (const w of args.text.toLowerCase().match(/[a-z']+/g) ?? []) counts[w] = (counts[w] ?? 0) + 1;\n" +
    "return Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, args.n).map(([w]) => w);",
  expect: (a) => {
    const counts: Record<string, number> = {};
    for (const w of (a.args.text as string).toLowerCase().match(/[a-z']+/g) ?? []) counts[w] = (counts[w] ?? 0) + 1;
    return Object.entries(counts)
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
      .slice(0, a.args.n as number)
      .map(([w]) => w);
  },
  asks: [
    { say: "top 2 most frequent words in: a b a c b a", args: { text: "a b a c b a", n: 2 } },
    { say: "which 3 terms come up most often in 'to be or not to be that is the question to ask'?", args: { text: "to be or not to be that is the question to ask", n: 3 } },
    { say: "what does this review keep repeating? 'great food, great staff, slow food service' (give me 2)", args: { text: "great food, great staff, slow food service", n: 2 } },
  ],
};

const DAYS_BETWEEN: ReuseTask = {
  name: "util:days_between_dates",
  intent: "number of days between two dates",
  code: "return Math.round((Date.parse(args.end) - Date.parse(args.start)) / 86400000);",
  expect: (a) => Math.round((Date.parse(a.args.end as string) - Date.parse(a.args.start as string)) / 86400000),
  asks: [
    { say: "number of days between 2024-01-01 and 2024-03-01", args: { start: "2024-01-01", end: "2024-03-01" } },
    { say: "how long is it from 2025-06-10 until my holiday on 2025-08-01?", args: { start: "2025-06-10", end: "2025-08-01" } },
    { say: "the project ran 2023-02-14 to 2023-11-30, how many calendar days is that?", args: { start: "2023-02-14", end: "2023-11-30" } },
    { say: "what's the gap, in days, separating 2020-02-01 and 2020-03-01?", args: { start: "2020-02-01", end: "2020-03-01" } },
  ],
};

const IS_PRIME: ReuseTask = {
  name: "util:is_prime",
  intent: "check whether a number is prime",
  code: "const n = args.n;\nif (n < 2) return false;\nfor (let d = 2; d * d <= n; d++) if (n % d === 0) return false;\nreturn true;",
  expect: (a) => {
    const n = a.args.n as number;
    if (n < 2) return false;
    for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
    return true;
  },
  asks: [
    { say: "is 97 prime?", args: { n: 97 } },
    { say: "can 221 be divided by anything besides 1 and itself?", args: { n: 221 } },
    { say: "does 7919 have any factors other than one and itself?", args: { n: 7919 } },
  ],
};

const TITLE_CASE: ReuseTask = {
  name: "transform:title_case",
  intent: "capitalize the first letter of every word",
  code: 'return args.text.split(" ").map((w) => (w ? w[0].toUpperCase() + w.slice(1).toLowerCase() : w)).join(" ");',
  expect: (a) =>
    (a.args.text as string)
      .split(" ")
      .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1).toLowerCase() : w))
      .join(" "),
  asks: [
    { say: "capitalize every word of 'the lord of the rings'", args: { text: "the lord of the rings" } },
    { say: "make 'quarterly SALES review' look like a headline", args: { text: "quarterly SALES review" } },
    { say: "proper-case this name list entry: 'jean-luc PICARD'", args: { text: "jean-luc PICARD" } },
  ],
};

const MEDIAN: ReuseTask = {
  name: "util:median_of_numbers",
  intent: "median of a list of numbers",
  code: "const s = [...args.numbers].sort((a, b) => a - b);\nconst m = Math.floor(s.length / 2);\nreturn s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;",
  expect: (a) => {
    const s = [...(a.args.numbers as number[])].sort((x, y) => x - y);
    const m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m] : (s[m - 1]! + s[m]!) / 2;
  },
  asks: [
    { say: "median of 3, 1, 4, 1, 5", args: { numbers: [3, 1, 4, 1, 5] } },
    { say: "what's the middle value of these response times: 120, 80, 300, 95?", args: { numbers: [120, 80, 300, 95] } },
    { say: "house prices 250, 410, 330, 290, 1200, 305: which one sits in the middle once sorted?", args: { numbers: [250, 410, 330, 290, 1200, 305] } },
  ],
};

const CAMEL_TO_SNAKE: ReuseTask = {
  name: "transform:camel_to_snake",
  intent: "convert a camelCase identifier to snake_case",
  code: 'return args.text.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();',
  expect: (a) => (a.args.text as string).replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase(),
  asks: [
    { say: "convert userName to snake_case", args: { text: "userName" } },
    { say: "rewrite createdAtUtc with underscores between the lowercase parts, python style", args: { text: "createdAtUtc" } },
    { say: "how would maxRetryCount look as a database column name (lower, underscored)?", args: { text: "maxRetryCount" } },
  ],
};

const TEXT_WORDS: ReuseTask = {
  name: "util:count_words_in_text",
  intent: "count the words in a piece of text",
  code: "return args.text.split(/\\s+/).filter(Boolean).length;",
  expect: (a) => (a.args.text as string).split(/\s+/).filter(Boolean).length,
  asks: [
    { say: "count the words in: the cat sat on the mat", args: { text: "the cat sat on the mat" } },
    { say: "how long is this tweet in terms of vocabulary items: 'shipping the new release today, thanks all'", args: { text: "shipping the new release today, thanks all" } },
    { say: "how many terms does 'please find attached the signed copy' have? it must fit a short subject line", args: { text: "please find attached the signed copy" } },
  ],
};

const INITIALS: ReuseTask = {
  name: "transform:initials_of_name",
  intent: "get the initials of a full name",
  code: 'return args.name.split(/\\s+/).filter(Boolean).map((w) => w[0].toUpperCase()).join("");',
  expect: (a) =>
    (a.args.name as string)
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => w[0]!.toUpperCase())
      .join(""),
  asks: [
    { say: "initials of Ada Lovelace", args: { name: "Ada Lovelace" } },
    { say: "monogram letters for grace brewster hopper?", args: { name: "grace brewster hopper" } },
    { say: "what would Alan Mathison Turing sign with if he only used first letters?", args: { name: "Alan Mathison Turing" } },
  ],
};

const BMI: ReuseTask = {
  name: "util:body_mass_index",
  intent: "compute the body mass index from weight in kg and height in cm",
  code: "const m = args.height_cm / 100;\nreturn Math.round((args.weight_kg / (m * m)) * 10) / 10;",
  expect: (a) => Math.round(((a.args.weight_kg as number) / ((a.args.height_cm as number) / 100) ** 2) * 10) / 10,
  asks: [
    { say: "body mass index for 70 kg and 175 cm", args: { weight_kg: 70, height_cm: 175 } },
    { say: "I'm 182 cm and weigh 90 kilos, where do I land on the BMI scale?", args: { weight_kg: 90, height_cm: 182 } },
    { say: "patient: 1 m 60, 52 kg. what's their weight-to-height ratio score?", args: { weight_kg: 52, height_cm: 160 } },
  ],
};

export const TASKS: readonly ReuseTask[] = [
  COUNT_LINES,
  COUNT_WORDS,
  READ_JSON_FIELD,
  LIST_JSON_KEYS,
  SUM_CSV,
  AVERAGE_CSV,
  COUNT_CSV_ROWS,
  FIND_BY_EXT,
  FILE_SIZE,
  GREP_LINES,
  HEAD_LINES,
  LAST_LINE,
  COPY_FILE,
  APPEND_LINE,
  REPLACE_WORD,
  PACKAGE_VERSION,
  COUNT_TODOS,
  MERGE_JSON,
  INI_VALUE,
  MD_HEADINGS,
  COUNT_ENTRIES,
  DEDUPE_LINES,
  C_TO_F,
  F_TO_C,
  METERS_TO_FEET,
  COMPOUND_INTEREST,
  PERCENT_CHANGE,
  SLUGIFY,
  WRAP_TEXT,
  TOP_WORDS,
  DAYS_BETWEEN,
  IS_PRIME,
  TITLE_CASE,
  MEDIAN,
  CAMEL_TO_SNAKE,
  TEXT_WORDS,
  INITIALS,
  BMI,
];

/** Checks the set's shape: 2-5 repeats per task, the same inputs in each ask, no file written twice. */
export function checkTasks(tasks: readonly ReuseTask[]): void {
  const owner = new Map<string, string>();
  for (const t of tasks) {
    const repeats = t.asks.length - 1;
    if (repeats < 2 || repeats > 5) throw new Error(`${t.name}: ${repeats} repeats (2-5 expected)`);
    const keys = Object.keys(t.asks[0]!.args).sort().join(",");
    for (const a of t.asks) {
      if (Object.keys(a.args).sort().join(",") !== keys) throw new Error(`${t.name}: "${a.say}" has other inputs than the first ask (${keys})`);
      for (const [p, content] of Object.entries(a.files ?? {})) {
        const seen = owner.get(p);
        if (seen !== undefined && seen !== content) throw new Error(`${t.name}: ${p} is written by two asks with different contents`);
        owner.set(p, content);
      }
    }
  }
}
