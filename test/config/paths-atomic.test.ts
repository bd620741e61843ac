import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, mkdirSync, lstatSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { withFileLock, writeFileAtomic, writeFileAtomicSync } from "../../src/fs/atomic.ts";
import { cacheDir, depsDir, logsDir, pmlHome } from "../../src/config/paths.ts";
import { tempDirs } from "./helpers.ts";

const tempDir = tempDirs();

describe("paths", () => {
  test("PML_HOME overrides ~/.pml", () => {
    expect(pmlHome({ PML_HOME: "/x/y" })).toBe("/x/y");
    expect(pmlHome({ HOME: "/home/u" })).toBe("/home/u/.pml");
    expect(pmlHome({})).toBe(join(homedir(), ".pml"));
    expect(cacheDir({ PML_HOME: "/h" })).toBe("/h/cache");
    expect(depsDir({ PML_HOME: "/h" })).toBe("/h/deps");
    expect(logsDir({ PML_HOME: "/h" })).toBe("/h/logs");
  });
});

describe("writeFileAtomic", () => {
  test("writes, replaces, keeps the mode, leaves no temp files", async () => {
    const dir = tempDir();
    const f = join(dir, "a.json");
    await writeFileAtomic(f, "one");
    expect(readFileSync(f, "utf8")).toBe("one");
    chmodSync(f, 0o640);
    await writeFileAtomic(f, "two");
    expect(readFileSync(f, "utf8")).toBe("two");
    expect(statSync(f).mode & 0o777).toBe(0o640);
    await writeFileAtomic(f, "three", { mode: 0o600 });
    expect(statSync(f).mode & 0o777).toBe(0o600);
    writeFileAtomicSync(f, "four");
    expect(readFileSync(f, "utf8")).toBe("four");
    expect(statSync(f).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["a.json"]);
  });

  test("a failed write removes its temp file and keeps the old content", async () => {
    const dir = tempDir();
    const f = join(dir, "target");
    mkdirSync(f); // rename over a directory fails
    await expect(writeFileAtomic(f, "x")).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(["target"]);
  });

  test("writes through a symlink instead of replacing it", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "real.json"), "old");
    symlinkSync(join(dir, "real.json"), join(dir, "link.json"));
    await writeFileAtomic(join(dir, "link.json"), "new");
    expect(lstatSync(join(dir, "link.json")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "real.json"), "utf8")).toBe("new");
    expect(readdirSync(dir).sort()).toEqual(["link.json", "real.json"]);
  });
});

describe("withFileLock", () => {
  test("serialises read-modify-write in one process", async () => {
    const dir = tempDir();
    const f = join(dir, "n");
    writeFileSync(f, "0");
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withFileLock(f, async () => {
          const n = Number(readFileSync(f, "utf8"));
          await Bun.sleep(1); // not a wait: widens the read-modify-write window, so a broken lock would lose updates
          await writeFileAtomic(f, String(n + 1));
        }),
      ),
    );
    expect(readFileSync(f, "utf8")).toBe("20");
    expect(existsSync(`${f}.lock`)).toBe(false);
  });

  test("recovers a lock left by a dead process", async () => {
    const dir = tempDir();
    const f = join(dir, "n");
    // A pid that is not running (the lock's owner crashed).
    const dead = Bun.spawnSync(["true"]).pid;
    writeFileSync(`${f}.lock`, `${dead} ${(await import("node:os")).hostname()} x\n`);
    expect(await withFileLock(f, () => 42)).toBe(42);
    expect(existsSync(`${f}.lock`)).toBe(false);
  });

  test("a live holder makes others wait, then times out with a clear message", async () => {
    const dir = tempDir();
    const f = join(dir, "n");
    writeFileSync(`${f}.lock`, `${process.pid} ${(await import("node:os")).hostname()} other\n`);
    await expect(withFileLock(f, () => 1, { timeoutMs: 200, staleMs: 60_000 })).rejects.toThrow(/another pml is updating this file.*delete/);
    // The lock that is not ours is left alone.
    expect(existsSync(`${f}.lock`)).toBe(true);
  });

  test("a live holder's lock is not broken after the stale period (issue 11 point 7): the other process waits", async () => {
    const dir = tempDir();
    const f = join(dir, "n");
    // Another live process (this machine) holds the lock, and its file is older than staleMs.
    const holder = Bun.spawn(["sleep", "30"]);
    try {
      writeFileSync(`${f}.lock`, `${holder.pid} ${(await import("node:os")).hostname()} other\n`);
      const old = new Date(Date.now() - 60_000);
      (await import("node:fs")).utimesSync(`${f}.lock`, old, old);
      await expect(withFileLock(f, () => 1, { timeoutMs: 300, staleMs: 50 })).rejects.toThrow(/another pml is updating this file/);
      expect(readFileSync(`${f}.lock`, "utf8")).toContain(String(holder.pid));
    } finally {
      holder.kill();
    }
  });

  test("errors in fn release the lock", async () => {
    const dir = tempDir();
    const f = join(dir, "n");
    await expect(
      withFileLock(f, () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(existsSync(`${f}.lock`)).toBe(false);
    expect(await withFileLock(f, () => "again")).toBe("again");
  });
});
