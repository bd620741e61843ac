// What `pml try` prints: for a person, each step in plain words with the JSON-RPC lines it sent
// and got back, shortened; with --json, one JSON line per step (and one at the end) for scripts.
import { visible } from "../visible-text.ts";
import type { Direction } from "./client.ts";

const LINE_MAX = 150;

export interface StepRecord {
  step: number;
  name: string;
  ok: boolean;
  /** One sentence: what happened, or why the step did not behave as expected. */
  outcome: string;
  /** What the step said in plain words, in order. */
  notes: string[];
  /** The JSON-RPC lines of the step, shortened. */
  messages: { dir: Direction; bytes: number; text: string }[];
  /** Figures a script may check (per step). */
  data: Record<string, unknown>;
}

/** A JSON-RPC line cut to one terminal line, with its size when it was cut. */
export function shorten(line: string, max = LINE_MAX): string {
  const flat = line.replace(/\s+/g, " ");
  if (flat.length <= max) return flat;
  return `${flat.slice(0, max - 1)}… (${formatBytes(Buffer.byteLength(line))})`;
}

export function formatBytes(n: number): string {
  return n < 1024 ? `${n} bytes` : `${(n / 1024).toFixed(1)} KB`;
}

export class Narrator {
  private current: StepRecord | undefined;
  readonly steps: StepRecord[] = [];

  constructor(
    private readonly json: boolean,
    private readonly out: (text: string) => void = (t) => process.stdout.write(t),
  ) {}

  /** Text before the steps (a person only). */
  intro(lines: string[]): void {
    if (!this.json) this.out(`${lines.join("\n")}\n`);
  }

  begin(step: number, name: string, title: string): void {
    this.current = { step, name, ok: false, outcome: "", notes: [], messages: [], data: {} };
    if (!this.json) this.out(`\nStep ${step}. ${title}\n`);
  }

  /** A sentence in plain words (indented continuation lines stay with it). */
  say(said: string): void {
    // Text from pml's answers (a capability's description, a notice) may hold control or
    // reordering characters: on a terminal they are written as escapes, never obeyed.
    const text = visible(said);
    this.current?.notes.push(text);
    if (!this.json) this.out(`${indent(text, "  ")}\n`);
  }

  line(dir: Direction, line: string): void {
    const text = shorten(line);
    this.current?.messages.push({ dir, bytes: Buffer.byteLength(line), text });
    if (!this.json) this.out(`    ${dir === "sent" ? "sent" : "got "}  ${text}\n`);
  }

  data(values: Record<string, unknown>): void {
    if (this.current) Object.assign(this.current.data, values);
  }

  end(ok: boolean, outcome: string): void {
    const s = this.current;
    if (!s) return;
    s.ok = ok;
    s.outcome = outcome;
    this.steps.push(s);
    this.current = undefined;
    if (this.json) this.out(`${JSON.stringify(s)}\n`);
    else this.out(`${indent(`${ok ? "ok:" : "NOT AS EXPECTED:"} ${outcome}`, "  ")}\n`);
  }

  /** The last line: whether every step behaved, and where things are. */
  finish(summary: Record<string, unknown> & { ok: boolean }): void {
    if (this.json) this.out(`${JSON.stringify({ done: true, ...summary })}\n`);
  }
}

function indent(text: string, pad: string): string {
  return text
    .split("\n")
    .map((l, i) => (i === 0 ? pad : `${pad}  `) + l)
    .join("\n");
}
