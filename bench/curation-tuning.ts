// The curation tuning set: 36 snippets (intent, tools used, code, the name a careful person gives)
// the heuristics of src/memory/curation.ts were tuned on; the held-out sets are in
// bench/curation-heldout*.ts. "show the git status" was labelled git:status, which pml's name
// format refuses (the action needs action_target): git:show_status.
export type Snippet = [intent: string, tools: string[], code: string, want: string];

export const TUNING: Snippet[] = [
  ["read a json file and parse it", ["filesystem:read_file"], "return JSON.parse(await mcp.filesystem.read_file({path: args.path}))", "fs:read_json"],
  ["write an object to a json file", ["filesystem:write_file"], "await mcp.filesystem.write_file({path: args.path, content: JSON.stringify(args.value)})", "fs:write_json"],
  [
    "copy a file before editing it as a backup",
    ["filesystem:read_file", "filesystem:write_file"],
    "const t = await mcp.filesystem.read_file({path: args.path}); await mcp.filesystem.write_file({path: args.path + '.bak', content: t})",
    "fs:backup_file",
  ],
  ["list the files in a directory", ["filesystem:list_directory"], "return await mcp.filesystem.list_directory({path: args.path})", "fs:list_directory"],
  ["find all typescript files", ["filesystem:search_files"], "return await mcp.filesystem.search_files({pattern: '**/*.ts'})", "fs:find_typescript_files"],
  ["count lines in a file", ["filesystem:read_file"], "return (await mcp.filesystem.read_file({path: args.path})).split('\\n').length", "fs:count_lines"],
  ["read a yaml config file", ["filesystem:read_file"], "return await mcp.filesystem.read_file({path: 'config.yaml'})", "fs:read_yaml_config"],
  ["delete temporary files", ["shell:exec"], "return await mcp.shell.exec({command: 'rm -f tmp/*'})", "shell:delete_temp_files"],
  ["show the current git branch", ["shell:exec"], "return await mcp.shell.exec({command: 'git branch --show-current'})", "git:current_branch"],
  ["show the git status", ["shell:exec"], "return await mcp.shell.exec({command: 'git status --short'})", "git:show_status"],
  ["list recent git commits", ["shell:exec"], "return await mcp.shell.exec({command: 'git log --oneline -10'})", "git:list_commits"],
  ["create a git tag for the release", ["shell:exec"], "return await mcp.shell.exec({command: 'git tag ' + args.tag})", "git:create_tag"],
  ["show the diff of staged changes", ["shell:exec"], "return await mcp.shell.exec({command: 'git diff --cached'})", "git:staged_diff"],
  ["run the test suite", ["shell:exec"], "return await mcp.shell.exec({command: 'npm test'})", "shell:run_tests"],
  ["install npm dependencies", ["shell:exec"], "return await mcp.shell.exec({command: 'npm install'})", "shell:install_dependencies"],
  ["check disk usage of the project", ["shell:exec"], "return await mcp.shell.exec({command: 'du -sh .'})", "shell:disk_usage"],
  ["fetch a url and return the body", ["fetch:fetch"], "return await mcp.fetch.fetch({url: args.url})", "api:fetch_url"],
  [
    "download a file from a url",
    ["fetch:fetch", "filesystem:write_file"],
    "const b = await mcp.fetch.fetch({url: args.url}); await mcp.filesystem.write_file({path: args.path, content: b})",
    "api:download_file",
  ],
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
  [
    "export a table to csv",
    ["sqlite:query", "filesystem:write_file"],
    "const r = await mcp.sqlite.query({sql: 'SELECT * FROM ' + args.table}); await mcp.filesystem.write_file({path: 'out.csv', content: r})",
    "db:export_table",
  ],
  ["remember a fact in the knowledge graph", ["memory:create_entities"], "return await mcp.memory.create_entities({entities: [args.fact]})", "memory:create_entity"],
  ["search the knowledge graph for a name", ["memory:search_nodes"], "return await mcp.memory.search_nodes({query: args.name})", "memory:search_nodes"],
];
