// An idle pml hands the pages of its own executable back to the kernel (src/code-pages.ts): only
// clean read-only ones, never a read-only mapping holding private copies, and it keeps running.
import { describe, expect, test } from "bun:test";
import { droppableMappings, releaseCodePages } from "../../src/code-pages.ts";
import { runCode } from "../../src/sandbox/run-code.ts";
import { residentCodeKb } from "../helpers/resident.ts";

const EXE = "/opt/pml/pml";
const SMAPS = `00200000-01a39000 r--p 00000000 fe:00 123 ${EXE}
Rss:                5500 kB
Anonymous:             0 kB
01a40000-0684a000 r-xp 01838000 fe:00 123 ${EXE}
Rss:               37000 kB
Anonymous:             0 kB
0685f000-06867000 r--p 06656000 fe:00 123 ${EXE}
Rss:                  32 kB
Anonymous:            32 kB
06867000-079e2000 rw-p 0665e000 fe:00 123 ${EXE}
Rss:                5100 kB
Anonymous:          1200 kB
7f0000000000-7f0000100000 r-xp 00000000 fe:00 456 /usr/lib/x86_64-linux-gnu/libc.so.6
Rss:                1300 kB
Anonymous:             0 kB
7f0000200000-7f0000300000 rw-p 00000000 00:00 0
Rss:                8000 kB
Anonymous:          8000 kB
`;

describe("the executable's clean pages", () => {
  test("only the executable's read-only mappings without private copies are dropped", () => {
    expect(droppableMappings(SMAPS, EXE)).toEqual([
      [0x200000, 0x1a39000],
      [0x1a40000, 0x684a000],
    ]);
    expect(droppableMappings(SMAPS, "/somewhere/else")).toEqual([]);
  });

  test.if(process.platform === "linux")("are handed back, and the process keeps running what they held", async () => {
    expect(await runCode({ code: "return 6 * 7" })).toEqual({ value: 42 });
    const before = residentCodeKb();
    await releaseCodePages();
    const after = residentCodeKb();
    expect(after).toBeLessThan(before / 2);
    // The code comes back from the page cache as it runs.
    expect(await runCode({ code: "return [1, 2, 3].map((x) => x * 2)" })).toEqual({ value: [2, 4, 6] });
    expect(JSON.parse(JSON.stringify({ a: [1, "b"] }))).toEqual({ a: [1, "b"] });
  });
});
