// The word vectors (and WordNet's synonyms) of the compiled binary: the first process has a child pml copy them out of the binary into
// $PML_HOME/cache, then it and later processes read the rows they need from that copy instead of holding a copy
// of their own (word-vectors.ts); a damaged copy is not trusted (the embedded vectors are read and
// the copy made again) and an older binary's copy is removed. /proc/<pid>/fd says what a process
// has open, /proc/<pid>/maps what it maps (Linux).
import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entries, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { parseDiscover } from "../helpers/discover.ts";

const ws = tempDir("pml-wv-cache-ws-");
const home = tempDir("pml-wv-cache-home-");
const cache = join(home.path, "cache");
const generated = new URL("../../src/memory/generated/word-vectors.bin", import.meta.url).pathname;
const generatedSynonyms = new URL("../../src/memory/generated/wordnet-synonyms.txt", import.meta.url).pathname;
afterAll(() => {
  ws.cleanup();
  home.cleanup();
});

const synonymCopies = () => (existsSync(cache) ? readdirSync(cache).filter((f) => f.startsWith("wordnet-synonyms-")) : []);
const copies = () => (existsSync(cache) ? readdirSync(cache).filter((f) => f.startsWith("word-vectors-")) : []);

const size = statSync(generated).size;
const whole = (name: string) => existsSync(join(cache, name)) && statSync(join(cache, name)).size === size;

/** A pml stdio that saves a capability (the first time) and asks discover a request that only meaning answers. */
async function session(
  save: boolean,
  before: (peer: RawPeer) => Promise<void> = async () => {},
  at = { ws: ws.path, home: home.path },
): Promise<{ top: string[]; maps: string; open: string[]; stderr: string }> {
  const peer = new RawPeer(entries.binary, { cwd: at.ws, env: testEnv({ PML_WORKSPACE: at.ws, PML_HOME: at.home }) });
  try {
    await peer.initialize();
    if (save) {
      const r = await peer.request(1, "tools/call", {
        name: "execute",
        arguments: { code: "return 1", name: "util:convert_length_units", intent: "convert a distance between metric and imperial units" },
      });
      expect(r.result.isError).toBeUndefined();
    }
    const d = await peer.request(2, "tools/call", { name: "discover", arguments: { query: "how many feet is 3 meters" } });
    const answer = parseDiscover(d.result.content[0].text);
    expect(answer.warning).toBeUndefined();
    const linux = process.platform === "linux";
    const maps = linux ? readFileSync(`/proc/${peer.proc.pid}/maps`, "utf8") : "";
    const fds = linux ? readdirSync(`/proc/${peer.proc.pid}/fd`) : [];
    const open = fds.map((fd) => readlinkOr(`/proc/${peer.proc.pid}/fd/${fd}`));
    await before(peer); // the copy is written in the background: while the process still runs
    return { top: answer.results.slice(0, 5).map((r: any) => r.id), maps, open, stderr: peer.stderr };
  } finally {
    peer.close();
    await peer.proc.exited;
  }
}

function readlinkOr(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return ""; // closed meanwhile
  }
}

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !ok(); i++) await Bun.sleep(50);
}

test.skipIf(process.platform === "win32")(
  "the first process leaves a copy of the vectors, later ones read rows from it; a damaged copy is made again, an old one removed",
  async () => {
    await writeTrustedConfig(ws.path, { permissions: {} }, home.path);
    const first = await session(true, () => until(() => copies().length === 1 && whole(copies()[0]!) && synonymCopies().length === 1));
    expect(first.top).toContain("util:convert_length_units");
    const [name] = copies();
    expect(name).toMatch(/^word-vectors-[\w-]+\.bin$/);
    const copy = join(cache, name!);
    expect(statSync(copy).size).toBe(size);
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    if (process.platform === "linux") {
      // A child pml made the copy, and this process too reads from it: it never held the embedded
      // bytes (nor the binary's pages they were read from) for as long as it serves.
      expect(first.open).toContain(copy);
      expect(first.maps).not.toContain(copy);
      expect(first.open).toContain(join(cache, synonymCopies()[0]!));
    }

    const second = await session(false);
    expect(second.top).toContain("util:convert_length_units");
    if (process.platform === "linux") {
      // Read from the copy as needed, not mapped: a mapping became resident whole (read-ahead).
      expect(second.open).toContain(copy);
      expect(second.maps).not.toContain(copy);
      // WordNet's synonyms the same way: looked up in the copy, not read whole into the process.
      expect(synonymCopies()).toEqual([expect.stringMatching(/^wordnet-synonyms-[\w-]+\.txt$/)]);
      expect(second.open).toContain(join(cache, synonymCopies()[0]!));
    }

    // A damaged copy (cut short) and an older binary's: meaning still answers, the copy is whole again, the old one gone.
    writeFileSync(copy, readFileSync(copy).subarray(0, 4096));
    writeFileSync(join(cache, "word-vectors-older.bin"), "old");
    // WordNet's copy cut short too: read from the binary again, and copied again whole.
    const synonyms = join(cache, synonymCopies()[0]!);
    writeFileSync(synonyms, readFileSync(synonyms).subarray(0, 1000));
    writeFileSync(join(cache, "wordnet-synonyms-older.txt"), "old");
    const synonymsWhole = () => synonymCopies().length === 1 && existsSync(synonyms) && statSync(synonyms).size === statSync(generatedSynonyms).size;
    const third = await session(false, () => until(() => copies().length === 1 && whole(name!) && synonymsWhole()));
    expect(readFileSync(synonyms).equals(readFileSync(generatedSynonyms))).toBe(true);
    expect(third.top).toContain("util:convert_length_units");
    if (process.platform === "linux") expect(third.open).toContain(copy);
    expect(copies()).toEqual([name!]);
    expect(readFileSync(copy).equals(readFileSync(generated))).toBe(true);
  },
);

test.skipIf(process.platform === "win32")("a half-written copy of a process that is gone is removed; one a live process is writing is kept", async () => {
  await writeTrustedConfig(ws.path, { permissions: {} }, home.path);
  const gone = Bun.spawnSync(["true"]).pid; // exited: its pid names no process now
  const orphan = join(cache, `.word-vectors-older.bin.${gone}.a1b2c3d4.tmp`);
  const writing = join(cache, `.word-vectors-older.bin.${process.pid}.e5f6a7b8.tmp`);
  const other = join(cache, `.settings.json.${gone}.a1b2c3d4.tmp`); // not the vectors': not this sweep's
  for (const f of [orphan, writing, other]) writeFileSync(f, "half");
  // The next process that copies the vectors out sweeps first (there is no copy: it was removed).
  for (const f of copies()) rmSync(join(cache, f));
  await session(false, () => until(() => copies().length === 1 && !existsSync(orphan)));
  expect(existsSync(orphan)).toBe(false);
  expect(existsSync(writing)).toBe(true);
  expect(existsSync(other)).toBe(true);
});

test("the copying child copies only files of its own binary", () => {
  const into = join(home.path, "elsewhere");
  const r = Bun.spawnSync([...entries.binary, "__keep-embedded", generated, into], { env: testEnv({ PML_HOME: home.path }), stdout: "pipe", stderr: "pipe" });
  expect(r.exitCode).toBe(1);
  expect(r.stdout.toString()).toBe("");
  expect(r.stderr.toString()).toContain("is not a file of this binary");
  expect(existsSync(into)).toBe(false);
});

test.skipIf(process.platform === "win32")("no cache to copy into (a file where the folder would be): meaning still answers, from the binary's own bytes", async () => {
  const otherHome = tempDir("pml-wv-nocache-home-");
  const otherWs = tempDir("pml-wv-nocache-ws-");
  try {
    writeFileSync(join(otherHome.path, "cache"), "not a folder");
    await writeTrustedConfig(otherWs.path, { permissions: {} }, otherHome.path);
    // What went wrong is said on stderr (the child's), in words a user can act on.
    const said = /word-vectors-[\w-]+\.bin not copied to .*cache \(.*\); discover reads it from the binary instead/;
    const run = await session(true, (peer) => until(() => said.test(peer.stderr)), { ws: otherWs.path, home: otherHome.path });
    expect(run.top).toContain("util:convert_length_units");
    expect(run.stderr).toMatch(said);
    expect(readFileSync(join(otherHome.path, "cache"), "utf8")).toBe("not a folder");
  } finally {
    otherHome.cleanup();
    otherWs.cleanup();
  }
});
