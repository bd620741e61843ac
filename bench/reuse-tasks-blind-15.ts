// The 15th blind reuse stream (`--tasks blind15`), written blind on 2026-12-07 by someone who saw
// only the format (bench/reuse-tasks.ts's types, small functions and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60
// requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names
// and kinds (km to miles vs miles to km, kibibytes vs kilobytes, round up vs down to a multiple,
// trailing vs leading whitespace, US vs European date format, external vs internal links, lines
// added vs deleted, count of fenced blocks vs list of their languages) and 4 single tasks. The
// repeats are worded as different users on different days would ask (terse, chatty, a file name,
// jargon, typos, a non-native speaker); one repeat of each task shares a content word with its
// intent, the other shares none.
import { type Ask, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const num = (a: Ask, key: string) => a.args[key] as number;
const fileLines = (a: Ask) => input(a).split("\n");

const KM_TO_MILES: ReuseTask = {
  name: "math:convert_km_to_miles",
  intent: "convert a distance in kilometres to miles, rounded to 2 decimals",
  code: String.raw`return Math.round((args.distance / 1.609344) * 100) / 100;`,
  expect: (a) => round2(num(a, "distance") * (1000 / 1609.344)),
  asks: [
    { say: "convert 42.195 kilometres to miles, rounded to 2 decimals", args: { distance: 42.195 } },
    { say: "10k race, how many miles is that?", args: { distance: 10 } },
    { say: "my odometer app shows 250 km for the trip — what's that in imperial?", args: { distance: 250 } },
  ],
};

const MILES_TO_KM: ReuseTask = {
  name: "math:convert_miles_to_km",
  intent: "convert a distance in miles to kilometres, rounded to 2 decimals",
  code: String.raw`return Math.round(args.distance * 1.609344 * 100) / 100;`,
  expect: (a) => round2((num(a, "distance") * 1609.344) / 1000),
  asks: [
    { say: "convert 26.2 miles to kilometres, rounded to 2 decimals", args: { distance: 26.2 } },
    { say: "how many km is 13.1 miles?", args: { distance: 13.1 } },
    { say: "a US friend ran 5 mi this morning, what is it in metric please", args: { distance: 5 } },
  ],
};

const BYTES_TO_KIB: ReuseTask = {
  name: "num:convert_bytes_to_kib",
  intent: "convert a byte count to kibibytes (1024 bytes each), rounded to 2 decimals",
  code: String.raw`return Math.round((args.bytes / 1024) * 100) / 100;`,
  expect: (a) => round2(num(a, "bytes") / 2 ** 10),
  asks: [
    { say: "convert 5000 bytes to kibibytes (1024 bytes each), rounded to 2 decimals", args: { bytes: 5000 } },
    { say: "how mny KiB is 123456 bytes", args: { bytes: 123456 } },
    { say: "du says 987654 — express that in KiB pls, binary units", args: { bytes: 987654 } },
  ],
};

const BYTES_TO_KB: ReuseTask = {
  name: "num:convert_bytes_to_kb",
  intent: "convert a byte count to kilobytes (1000 bytes each), rounded to 2 decimals",
  code: String.raw`return Math.round((args.bytes / 1000) * 100) / 100;`,
  expect: (a) => round2(num(a, "bytes") / 10 ** 3),
  asks: [
    { say: "convert 2048 bytes to kilobytes (1000 bytes each), rounded to 2 decimals", args: { bytes: 2048 } },
    { say: "254321 bytes in kilobytes, the SI kind", args: { bytes: 254321 } },
    {
      say: "the upload limit is given in kB (SI, powers of ten). my photo weighs 3456789 B, how much kB is it?",
      args: { bytes: 3456789 },
    },
  ],
};

const ROUND_UP: ReuseTask = {
  name: "math:round_up_to_multiple",
  intent: "round a number up to the next multiple of a step",
  code: String.raw`return Math.ceil(args.value / args.step) * args.step;`,
  expect: (a) => {
    const v = num(a, "value");
    const s = num(a, "step");
    return v % s === 0 ? v : v - (v % s) + s;
  },
  asks: [
    { say: "round 47 up to the next multiple of 5", args: { value: 47, step: 5 } },
    { say: "nearest multiple of 12 at or above 130?", args: { value: 130, step: 12 } },
    {
      say: "we are sending only full crates of 24 bottles. client want 250 bottles, how much bottles we must send?",
      args: { value: 250, step: 24 },
    },
  ],
};

const ROUND_DOWN: ReuseTask = {
  name: "math:round_down_to_multiple",
  intent: "round a number down to the previous multiple of a step",
  code: String.raw`return Math.floor(args.value / args.step) * args.step;`,
  expect: (a) => {
    const v = num(a, "value");
    return v - (v % num(a, "step"));
  },
  asks: [
    { say: "round 83 down to the previous multiple of 10", args: { value: 83, step: 10 } },
    { say: "floor 1000 to a round multiple of 64", args: { value: 1000, step: 64 } },
    { say: "timestamps get bucketed into 15-minute slots — which slot start does minute 52 land in?", args: { value: 52, step: 15 } },
  ],
};

const STRIP_TRAILING: ReuseTask = {
  name: "text:strip_trailing_spaces",
  intent: "remove trailing whitespace from every line of a text file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.replace(/[ \t]+$/, "")).join("\n");`,
  expect: (a) =>
    fileLines(a)
      .map((l) => l.trimEnd())
      .join("\n"),
  asks: [
    {
      say: "remove trailing whitespace from every line of src/app.py",
      args: { path: "src/app.py" },
      files: { "src/app.py": lines("import os   ", "", "def main():  ", "    print(os.getcwd())\t", "    return 0") },
    },
    {
      say: "notes.md: trailing blanks",
      args: { path: "notes.md" },
      files: { "notes.md": lines("# Notes  ", "  - buy milk   ", "  - call Ana", "", "   indented quote  ") },
    },
    {
      say: "git diff keeps showing red blobs at the ends of rows in config/app.yaml, clean them off",
      args: { path: "config/app.yaml" },
      files: { "config/app.yaml": lines("server:   ", "  port: 8080  ", "  host: 0.0.0.0", "db:\t", "  url: postgres://db/app   ") },
    },
  ],
};

const STRIP_LEADING: ReuseTask = {
  name: "text:strip_leading_spaces",
  intent: "remove leading whitespace from every line of a text file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.replace(/^[ \t]+/, "")).join("\n");`,
  expect: (a) =>
    fileLines(a)
      .map((l) => l.trimStart())
      .join("\n"),
  asks: [
    {
      say: "remove leading whitespace from every line of poem.txt",
      args: { path: "poem.txt" },
      files: { "poem.txt": lines("   The fog comes  ", "      on little cat feet.", "", "  It sits looking   ") },
    },
    {
      say: "dedent everything in snippets/query.sql — all whitespace at the start of each row gone",
      args: { path: "snippets/query.sql" },
      files: { "snippets/query.sql": lines("    SELECT id, name  ", "      FROM users ", "\t WHERE active = 1", "    ORDER BY name;") },
    },
    {
      say: "pasted from an email, mail/quote.txt has indentation in front of each row; flush it all to the left margin",
      args: { path: "mail/quote.txt" },
      files: { "mail/quote.txt": lines("    > Hi Bo,   ", "    > the invoice is attached. ", "", "\t> Best, Ana") },
    },
  ],
};

const DATE_US: ReuseTask = {
  name: "text:format_date_us",
  intent: "rewrite an ISO date (YYYY-MM-DD) as MM/DD/YYYY",
  code: String.raw`const [y, m, d] = args.date.split("-");
return m + "/" + d + "/" + y;`,
  expect: (a) => (a.args.date as string).replace(/^(\d{4})-(\d{2})-(\d{2})$/, "$2/$3/$1"),
  asks: [
    { say: "rewrite the ISO date 2026-03-14 as MM/DD/YYYY", args: { date: "2026-03-14" } },
    { say: "date 2025-11-28 american style pls", args: { date: "2025-11-28" } },
    { say: "form for the embassy in Washington wants month first, slashes: 1999-07-23", args: { date: "1999-07-23" } },
  ],
};

const DATE_EU: ReuseTask = {
  name: "text:format_date_european",
  intent: "rewrite an ISO date (YYYY-MM-DD) as DD/MM/YYYY",
  code: String.raw`const [y, m, d] = args.date.split("-");
return d + "/" + m + "/" + y;`,
  expect: (a) => (a.args.date as string).replace(/^(\d{4})-(\d{2})-(\d{2})$/, "$3/$2/$1"),
  asks: [
    { say: "rewrite the ISO date 2026-04-30 as DD/MM/YYYY", args: { date: "2026-04-30" } },
    { say: "ISO 2024-02-17 -> european day-first with slashes", args: { date: "2024-02-17" } },
    {
      say: "please, how write 2027-09-05 like in France: day, after month, after year, with / between?",
      args: { date: "2027-09-05" },
    },
  ],
};

const hrefs = (a: Ask) =>
  input(a)
    .split("<a ")
    .slice(1)
    .map((chunk) => chunk.slice(0, chunk.indexOf(">")))
    .filter((tag) => tag.includes('href="'))
    .map((tag) => tag.split('href="')[1]!.split('"')[0]!);
const absolute = (h: string) => h.startsWith("http://") || h.startsWith("https://");

const EXTERNAL_LINKS: ReuseTask = {
  name: "html:list_external_links",
  intent: "list the href targets of links in an HTML file that point to other sites (absolute http/https URLs), in order",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const all = [...t.matchAll(/<a\b[^>]*?\bhref\s*=\s*["']([^"']*)["']/gi)].map((m) => m[1]);
return all.filter((h) => /^https?:\/\//i.test(h));`,
  expect: (a) => hrefs(a).filter(absolute),
  asks: [
    {
      say: "list the href targets of links in site/index.html that point to other sites",
      args: { path: "site/index.html" },
      files: {
        "site/index.html": lines(
          '<html><head><link href="/css/main.css" rel="stylesheet"></head><body>',
          '<nav><a href="/">Home</a> <a href="/blog/">Blog</a></nav>',
          '<p>Built with <a href="https://bun.sh">Bun</a> and hosted on <a class="ext" href="https://pages.github.com/">Pages</a>.</p>',
          '<footer><a href="about.html">About</a> <a href="http://example.org/legal">Legal</a></footer>',
          "</body></html>",
        ),
      },
    },
    {
      say: "outbound links in blog/post.html?",
      args: { path: "blog/post.html" },
      files: {
        "blog/post.html": lines(
          "<article>",
          '<h1>Why we moved</h1><img src="https://cdn.example.com/hero.png">',
          '<p>See <a href="https://www.postgresql.org/docs/">the docs</a>, our <a href="/posts/2025-migration">last post</a>',
          'and <a href="../tags/databases.html">more on databases</a>; benchmarks by <a href="https://example.net/bench?id=4">them</a>.</p>',
          "</article>",
        ),
      },
    },
    {
      say: "before the SEO audit: which third-party addresses does docs/about.htm send readers off to",
      args: { path: "docs/about.htm" },
      files: {
        "docs/about.htm": lines(
          '<div id="team"><a href="team/ana.html">Ana</a>, <a href="team/bo.html">Bo</a></div>',
          '<div>Follow us: <a rel="me" href="https://social.example/@acme">social</a></div>',
          '<div><a href="/contact">Contact</a> | <a href="https://maps.example.com/?q=acme">Map</a></div>',
        ),
      },
    },
  ],
};

const INTERNAL_LINKS: ReuseTask = {
  name: "html:list_internal_links",
  intent: "list the href targets of links in an HTML file that stay on the same site (relative URLs), in order",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const all = [...t.matchAll(/<a\b[^>]*?\bhref\s*=\s*["']([^"']*)["']/gi)].map((m) => m[1]);
return all.filter((h) => !/^[a-z][a-z0-9+.-]*:/i.test(h) && !h.startsWith("//"));`,
  expect: (a) => hrefs(a).filter((h) => !absolute(h)),
  asks: [
    {
      say: "list the href targets of links in www/home.html that stay on the same site",
      args: { path: "www/home.html" },
      files: {
        "www/home.html": lines(
          "<body>",
          '<header><a href="/">Acme</a> <a href="/pricing">Pricing</a> <a href="https://status.acme.example">Status</a></header>',
          '<main><a class="btn" href="signup.html">Sign up</a> or read <a href="https://en.wikipedia.org/wiki/Acme">the legend</a></main>',
          "</body>",
        ),
      },
    },
    {
      say: "pages/contact.html relative hrefs",
      args: { path: "pages/contact.html" },
      files: {
        "pages/contact.html": lines(
          '<form action="/send"><button>Send</button></form>',
          '<p>Or find us on <a href="https://maps.example.com/acme">the map</a>.</p>',
          '<p><a href="../index.html">Back</a> · <a href="faq.html">FAQ</a> · <a href="/jobs/">Jobs</a></p>',
        ),
      },
    },
    {
      say: "our crawler only follows in-domain navigation; what would it follow from shop/cart.htm?",
      args: { path: "shop/cart.htm" },
      files: {
        "shop/cart.htm": lines(
          '<ul><li><a href="/shop/item/42">Blue mug</a></li><li><a href="/shop/item/7">Teapot</a></li></ul>',
          '<a href="https://pay.example.com/checkout?cart=99">Pay</a>',
          '<a href="/shop/">Keep shopping</a> <a href="http://partner.example.org/deals">Deals</a>',
        ),
      },
    },
  ],
};

const numstat = (a: Ask, col: number) =>
  fileLines(a)
    .filter((l) => l.includes("\t"))
    .map((l) => l.split("\t")[col]!)
    .filter((v) => v !== "-")
    .reduce((s, v) => s + Number.parseInt(v, 10), 0);

const LINES_ADDED: ReuseTask = {
  name: "git:sum_lines_added",
  intent: "sum the lines added in git numstat output",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let n = 0;
for (const l of t.split("\n")) {
  const [added] = l.split("\t");
  if (l.includes("\t") && added !== "-") n += Number(added);
}
return n;`,
  expect: (a) => numstat(a, 0),
  asks: [
    {
      say: "sum the lines added in changes/pr-812.numstat (git numstat output)",
      args: { path: "changes/pr-812.numstat" },
      files: { "changes/pr-812.numstat": lines("12\t3\tsrc/server.ts", "0\t41\tsrc/legacy.ts", "88\t0\ttest/server.test.ts", "-\t-\tassets/logo.png") },
    },
    {
      say: "how many lines got added in review/numstat.txt",
      args: { path: "review/numstat.txt" },
      files: { "review/numstat.txt": lines("5\t5\tREADME.md", "130\t12\tlib/parser.js", "2\t60\tlib/old.js") },
    },
    {
      say: "insertions count for the patch summarized in tmp/feature.tsv?",
      args: { path: "tmp/feature.tsv" },
      files: { "tmp/feature.tsv": lines("17\t2\tapp/models/user.rb", "3\t9\tapp/views/show.erb", "-\t-\tpublic/favicon.ico", "44\t1\tspec/user_spec.rb") },
    },
  ],
};

const LINES_DELETED: ReuseTask = {
  name: "git:sum_lines_deleted",
  intent: "sum the lines deleted in git numstat output",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let n = 0;
for (const l of t.split("\n")) {
  const parts = l.split("\t");
  if (parts.length >= 3 && parts[1] !== "-") n += Number(parts[1]);
}
return n;`,
  expect: (a) => numstat(a, 1),
  asks: [
    {
      say: "sum the lines deleted in changes/pr-913.numstat (git numstat output)",
      args: { path: "changes/pr-913.numstat" },
      files: { "changes/pr-913.numstat": lines("4\t20\tsrc/config.go", "31\t7\tsrc/main.go", "-\t-\tdocs/diagram.svg", "0\t15\tMakefile") },
    },
    {
      say: "deleted line total, stats/refactor.numstat",
      args: { path: "stats/refactor.numstat" },
      files: { "stats/refactor.numstat": lines("210\t180\tpkg/core/engine.py", "9\t0\tpkg/core/__init__.py", "1\t33\tsetup.cfg") },
    },
    {
      say: "how much code did that cleanup remove? the diff stats are in out/cleanup.tsv",
      args: { path: "out/cleanup.tsv" },
      files: { "out/cleanup.tsv": lines("0\t120\tsrc/unused/strutil.c", "6\t2\tsrc/main.c", "0\t48\tsrc/unused/old.h") },
    },
  ],
};

const fences = (a: Ask) => fileLines(a).filter((l) => l.trimStart().startsWith("```"));

const COUNT_FENCES: ReuseTask = {
  name: "md:count_fenced_blocks",
  intent: "count the fenced code blocks in a Markdown file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let open = false;
let n = 0;
for (const l of t.split("\n")) {
  if (/^\s*\x60{3}/.test(l)) {
    if (!open) n++;
    open = !open;
  }
}
return n;`,
  expect: (a) => fences(a).length / 2,
  asks: [
    {
      say: "count the fenced code blocks in docs/install.md",
      args: { path: "docs/install.md" },
      files: {
        "docs/install.md": lines("# Install", "", "```bash", "npm i acme", "```", "", "Then:", "", "```js", "import acme from 'acme';", "```"),
      },
    },
    {
      say: "how many code snippets does README.md contain",
      args: { path: "README.md" },
      files: {
        "README.md": lines("# acme", "```", "plain output", "```", "Usage:", "```python", "import acme", "```", "```python", "acme.run()", "```"),
      },
    },
    {
      say: "triple-backtick sections in wiki/Deploy.mdx — how many?",
      args: { path: "wiki/Deploy.mdx" },
      files: {
        "wiki/Deploy.mdx": lines("## Deploy", "```yaml", "stage: prod", "```", "Check it with `kubectl get pods`.", "```sh", "kubectl apply -f k8s/", "```"),
      },
    },
  ],
};

const FENCE_LANGUAGES: ReuseTask = {
  name: "md:list_fence_languages",
  intent: "list the language tags of the fenced code blocks in a Markdown file, in order",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let open = false;
const langs = [];
for (const l of t.split("\n")) {
  const m = l.match(/^\s*\x60{3}\s*([^\s\x60]*)/);
  if (!m) continue;
  if (!open && m[1]) langs.push(m[1]);
  open = !open;
}
return langs;`,
  expect: (a) =>
    fences(a)
      .filter((_, i) => i % 2 === 0)
      .map((l) => l.trim().slice(3).trim().split(" ")[0]!)
      .filter(Boolean),
  asks: [
    {
      say: "list the language tags of the fenced code blocks in docs/api.md, in order",
      args: { path: "docs/api.md" },
      files: {
        "docs/api.md": lines("# API", "```ts", "const c = new Client();", "```", "Response:", "```json", '{ "ok": true }', "```", "```ts", "c.close();", "```"),
      },
    },
    {
      say: "which language is each snippet in, notes/cheatsheet.md",
      args: { path: "notes/cheatsheet.md" },
      files: {
        "notes/cheatsheet.md": lines("## git", "```sh", "git rebase -i HEAD~3", "```", "## sql", "```sql", "SELECT 1;", "```", "## misc", "```", "just text", "```"),
      },
    },
    {
      say: "syntax highlighting hints used in tutorial/intro.mdx, one per ``` opener please",
      args: { path: "tutorial/intro.mdx" },
      files: {
        "tutorial/intro.mdx": lines("Start:", "```rust", 'fn main() { println!("hi"); }', "```", "Build:", "```toml", "[package]", 'name = "intro"', "```"),
      },
    },
  ],
};

const DUPLICATE_KEYS: ReuseTask = {
  name: "env:find_duplicate_keys",
  intent: "find the keys defined more than once in an env file of KEY=value lines, sorted",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const seen = {};
for (const raw of t.split("\n")) {
  const l = raw.trim();
  if (!l || l.startsWith("#")) continue;
  const i = l.indexOf("=");
  if (i < 0) continue;
  const k = l.slice(0, i).replace(/^export\s+/, "").trim();
  seen[k] = (seen[k] || 0) + 1;
}
return Object.keys(seen).filter((k) => seen[k] > 1).sort();`,
  expect: (a) => {
    const keys = fileLines(a)
      .map((l) => l.trim())
      .filter((l) => l.includes("=") && !l.startsWith("#"))
      .map((l) => l.split("=")[0]!.replace("export ", "").trim());
    return [...new Set(keys.filter((k, i) => keys.indexOf(k) !== i))].sort();
  },
  asks: [
    {
      say: "find the keys defined more than once in deploy/app.vars, sorted",
      args: { path: "deploy/app.vars" },
      files: { "deploy/app.vars": lines("PORT=8080", "DB_URL=postgres://db/app", "# override", "PORT=9090", "LOG_LEVEL=info", "API_KEY=abc", "LOG_LEVEL=debug") },
    },
    {
      say: "dup keys in config/local.vars?",
      args: { path: "config/local.vars" },
      files: { "config/local.vars": lines("export NODE_ENV=development", "SECRET=x", "", "NODE_ENV=test", "#SECRET=y", "CACHE_TTL=60") },
    },
    {
      say: "compose keeps picking the wrong DB_HOST; which variables get assigned repeatedly in ops/stack.vars",
      args: { path: "ops/stack.vars" },
      files: { "ops/stack.vars": lines("DB_HOST=db1", "DB_PORT=5432", "REDIS_URL=redis://cache", "DB_HOST=db2", "REDIS_URL=redis://cache2", "DB_HOST=db3") },
    },
  ],
};

const QUERY_PARAMS: ReuseTask = {
  name: "http:parse_query_params",
  intent: "parse the query string of a URL into an object of parameters",
  code: String.raw`const q = args.url.split("#")[0].split("?")[1] || "";
const out = {};
for (const part of q.split("&")) {
  if (!part) continue;
  const i = part.indexOf("=");
  const k = i < 0 ? part : part.slice(0, i);
  const v = i < 0 ? "" : part.slice(i + 1);
  out[decodeURIComponent(k.replace(/\+/g, " "))] = decodeURIComponent(v.replace(/\+/g, " "));
}
return out;`,
  expect: (a) => Object.fromEntries(new URL(a.args.url as string).searchParams),
  asks: [
    {
      say: "parse the query string of https://shop.example.com/search?q=red+shoes&size=42&sort=price into an object of parameters",
      args: { url: "https://shop.example.com/search?q=red+shoes&size=42&sort=price" },
    },
    {
      say: "query params of https://api.example.org/v2/items?page=3&per_page=50&filter=open%20bugs",
      args: { url: "https://api.example.org/v2/items?page=3&per_page=50&filter=open%20bugs" },
    },
    {
      say: "what key/values does this tracking link carry: https://news.example.net/story?id=9812&utm_source=newsletter&utm_medium=email#top",
      args: { url: "https://news.example.net/story?id=9812&utm_source=newsletter&utm_medium=email#top" },
    },
  ],
};

const BUSIEST_MINUTE: ReuseTask = {
  name: "log:find_busiest_minute",
  intent: "find the minute (HH:MM) with the most entries in a timestamped log file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const counts = {};
for (const l of t.split("\n")) {
  const m = l.match(/T(\d{2}:\d{2}):\d{2}/);
  if (m) counts[m[1]] = (counts[m[1]] || 0) + 1;
}
let best = null;
for (const k of Object.keys(counts).sort()) if (best === null || counts[k] > counts[best]) best = k;
return best;`,
  expect: (a) => {
    const counts = new Map<string, number>();
    for (const l of fileLines(a).filter((l) => l[10] === "T")) counts.set(l.slice(11, 16), (counts.get(l.slice(11, 16)) ?? 0) + 1);
    return [...counts].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0]![0];
  },
  asks: [
    {
      say: "find the minute with the most entries in logs/api.log",
      args: { path: "logs/api.log" },
      files: {
        "logs/api.log": lines(
          "2026-12-01T10:14:02Z INFO GET /users",
          "2026-12-01T10:14:40Z INFO GET /users/7",
          "2026-12-01T10:15:01Z WARN slow query",
          "2026-12-01T10:15:09Z INFO GET /orders",
          "2026-12-01T10:15:33Z INFO POST /orders",
          "2026-12-01T10:16:12Z INFO GET /health",
        ),
      },
    },
    {
      say: "peak minute in var/worker.log?",
      args: { path: "var/worker.log" },
      files: {
        "var/worker.log": lines(
          "2026-11-30T23:58:10Z job 1 done",
          "2026-11-30T23:59:01Z job 2 done",
          "2026-11-30T23:59:45Z job 3 done",
          "2026-12-01T00:00:05Z job 4 done",
          "2026-12-01T00:00:20Z job 5 done",
          "2026-12-01T00:00:41Z job 6 done",
          "2026-12-01T00:00:59Z job 7 done",
        ),
      },
    },
    {
      say: "traffic spike — at what clock time, to the 60-second bucket, did web/access.txt get hammered hardest",
      args: { path: "web/access.txt" },
      files: {
        "web/access.txt": lines(
          "2026-12-05T08:01:00Z 200 /",
          "2026-12-05T08:01:30Z 200 /login",
          "2026-12-05T08:02:10Z 200 /",
          "2026-12-05T08:03:00Z 500 /api/cart",
          "2026-12-05T08:03:01Z 500 /api/cart",
          "2026-12-05T08:03:02Z 500 /api/cart",
          "2026-12-05T08:03:50Z 200 /",
        ),
      },
    },
  ],
};

const uniqueLines = (a: Ask) => [...new Set(fileLines(a).filter((l) => l !== ""))];

const WRITE_UNIQUE: ReuseTask = {
  name: "text:write_unique_lines",
  intent: "write a copy of a text file with duplicate lines removed, keeping first occurrences; return how many lines were kept",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const seen = new Set();
const kept = [];
for (const l of t.split("\n")) {
  if (l === "" || seen.has(l)) continue;
  seen.add(l);
  kept.push(l);
}
await mcp.filesystem.write_file({ path: args.out, content: kept.join("\n") + "\n" });
return kept.length;`,
  expect: (a) => uniqueLines(a).length,
  leaves: (a) => ({ [a.args.out as string]: lines(...uniqueLines(a)) }),
  asks: [
    {
      say: "write a copy of lists/emails.txt with duplicate lines removed to lists/emails.unique.txt, keeping first occurrences",
      args: { path: "lists/emails.txt", out: "lists/emails.unique.txt" },
      files: { "lists/emails.txt": lines("ana@example.com", "bo@example.com", "ana@example.com", "chen@example.com", "bo@example.com") },
    },
    {
      say: "drop duplicate rows from tags.txt into tags.dedup.txt",
      args: { path: "tags.txt", out: "tags.dedup.txt" },
      files: { "tags.txt": lines("rust", "go", "zig", "go", "rust", "c", "go") },
    },
    {
      say: "uniq wihtout sorting: data/ids.txt → data/ids.clean.txt, and tell me the count left",
      args: { path: "data/ids.txt", out: "data/ids.clean.txt" },
      files: { "data/ids.txt": lines("1007", "1003", "1007", "1010", "1003", "1001") },
    },
  ],
};

export const BLIND_15_TASKS: readonly ReuseTask[] = [
  KM_TO_MILES,
  MILES_TO_KM,
  BYTES_TO_KIB,
  BYTES_TO_KB,
  ROUND_UP,
  ROUND_DOWN,
  STRIP_TRAILING,
  STRIP_LEADING,
  DATE_US,
  DATE_EU,
  EXTERNAL_LINKS,
  INTERNAL_LINKS,
  LINES_ADDED,
  LINES_DELETED,
  COUNT_FENCES,
  FENCE_LANGUAGES,
  DUPLICATE_KEYS,
  QUERY_PARAMS,
  BUSIEST_MINUTE,
  WRITE_UNIQUE,
];
