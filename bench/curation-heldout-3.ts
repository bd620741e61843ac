// The third held-out curation set: 31 snippets written after held-out set 2 had been looked at
// once (at commit b7b1091) and before any change made in its light. Not tuned on.
import type { Snippet } from "./curation-tuning.ts";

const sh = (command: string) => `return await mcp.shell.exec({command: ${JSON.stringify(command)}})`;

export const HELD_OUT_3: Snippet[] = [
  [
    "Read tsconfig.json and return compilerOptions",
    ["filesystem:read_file"],
    "return JSON.parse(await mcp.filesystem.read_file({path: 'tsconfig.json'})).compilerOptions",
    "fs:read_tsconfig",
  ],
  [
    "Lists all TODO comments in the src directory",
    ["filesystem:search_files", "filesystem:read_file"],
    "const out = []; for (const f of await mcp.filesystem.search_files({path: 'src', pattern: '**/*.ts'})) out.push(...(await mcp.filesystem.read_file({path: f})).split('\\n').filter(l => l.includes('TODO'))); return out",
    "fs:find_todos",
  ],
  [
    "Write a summary of the test results to results.md",
    ["filesystem:write_file"],
    "await mcp.filesystem.write_file({path: 'results.md', content: '# Results\\n' + args.summary})",
    "fs:write_test_summary",
  ],
  ["Copy the assets folder to the build directory", ["shell:exec"], sh("cp -r assets build/"), "shell:copy_assets"],
  ["delete log files older than a week", ["shell:exec"], sh("find logs -name '*.log' -mtime +7 -delete"), "shell:delete_old_logs"],
  ["Get the size of the node_modules folder", ["shell:exec"], sh("du -sh node_modules"), "shell:node_modules_size"],
  ["run the type checker", ["shell:exec"], sh("npx tsc --noEmit"), "shell:run_typecheck"],
  ["format the code with prettier", ["shell:exec"], sh("npx prettier --write ."), "shell:format_code"],
  ["Show which files changed in the last commit", ["shell:exec"], sh("git show --name-only --pretty=format: HEAD"), "git:changed_files"],
  ["switch to the main branch", ["shell:exec"], sh("git checkout main"), "git:checkout_main"],
  ["pull the latest changes from origin", ["shell:exec"], sh("git pull origin"), "git:pull_changes"],
  ["list the tags sorted by version", ["shell:exec"], sh("git tag --sort=v:refname"), "git:list_tags"],
  [
    "Fetch open pull requests from the GitHub API",
    ["fetch:fetch"],
    "return await mcp.fetch.fetch({url: 'https://api.github.com/repos/' + args.repo + '/pulls?state=open'})",
    "api:fetch_pull_requests",
  ],
  [
    "post a comment on an issue",
    ["github:add_issue_comment"],
    "return await mcp.github.add_issue_comment({owner: args.owner, repo: args.repo, issue_number: args.n, body: args.text})",
    "api:post_issue_comment",
  ],
  ["query the weather API for tomorrow's forecast", ["fetch:fetch"], "return await mcp.fetch.fetch({url: 'https://api.weather.example/forecast?days=1'})", "api:fetch_forecast"],
  [
    "download an image and save it to disk",
    ["fetch:fetch", "filesystem:write_file"],
    "const img = await mcp.fetch.fetch({url: args.url}); await mcp.filesystem.write_file({path: args.path, content: img})",
    "api:download_image",
  ],
  [
    "look up a word in the dictionary API",
    ["fetch:fetch"],
    "return await mcp.fetch.fetch({url: 'https://api.dictionaryapi.dev/api/v2/entries/en/' + args.word})",
    "api:lookup_word",
  ],
  ["parse a query string into an object", [], "return Object.fromEntries(new URLSearchParams(args.qs))", "transform:parse_query_string"],
  [
    "convert a list of objects to a csv string",
    [],
    "const keys = Object.keys(args.rows[0]); return [keys.join(','), ...args.rows.map(r => keys.map(k => r[k]).join(','))].join('\\n')",
    "transform:objects_to_csv",
  ],
  ["group transactions by month", [], "const g = {}; for (const t of args.transactions) (g[t.date.slice(0, 7)] ??= []).push(t); return g", "transform:group_by_month"],
  ["truncate a string to a maximum length", [], "return args.s.length > args.max ? args.s.slice(0, args.max - 1) + '…' : args.s", "transform:truncate_string"],
  ["validate an email address", [], "return /^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(args.email)", "util:validate_email"],
  ["compute the average of a list of numbers", [], "return args.numbers.reduce((a, b) => a + b, 0) / args.numbers.length", "util:compute_average"],
  ["generate a random password", [], "return Array.from(crypto.getRandomValues(new Uint8Array(args.length ?? 16)), b => (b % 36).toString(36)).join('')", "util:generate_password"],
  [
    "Summarize the README with the language model",
    ["filesystem:read_file", "ai:complete"],
    "const t = await mcp.filesystem.read_file({path: 'README.md'}); return await mcp.ai.complete({prompt: 'Summarize:\\n' + t})",
    "ai:summarize_readme",
  ],
  ["classify the sentiment of a review", ["ai:complete"], "return await mcp.ai.complete({prompt: 'Positive, negative or neutral? ' + args.review})", "ai:classify_sentiment"],
  [
    "translate UI strings to French",
    ["ai:complete"],
    "return await mcp.ai.complete({prompt: 'Translate these UI strings to French: ' + JSON.stringify(args.strings)})",
    "ai:translate_strings",
  ],
  [
    "select the ten most recent orders",
    ["sqlite:read_query"],
    "return await mcp.sqlite.read_query({query: 'SELECT * FROM orders ORDER BY created_at DESC LIMIT 10'})",
    "db:list_recent_orders",
  ],
  ["add an index on the email column", ["sqlite:write_query"], "return await mcp.sqlite.write_query({query: 'CREATE INDEX idx_email ON users(email)'})", "db:create_email_index"],
  ["store a key value pair in redis", ["redis:set"], "return await mcp.redis.set({key: args.key, value: args.value})", "db:set_key"],
  [
    "create an entity for a person in memory",
    ["memory:create_entities"],
    "return await mcp.memory.create_entities({entities: [{name: args.name, entityType: 'person', observations: []}]})",
    "memory:create_entity",
  ],
];
