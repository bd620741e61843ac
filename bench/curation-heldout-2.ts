// The second held-out curation set: 36 snippets written after the first held-out set
// (bench/curation-heldout-1.ts) had been looked at once (at commit edd9fe6) and before any change
// made in the light of it. Looked at once at commit b7b1091, then tuned on as well;
// bench/curation-heldout-3.ts is the set not tuned on.
import type { Snippet } from "./curation-tuning.ts";

const sh = (command: string) => `return await mcp.shell.exec({command: ${JSON.stringify(command)}})`;

export const HELD_OUT_2: Snippet[] = [
  [
    "open the changelog and return the latest entry",
    ["filesystem:read_file"],
    "return (await mcp.filesystem.read_file({path: 'CHANGELOG.md'})).split('\\n## ')[1]",
    "fs:read_changelog_entry",
  ],
  [
    "Replace tabs with spaces in a source file",
    ["filesystem:read_file", "filesystem:write_file"],
    "const t = await mcp.filesystem.read_file({path: args.path}); await mcp.filesystem.write_file({path: args.path, content: t.replace(/\\t/g, '  ')})",
    "fs:replace_tabs",
  ],
  [
    "append a line to the notes file",
    ["filesystem:read_file", "filesystem:write_file"],
    "const t = await mcp.filesystem.read_file({path: 'notes.md'}); await mcp.filesystem.write_file({path: 'notes.md', content: t + '\\n' + args.line})",
    "fs:append_line",
  ],
  [
    "find files larger than 10 MB",
    ["filesystem:search_files", "filesystem:get_file_info"],
    "const fs = await mcp.filesystem.search_files({pattern: '**/*'}); return fs.filter(async f => (await mcp.filesystem.get_file_info({path: f})).size > 10e6)",
    "fs:find_large_files",
  ],
  ["check if a file exists", ["filesystem:get_file_info"], "try { await mcp.filesystem.get_file_info({path: args.path}); return true } catch { return false }", "fs:file_exists"],
  [
    "rename all .jpeg files to .jpg",
    ["filesystem:search_files", "filesystem:move_file"],
    "for (const f of await mcp.filesystem.search_files({pattern: '**/*.jpeg'})) await mcp.filesystem.move_file({source: f, destination: f.replace(/\\.jpeg$/, '.jpg')})",
    "fs:rename_jpeg_files",
  ],
  ["show the last 5 commits by me", ["shell:exec"], sh('git log -5 --author="$(git config user.email)"'), "git:list_my_commits"],
  ["create a new branch from main", ["shell:exec"], sh("git checkout -b feature main"), "git:create_branch"],
  ["undo the last commit but keep the changes", ["shell:exec"], sh("git reset --soft HEAD~1"), "git:undo_commit"],
  ["show the remote url of the repo", ["shell:exec"], sh("git remote get-url origin"), "git:remote_url"],
  ["count commits per author", ["shell:exec"], sh("git shortlog -sn"), "git:count_commits_per_author"],
  ["kill the process running on a port", ["shell:exec"], sh("kill $(lsof -t -i:8080)"), "shell:kill_port_process"],
  ["start the dev server", ["shell:exec"], sh("npm run dev"), "shell:start_dev_server"],
  ["print the node version", ["shell:exec"], sh("node --version"), "shell:node_version"],
  ["zip the dist folder", ["shell:exec"], sh("zip -r dist.zip dist"), "shell:zip_dist"],
  ["search npm for a package", ["fetch:fetch"], "return await mcp.fetch.fetch({url: 'https://registry.npmjs.org/-/v1/search?text=' + args.q})", "api:search_npm"],
  ["get the current bitcoin price", ["fetch:fetch"], "return await mcp.fetch.fetch({url: 'https://api.coinbase.com/v2/prices/BTC-USD/spot'})", "api:get_bitcoin_price"],
  ["call the health endpoint of the service", ["fetch:fetch"], "return await mcp.fetch.fetch({url: args.base + '/health'})", "api:check_health"],
  ["upload a file to S3", ["fetch:fetch"], "return await mcp.fetch.fetch({url: args.presigned, method: 'PUT', body: args.content})", "api:upload_file"],
  ["open a GitHub issue", ["github:create_issue"], "return await mcp.github.create_issue({owner: args.owner, repo: args.repo, title: args.title})", "api:create_github_issue"],
  ["strip html tags from a string", [], "return args.s.replace(/<[^>]*>/g, '')", "transform:strip_html"],
  ["merge two objects deeply", [], "return deepMerge(args.a, args.b)", "transform:merge_objects"],
  [
    "split a list into chunks of n",
    [],
    "const out = []; for (let i = 0; i < args.items.length; i += args.n) out.push(args.items.slice(i, i + args.n)); return out",
    "transform:chunk_list",
  ],
  ["pretty print json", [], "return JSON.stringify(args.value, null, 2)", "transform:format_json"],
  ["extract all urls from a text", [], "return args.text.match(/https?:\\/\\/\\S+/g) ?? []", "transform:extract_urls"],
  ["capitalize each word of a title", [], "return args.title.replace(/\\b\\w/g, c => c.toUpperCase())", "transform:title_case"],
  ["convert celsius to fahrenheit", [], "return args.c * 9 / 5 + 32", "util:celsius_to_fahrenheit"],
  ["check if a year is a leap year", [], "const y = args.year; return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0", "util:is_leap_year"],
  ["sleep for a number of milliseconds", [], "await new Promise(r => setTimeout(r, args.ms))", "util:sleep_ms"],
  [
    "tag open issues with a label using the model",
    ["ai:complete"],
    "return await mcp.ai.complete({prompt: 'Label each issue: ' + JSON.stringify(args.issues)})",
    "ai:label_issues",
  ],
  ["generate unit tests for a function", ["ai:complete"], "return await mcp.ai.complete({prompt: 'Write unit tests for:\\n' + args.code})", "ai:generate_tests"],
  [
    "review a pull request diff",
    ["shell:exec", "ai:complete"],
    "const d = await mcp.shell.exec({command: 'git diff main...HEAD'}); return await mcp.ai.complete({prompt: 'Review this diff:\\n' + d})",
    "ai:review_diff",
  ],
  [
    "delete users who never logged in",
    ["sqlite:write_query"],
    "return await mcp.sqlite.write_query({query: 'DELETE FROM users WHERE last_login IS NULL'})",
    "db:delete_inactive_users",
  ],
  [
    "back up the database to a file",
    ["sqlite:read_query", "filesystem:write_file"],
    "const rows = await mcp.sqlite.read_query({query: 'SELECT * FROM users'}); await mcp.filesystem.write_file({path: 'backup.json', content: JSON.stringify(rows)})",
    "db:backup_database",
  ],
  ["show the schema of a table", ["sqlite:describe_table"], "return await mcp.sqlite.describe_table({table_name: args.table})", "db:table_schema"],
  [
    "open a url in the browser and take a screenshot",
    ["puppeteer:puppeteer_navigate", "puppeteer:puppeteer_screenshot"],
    "await mcp.puppeteer.puppeteer_navigate({url: args.url}); return await mcp.puppeteer.puppeteer_screenshot({name: 'page'})",
    "puppeteer:screenshot_page",
  ],
];
