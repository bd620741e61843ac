// The page's version diff: a longest-common-subsequence line diff (src/ui/line-diff.ts).
import { expect, test } from "bun:test";
import { lineDiff } from "../../src/ui/line-diff.ts";

const render = (a: string, b: string) => lineDiff(a, b).map((l) => `${l.op}${l.text}`);

test("kept lines stay in place; removed and added ones are marked where they were", () => {
  expect(render("a\nb\nc\nd", "a\nc\nx\nd")).toEqual([" a", "-b", " c", "+x", " d"]);
  expect(render("same", "same")).toEqual([" same"]);
  expect(render("", "x")).toEqual(["-", "+x"]);
});

test("a changed line is one removal and one addition, and the longest common part is kept", () => {
  const before = "const n = args.n;\nreturn n * 2;\n// end";
  const after = "// doubled\nconst n = args.n;\nreturn n + n;\n// end";
  const d = lineDiff(before, after);
  expect(d.filter((l) => l.op === " ").map((l) => l.text)).toEqual(["const n = args.n;", "// end"]);
  expect(d.filter((l) => l.op === "-").map((l) => l.text)).toEqual(["return n * 2;"]);
  expect(d.filter((l) => l.op === "+").map((l) => l.text)).toEqual(["// doubled", "return n + n;"]);
});
