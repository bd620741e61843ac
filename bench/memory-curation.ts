// Procedural memory part 2 (issue 13): version resolution by date among 100 versions, and
// heuristic curation on 36 snippets named the way a careful person would (share with the right
// namespace, with a valid name, exactly right). dns:query at scale: bench/memory-query.ts.
// Run: bun bench/memory-curation.ts [--misses]
import { parseArgs } from "node:util";
import { codeHash } from "../src/memory/code-hash.ts";
import { suggestName, type CurationInput } from "../src/memory/curation.ts";
import { checkName } from "../src/memory/names.ts";
import { pickVersion } from "../src/memory/versions.ts";
import { FRESH, HELDOUT } from "./curation-heldout.ts";
import { printTable, summarize } from "./stats.ts";

const { values } = parseArgs({ options: { misses: { type: "boolean", default: false } } });

// --- version resolution by date among 100 versions ------------------------------------------------
const versions = Array.from({ length: 100 }, (_, i) => ({
  version_tag: `${1 + Math.floor(i / 20)}.${i % 20}.0`,
  created_at: new Date(Date.UTC(2026, 0, 1) + i * 3 * 86_400_000).toISOString(),
}));
const dates = Array.from({ length: 1000 }, (_, i) => new Date(Date.UTC(2026, 0, 1) + (i % 300) * 86_400_000).toISOString().slice(0, 10));
const vs: number[] = [];
for (const d of dates) {
  const a = performance.now();
  pickVersion(versions, d);
  vs.push(performance.now() - a);
}
printTable("version resolution by date (@YYYY-MM-DD) among 100 versions, ms", { pickVersion: summarize(vs) });
console.log(`target: p95 <= 0.1 ms\n`);

// --- heuristic curation -----------------------------------------------------------------------------
// [intent, tools used, code, the name a careful person gives]
const SNIPPETS: [string, string[], string, string][] = [
  ["read a json file and parse it", ["filesystem:read_file"], "return JSON.parse(await mcp.filesystem.read_file({path: args.path}))", "fs:read_json"],
  ["write an object to a json file", ["filesystem:write_file"], "await mcp.filesystem.write_file({path: args.path, content: JSON.stringify(args.value)})", "fs:write_json"],
  ["copy a file before editing it as a backup", ["filesystem:read_file", "filesystem:write_file"], "const t = await mcp.filesystem.read_file({path: args.path}); await mcp.filesystem.write_file({path: args.path + '.bak', content: t})", "fs:backup_file"],
  ["list the files in a directory", ["filesystem:list_directory"], "return await mcp.filesystem.list_directory({path: args.path})", "fs:list_directory"],
  ["find all typescript files", ["filesystem:search_files"], "return await mcp.filesystem.search_files({pattern: '**/*.ts'})", "fs:find_typescript_files"],
  ["count lines in a file", ["filesystem:read_file"], "return (await mcp.filesystem.read_file({path: args.path})).split('\\n').length", "fs:count_lines"],
  ["read a yaml config file", ["filesystem:read_file"], "return await mcp.filesystem.read_file({path: 'config.yaml'})", "fs:read_yaml_config"],
  ["delete temporary files", ["shell:exec"], "return await mcp.shell.exec({command: 'rm -f tmp/*'})", "shell:delete_temp_files"],
  ["show the current git branch", ["shell:exec"], "return await mcp.shell.exec({command: 'git branch --show-current'})", "git:current_branch"],
  ["show the git status", ["shell:exec"], "return await mcp.shell.exec({command: 'git status --short'})", "git:show_status"], // names are action_target: "git:status" is not a valid name
  ["list recent git commits", ["shell:exec"], "return await mcp.shell.exec({command: 'git log --oneline -10'})", "git:list_commits"],
  ["create a git tag for the release", ["shell:exec"], "return await mcp.shell.exec({command: 'git tag ' + args.tag})", "git:create_tag"],
  ["show the diff of staged changes", ["shell:exec"], "return await mcp.shell.exec({command: 'git diff --cached'})", "git:staged_diff"],
  ["run the test suite", ["shell:exec"], "return await mcp.shell.exec({command: 'npm test'})", "shell:run_tests"],
  ["install npm dependencies", ["shell:exec"], "return await mcp.shell.exec({command: 'npm install'})", "shell:install_dependencies"],
  ["check disk usage of the project", ["shell:exec"], "return await mcp.shell.exec({command: 'du -sh .'})", "shell:disk_usage"],
  ["fetch a url and return the body", ["fetch:fetch"], "return await mcp.fetch.fetch({url: args.url})", "api:fetch_url"],
  ["download a file from a url", ["fetch:fetch", "filesystem:write_file"], "const b = await mcp.fetch.fetch({url: args.url}); await mcp.filesystem.write_file({path: args.path, content: b})", "api:download_file"],
  ["post a message to a webhook", ["fetch:fetch"], "return await mcp.fetch.fetch({url: args.url, method: 'POST', body: args.text})", "api:post_webhook"],
  ["get the weather forecast from the api", ["fetch:fetch"], "return await mcp.fetch.fetch({url: 'https://api.weather/forecast'})", "api:get_weather_forecast"],
  ["convert csv text to json", [], "return args.csv.split('\\n').map(l => l.split(','))", "transform:csv_to_json"],
  ["convert json to yaml", [], "return toYaml(args.value)", "transform:json_to_yaml"],
  ["slugify a title", [], "return args.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')", "transform:slugify_title"],
  ["flatten a nested object", [], "return flatten(args.obj)", "transform:flatten_object"],
  ["sort items by date", [], "return args.items.sort((a, b) => a.date - b.date)", "transform:sort_items"],
  ["format bytes as a human readable size", [], "return (args.n / 1024).toFixed(1) + ' KB'", "util:format_bytes"],
  ["generate a random id", [], "return Math.random().toString(36).slice(2)", "util:generate_id"],
  ["parse a cron expression", [], "return parseCron(args.expr)", "util:parse_cron"],
  ["summarize a text with the model", ["ai:complete"], "return await mcp.ai.complete({prompt: 'Summarize: ' + args.text})", "ai:summarize_text"],
  ["translate a paragraph to spanish", ["ai:complete"], "return await mcp.ai.complete({prompt: 'Translate to Spanish: ' + args.text})", "ai:translate_text"],
  ["classify an issue as bug or feature", ["ai:complete"], "return await mcp.ai.complete({prompt: 'bug or feature? ' + args.text})", "ai:classify_issue"],
  ["query the users table", ["sqlite:query"], "return await mcp.sqlite.query({sql: 'SELECT * FROM users'})", "db:query_users"],
  ["count rows in a table", ["sqlite:query"], "return await mcp.sqlite.query({sql: 'SELECT COUNT(*) FROM ' + args.table})", "db:count_rows"],
  ["export a table to csv", ["sqlite:query", "filesystem:write_file"], "const r = await mcp.sqlite.query({sql: 'SELECT * FROM ' + args.table}); await mcp.filesystem.write_file({path: 'out.csv', content: r})", "db:export_table"],
  ["remember a fact in the knowledge graph", ["memory:create_entities"], "return await mcp.memory.create_entities({entities: [args.fact]})", "memory:create_entity"],
  ["search the knowledge graph for a name", ["memory:search_nodes"], "return await mcp.memory.search_nodes({query: args.name})", "memory:search_nodes"],
];
function evaluate(label: string, set: [string, string[], string, string][]) {
  let nsRight = 0;
  let valid = 0;
  let exact = 0;
  const right: number[] = [];
  const wrong: number[] = [];
  const misses: string[] = [];
  for (const [i, [intent, tools, code, want]] of set.entries()) {
    const c: CurationInput = { id: String(i), currentName: `unnamed_${codeHash(code).slice(0, 8)}`, intent, description: intent, code, tools_used: tools };
    const s = suggestName(c, () => false);
    if (s.suggestedName.split(":")[0] === want.split(":")[0]) nsRight++;
    if (checkName(s.suggestedName).ok) valid++;
    if (s.suggestedName === want) {
      exact++;
      right.push(s.confidence);
    } else {
      wrong.push(s.confidence);
      misses.push(`  "${intent}": ${s.suggestedName} (wanted ${want}, confidence ${s.confidence.toFixed(2)})`);
    }
  }
  const pct = (n: number) => `${Math.round((100 * n) / set.length)}%`;
  const mean = (xs: number[]) => (xs.length ? (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2) : "-");
  // `auto` applies what is above 0.8.
  const auto = [...right, ...wrong].filter((x) => x > 0.8).length;
  const autoWrong = wrong.filter((x) => x > 0.8).length;
  console.log(
    `heuristic curation, ${label} (${set.length} snippets): right namespace ${pct(nsRight)}, valid name ${pct(valid)}, exactly right ${pct(exact)}; ` +
      `mean confidence right ${mean(right)}, wrong ${mean(wrong)}; auto (> 0.8) would apply ${auto}, of them wrong ${autoWrong}`,
  );
  if (process.argv.includes("--misses")) console.log(misses.join("\n"));
}
evaluate("tuning set", SNIPPETS);
evaluate("held-out set", HELDOUT);
evaluate("fresh set (written after the rework, never tuned on)", FRESH);
