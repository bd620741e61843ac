// Held-out curation set 1 of the second rework: 35 snippets written before the heuristics were tuned, in other words
// than the tuning set (bench/curation-tuning.ts), each with the name a careful person would give.
// Its results were first looked at after tuning on the tuning set (commit edd9fe6); it has been
// tuning data since. (bench/curation-heldout.ts holds the sets of the first rework, ea89ca9.)
import type { Snippet } from "./curation-tuning.ts";

export const HELD_OUT: Snippet[] = [
  [
    "please read the package.json and give me its version",
    ["filesystem:read_file"],
    "return JSON.parse(await mcp.filesystem.read_file({path: 'package.json'})).version",
    "fs:read_package_version",
  ],
  ["get me the contents of the README", ["filesystem:read_file"], "return await mcp.filesystem.read_file({path: 'README.md'})", "fs:read_readme"],
  ["save the report as a markdown file", ["filesystem:write_file"], "await mcp.filesystem.write_file({path: 'report.md', content: args.report})", "fs:write_report"],
  ["list every markdown file under docs", ["filesystem:search_files"], "return await mcp.filesystem.search_files({path: 'docs', pattern: '**/*.md'})", "fs:list_markdown_files"],
  ["make a new directory for the logs", ["filesystem:create_directory"], "return await mcp.filesystem.create_directory({path: 'logs'})", "fs:create_log_directory"],
  [
    "move a file into the archive folder",
    ["filesystem:move_file"],
    "return await mcp.filesystem.move_file({source: args.path, destination: 'archive/' + args.name})",
    "fs:archive_file",
  ],
  ["get the size and modification time of a file", ["filesystem:get_file_info"], "return await mcp.filesystem.get_file_info({path: args.path})", "fs:get_file_info"],
  ["delete the build output folder", ["shell:exec"], "return await mcp.shell.exec({command: 'rm -rf dist'})", "shell:delete_build_dir"],
  ["what branch am I on", ["shell:exec"], "return await mcp.shell.exec({command: 'git rev-parse --abbrev-ref HEAD'})", "git:current_branch"],
  ["commit all changes with a message", ["shell:exec"], "return await mcp.shell.exec({command: 'git commit -am ' + JSON.stringify(args.message)})", "git:commit_all"],
  ["push the current branch to origin", ["shell:exec"], "return await mcp.shell.exec({command: 'git push origin HEAD'})", "git:push_branch"],
  ["who last changed each line of a file", ["shell:exec"], "return await mcp.shell.exec({command: 'git blame ' + args.path})", "git:blame_file"],
  ["stash my uncommitted changes", ["shell:exec"], "return await mcp.shell.exec({command: 'git stash push'})", "git:stash_changes"],
  ["list all local branches", ["shell:exec"], "return await mcp.shell.exec({command: 'git branch --list'})", "git:list_branches"],
  ["build the project with npm", ["shell:exec"], "return await mcp.shell.exec({command: 'npm run build'})", "shell:build_project"],
  ["run the linter on src", ["shell:exec"], "return await mcp.shell.exec({command: 'npx eslint src'})", "shell:run_linter"],
  ["find which process is listening on port 3000", ["shell:exec"], "return await mcp.shell.exec({command: 'lsof -i :3000'})", "shell:find_port_process"],
  ["get the JSON for a repository from the GitHub API", ["fetch:fetch"], "return await mcp.fetch.fetch({url: 'https://api.github.com/repos/' + args.repo})", "api:get_github_repo"],
  ["check whether a website is up", ["fetch:fetch"], "const r = await mcp.fetch.fetch({url: args.url}); return r.status < 400", "api:check_website"],
  [
    "send a slack notification",
    ["fetch:fetch"],
    "return await mcp.fetch.fetch({url: args.webhook, method: 'POST', body: JSON.stringify({text: args.text})})",
    "api:send_slack_message",
  ],
  [
    "fetch the exchange rate for a currency",
    ["fetch:fetch"],
    "return await mcp.fetch.fetch({url: 'https://api.rates.example/latest?base=' + args.currency})",
    "api:fetch_exchange_rate",
  ],
  [
    "parse a markdown table into rows",
    [],
    "return args.md.split('\\n').filter(l => l.startsWith('|')).map(l => l.split('|').slice(1, -1).map(c => c.trim()))",
    "transform:parse_markdown_table",
  ],
  ["convert a yaml document to json", [], "return JSON.stringify(parseYaml(args.yaml))", "transform:yaml_to_json"],
  ["remove duplicate entries from a list", [], "return [...new Set(args.items)]", "transform:dedupe_list"],
  ["turn a string into camelCase", [], "return args.s.replace(/[-_ ]+(.)/g, (_, c) => c.toUpperCase())", "transform:to_camel_case"],
  ["hash a string with sha256", [], "return new Bun.CryptoHasher('sha256').update(args.s).digest('hex')", "util:hash_sha256"],
  ["generate a uuid", [], "return crypto.randomUUID()", "util:generate_uuid"],
  ["compute the number of days between two dates", [], "return Math.round((new Date(args.b) - new Date(args.a)) / 86400000)", "util:days_between_dates"],
  [
    "write a commit message for the staged diff",
    ["shell:exec", "ai:complete"],
    "const d = await mcp.shell.exec({command: 'git diff --cached'}); return await mcp.ai.complete({prompt: 'Write a commit message for: ' + d})",
    "ai:draft_commit_message",
  ],
  ["extract the names of people mentioned in a text", ["ai:complete"], "return await mcp.ai.complete({prompt: 'List the people named in: ' + args.text})", "ai:extract_names"],
  ["explain an error message", ["ai:complete"], "return await mcp.ai.complete({prompt: 'Explain this error: ' + args.error})", "ai:explain_error"],
  ["list the tables in the database", ["sqlite:list_tables"], "return await mcp.sqlite.list_tables({})", "db:list_tables"],
  ["insert a new user row", ["sqlite:write_query"], "return await mcp.sqlite.write_query({query: 'INSERT INTO users (name) VALUES (?)', params: [args.name]})", "db:insert_user"],
  ["find orders over 100 dollars", ["sqlite:read_query"], "return await mcp.sqlite.read_query({query: 'SELECT * FROM orders WHERE total > 100'})", "db:find_large_orders"],
  [
    "add a relation between two entities in the knowledge graph",
    ["memory:create_relations"],
    "return await mcp.memory.create_relations({relations: [{from: args.a, to: args.b, relationType: args.kind}]})",
    "memory:create_relation",
  ],
];
