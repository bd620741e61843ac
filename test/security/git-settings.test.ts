// Issue 45, item 2, the parts under the end-to-end test (./git-config-reach.test.ts): how git's
// config files are read (values, includes: cycles, depth, `~`, missing files), how a command line
// is split into words, and which paths a repository's settings make protected.
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseGitConfig, readGitConfig } from "../../src/fs/git-config.ts";
import { gitExecutableAt, gitExecutablePaths } from "../../src/fs/git-executables.ts";
import { shellWords } from "../../src/fs/shell-words.ts";
import { tempDir } from "../helpers/pml.ts";

const dirs: Array<{ cleanup(): void }> = [];
afterAll(() => {
  for (const d of dirs) d.cleanup();
});
function temp(): string {
  const d = tempDir();
  dirs.push(d);
  return d.path;
}
const noGit = !Bun.which("git");

describe("shell words", () => {
  const words = (line: string) => shellWords(line).map((w) => w.text);
  test("a shell function's body is split at ; { } ( ): `!f(){ ./tools/rel.sh; }; f` names ./tools/rel.sh", () => {
    expect(words("f(){ ./tools/rel.sh; }; f")).toEqual(["f", "./tools/rel.sh", "f"]);
  });
  test("quotes, backslashes, && || |, $(...) and backquotes", () => {
    const w = words(`a && "./my tools/x.sh" || 'b c'|./d\\ e.sh; echo "$(./in.sh)" \`./bq.sh\``);
    for (const expected of ["./my tools/x.sh", "./d e.sh", "./in.sh", "./bq.sh"]) expect(w).toContain(expected);
    expect(w).not.toContain("./d\\");
  });
  test("a quoted command line (sh -c '...') is split too", () => {
    expect(words("sh -c 'cd sub && ./run.sh --now'")).toContain("./run.sh");
    // A word with nothing more to split is there once.
    expect(words("cat $HOME/x")).toEqual(["cat", "$HOME/x"]);
  });
  test("which words are commands: first of each simple command, after keywords and assignments", () => {
    const commands = shellWords("X=1 node tools/a.js > out.txt && if true; then ./d.sh; fi")
      .filter((w) => w.command)
      .map((w) => w.text);
    expect(commands).toEqual(["node", "if", "true", "then", "./d.sh", "fi"]);
  });
});

describe("git config files", () => {
  test("values as git reads them: quotes, comments, escapes, continued lines, a key on the header's line", () => {
    const text = [
      "# comment",
      '[alias] rel = "!f(){ ./tools/rel.sh; }; f" ; a comment',
      "\tcut = !./a.sh ; the rest is a comment",
      '\tesc = "a\\"b\\\\c"',
      "\tlong = one \\",
      "  two",
      '[filter "Tidy"]',
      "\tclean = ./clean.sh %f",
      "[core]",
      "\tbare",
    ].join("\n");
    expect(parseGitConfig(text)).toEqual([
      ["alias.rel", "!f(){ ./tools/rel.sh; }; f"],
      ["alias.cut", "!./a.sh"],
      ["alias.esc", 'a"b\\c'],
      ["alias.long", "one   two"],
      ["filter.tidy.clean", "./clean.sh %f"],
      ["core.bare", ""],
    ]);
  });

  test("includes are followed relative to the including file, ~ is home, includeIf counts, a missing file is skipped", () => {
    const d = temp();
    const home = temp();
    mkdirSync(join(d, "conf"));
    writeFileSync(join(d, "main"), '[include]\n\tpath = conf/a\n\tpath = missing\n[includeIf "gitdir:/nowhere/"]\n\tpath = ~/h\n');
    writeFileSync(join(d, "conf", "a"), "[include]\n\tpath = b\n[x]\n\ta = 1\n"); // b is conf/b
    writeFileSync(join(d, "conf", "b"), "[x]\n\tb = 2\n");
    writeFileSync(join(home, "h"), "[x]\n\th = 3\n");
    const r = readGitConfig([join(d, "main")], home);
    expect(r.settings).toEqual([
      ["x.b", "2"],
      ["x.a", "1"],
      ["x.h", "3"],
    ]);
    expect(r.includes.sort()).toEqual([join(d, "conf", "a"), join(d, "conf", "b"), join(d, "missing"), join(home, "h")].sort());
  });

  test("a cycle ends, and a chain stops where git stops (depth 10)", () => {
    const d = temp();
    writeFileSync(join(d, "a"), "[include]\n\tpath = b\n[x]\n\ta = 1\n");
    writeFileSync(join(d, "b"), "[include]\n\tpath = a\n[x]\n\tb = 1\n");
    expect(readGitConfig([join(d, "a")], d).settings.map(([k]) => k)).toEqual(["x.b", "x.a"]);
    for (let i = 0; i < 15; i++) writeFileSync(join(d, `c${i}`), `[include]\n\tpath = c${i + 1}\n[x]\n\tc${i} = 1\n`);
    const keys = readGitConfig([join(d, "c0")], d).settings.map(([k]) => k);
    expect(keys).toContain("x.c10");
    expect(keys).not.toContain("x.c11");
  });
});

describe.skipIf(noGit)("paths a repository's settings protect (git is installed)", () => {
  const git = (cwd: string, home: string, ...args: string[]) => {
    const r = Bun.spawnSync(["git", ...args], { cwd, env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: "1" } });
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  };
  function repo(): { ws: string; home: string; env: Record<string, string> } {
    const ws = temp();
    const home = temp();
    git(ws, home, "init", "-q");
    mkdirSync(join(ws, "tools"));
    return { ws, home, env: { HOME: home } };
  }

  test("an alias's shell function, a missing script with a /, and what a `-c` in a git alias sets", () => {
    const { ws, home, env } = repo();
    git(ws, home, "config", "alias.rel", "!f(){ ./tools/rel.sh; }; f");
    git(ws, home, "config", "alias.later", "!sh tools/not-yet.sh");
    git(ws, home, "config", "alias.st", "-c core.hooksPath=tools/hooks status");
    writeFileSync(join(ws, "tools", "rel.sh"), "");
    const paths = gitExecutablePaths(ws, { env });
    for (const p of ["tools/rel.sh", "tools/not-yet.sh", "tools/hooks"]) expect(paths).toContain(join(ws, p));
  });

  test("a command's bare name is looked up in PATH, not protected in the workspace (core.editor = code --wait)", () => {
    const { ws, home, env } = repo();
    git(ws, home, "config", "core.editor", "code --wait");
    git(ws, home, "config", "credential.helper", "store --file creds.txt");
    mkdirSync(join(ws, "code"));
    writeFileSync(join(ws, "creds.txt"), "");
    expect(gitExecutableAt(ws, join(ws, "code", "main.ts"), env)).toBeUndefined();
    // A bare argument that is a file there counts.
    expect(gitExecutableAt(ws, join(ws, "creds.txt"), env)).toBe(join(ws, "creds.txt"));
  });

  test("a change on disk shows at the next call: an included file edited, a file a bare word names created", () => {
    const { ws, home, env } = repo();
    git(ws, home, "config", "include.path", "../team.gitconfig");
    git(ws, home, "config", "alias.notes", "!sh notes.sh");
    writeFileSync(join(ws, "team.gitconfig"), "[core]\n\tpager = less\n");
    expect(gitExecutableAt(ws, join(ws, "team.gitconfig"), env)).toBe(join(ws, "team.gitconfig"));
    expect(gitExecutableAt(ws, join(ws, "tools", "p.sh"), env)).toBeUndefined();
    expect(gitExecutableAt(ws, join(ws, "notes.sh"), env)).toBeUndefined();
    appendFileSync(join(ws, "team.gitconfig"), "[diff]\n\texternal = tools/p.sh\n");
    writeFileSync(join(ws, "notes.sh"), "");
    expect(gitExecutableAt(ws, join(ws, "tools", "p.sh"), env)).toBe(join(ws, "tools", "p.sh"));
    expect(gitExecutableAt(ws, join(ws, "notes.sh"), env)).toBe(join(ws, "notes.sh"));
  });

  test("a repository below the workspace counts at any depth, its paths resolved from its own work tree", () => {
    const { ws, home, env } = repo();
    const deep = join(ws, "node_modules", "a", "b");
    mkdirSync(deep, { recursive: true });
    git(deep, home, "init", "-q");
    git(deep, home, "config", "core.hooksPath", "hooks");
    // node_modules is not scanned, but a path inside it finds the repository above it.
    expect(gitExecutableAt(ws, join(deep, "hooks", "pre-commit"), env)).toBe(join(deep, "hooks"));
    // A repository naming a path outside its own folder: found by the scan.
    const sub = join(ws, "sub");
    mkdirSync(sub);
    git(sub, home, "init", "-q");
    git(sub, home, "config", "core.hooksPath", "../shared-hooks");
    expect(gitExecutablePaths(ws, { env, workTrees: [ws, sub] })).toContain(join(ws, "shared-hooks"));
  });
});
