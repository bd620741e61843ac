// A running session's side of the live files (./live-files.ts): it publishes what it does (its
// servers, the approvals it waits for) for a `pml ui` page, and takes the page's answers from its
// inbox. The hot path pays nothing here: server counters are read when the file is written, on a
// change (debounced) or at the heartbeat; a tool call only bumps a counter in the pool.
import { readdirSync, unlinkSync, utimesSync, watch, type FSWatcher } from "node:fs";
import * as v from "valibot";
import { writeFileAtomic } from "../../fs/atomic.ts";
import { log } from "../../log.ts";
import { visible } from "../../visible-text.ts";
import type { Decision } from "../approvals.ts";
import { ensureOwnDir, HEARTBEAT_MS, HOST, inboxDir, liveDir, newId, ownDirExists, readOwnFile, sessionFile } from "./live-files.ts";
import { AnswerSchema, pageOpenFor, removeSessionFiles, type LiveServer, type LiveSession, type PendingApproval } from "./live-sessions.ts";

/** A change is written this long after it happened, with the changes that follow it. */
const DEBOUNCE_MS = 50;
/** While approvals wait, the inbox is also read this often (a missed fs.watch event costs this). */
const POLL_MS = 300;

/** An approval the session waits for, as the asker holds it. */
export interface LivePending {
  readonly id: string;
  /** The page's answer, once given (the first one; later ones are ignored). */
  answer?: Decision;
  /** Resolves with the page's answer. */
  readonly answered: Promise<Decision>;
  /** The session no longer waits for it (answered another way, redeemed, or its call ended). */
  done(): void;
}

interface Entry extends LivePending {
  approval: PendingApproval;
  key?: string;
  expires: number;
  settle(d: Decision): void;
  onAnswer?: (d: Decision) => void;
}

export interface PendingInput {
  tool: string;
  question: string;
  kind: string;
  channel: PendingApproval["channel"];
  /** What finds it again: the workflow id or request state its continuation carries. */
  key?: string;
  ttlMs: number;
  /** Called with the page's answer as soon as it arrives. */
  onAnswer?: (d: Decision) => void;
}

export class LiveBoard {
  readonly id = newId();
  client?: string;
  protocol?: string;
  private readonly started = new Date().toISOString();
  /** Approvals not answered yet, by id: what the page lists. */
  private readonly waiting = new Map<string, Entry>();
  /** Every approval the session still holds (answered by the page or not), by its key. */
  private readonly byKey = new Map<string, Entry>();
  private enabled = false;
  private written = "";
  private writing = false;
  private dirty = false;
  private debounce?: ReturnType<typeof setTimeout>;
  private beat?: ReturnType<typeof setInterval>;
  private poll?: ReturnType<typeof setInterval>;
  private watcher?: FSWatcher;
  /** The folder failed its check (said once, until it passes again). */
  private refused = false;
  private readonly onExit = () => this.close();

  constructor(
    private readonly home: string,
    private readonly info: { workspace: string; transport: LiveSession["transport"] },
    private readonly servers: () => LiveServer[],
  ) {}

  /** Publishes the session; a live folder pml cannot trust only leaves the session unlisted. */
  start(): void {
    try {
      ensureOwnDir(liveDir(this.home));
      ensureOwnDir(inboxDir(this.home, this.id));
    } catch (e) {
      log.warn(`pml ui will not see this session: ${(e as Error).message}`);
      return;
    }
    this.enabled = true;
    process.on("exit", this.onExit);
    this.changed();
    this.beat = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    this.beat.unref?.();
    try {
      this.watcher = watch(inboxDir(this.home, this.id), () => this.drain());
      this.watcher.on("error", () => this.unwatch());
      this.watcher.unref?.();
    } catch {
      // No watching here (some network filesystems): the poll below, while approvals wait.
    }
  }

  /** Something changed: the file is rewritten soon (once for a burst of changes). */
  changed(): void {
    if (!this.enabled || this.debounce !== undefined) return;
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.write();
    }, DEBOUNCE_MS);
    this.debounce.unref?.();
  }

  /** Lists an approval the session waits for, until `done()`. */
  add(p: PendingInput): LivePending {
    let settle!: (d: Decision) => void;
    const answered = new Promise<Decision>((r) => (settle = r));
    const id = newId();
    const now = Date.now();
    const entry: Entry = {
      id,
      answered,
      // The page shows the question as the client's form does (approvals.ts), escaped the same way.
      approval: {
        id,
        tool: p.tool,
        question: visible(p.question),
        kind: p.kind,
        created: new Date(now).toISOString(),
        channel: p.channel,
        expires: new Date(now + p.ttlMs).toISOString(),
      },
      key: p.key,
      expires: now + p.ttlMs,
      onAnswer: p.onAnswer,
      settle: (d) => {
        entry.answer = d;
        this.waiting.delete(id);
        this.changed();
        settle(d);
        entry.onAnswer?.(d);
      },
      done: () => {
        this.waiting.delete(id);
        if (entry.key !== undefined && this.byKey.get(entry.key) === entry) this.byKey.delete(entry.key);
        this.changed();
      },
    };
    if (!this.enabled) return entry;
    this.waiting.set(id, entry);
    if (p.key !== undefined) this.byKey.set(p.key, entry);
    this.changed();
    this.startPolling();
    return entry;
  }

  /** The approval a continuation or retry names (by its workflow id or request state). */
  forKey(key: unknown): LivePending | undefined {
    const e = typeof key === "string" ? this.byKey.get(key) : undefined;
    if (e && e.expires <= Date.now()) {
      e.done();
      return undefined;
    }
    return e;
  }

  /** Whether a `pml ui` page is open for this session's workspace now. */
  pageOpen(): boolean {
    return this.enabled && pageOpenFor(this.home, this.info.workspace);
  }

  /** Ends the session's presence: its files are removed (a session that ended is not shown). */
  close(): void {
    if (!this.enabled) return;
    this.enabled = false;
    process.off("exit", this.onExit);
    clearTimeout(this.debounce);
    clearInterval(this.beat);
    clearInterval(this.poll);
    this.unwatch();
    removeSessionFiles(this.home, this.id);
  }

  private snapshot(): string {
    const s: Omit<LiveSession, "updated"> & { updated: string } = {
      id: this.id,
      pid: process.pid,
      host: HOST,
      workspace: this.info.workspace,
      started: this.started,
      updated: "",
      transport: this.info.transport,
      client: this.client,
      protocol: this.protocol,
      servers: this.servers(),
      approvals: [...this.waiting.values()].map((e) => e.approval),
    };
    return JSON.stringify(s);
  }

  private async write(): Promise<void> {
    if (this.writing) {
      this.dirty = true;
      return;
    }
    this.writing = true;
    try {
      do {
        this.dirty = false;
        const text = this.snapshot();
        if (text === this.written || !this.enabled) continue;
        // `updated` says when the content last changed; readers take the heartbeat from the mtime.
        await writeFileAtomic(sessionFile(this.home, this.id), text.replace('"updated":""', `"updated":"${new Date().toISOString()}"`), {
          mode: 0o600,
          within: liveDir(this.home),
        });
        this.written = text;
      } while (this.dirty && this.enabled);
    } catch (e) {
      log.debug(`live session file not written: ${(e as Error).message}`);
    } finally {
      this.writing = false;
    }
  }

  private heartbeat(): void {
    const now = Date.now();
    for (const e of this.byKey.values()) if (e.expires <= now) e.done();
    for (const e of this.waiting.values()) if (e.expires <= now) e.done();
    if (this.waiting.size === 0 && this.poll !== undefined) {
      clearInterval(this.poll);
      this.poll = undefined;
    }
    // Server states and counters change without telling: compared here, written when they differ.
    if (this.snapshot() !== this.written) return void this.write();
    try {
      utimesSync(sessionFile(this.home, this.id), new Date(now), new Date(now));
    } catch {
      this.written = "";
      void this.write(); // removed from under the session: written again
    }
  }

  private startPolling(): void {
    if (this.poll !== undefined) return;
    this.poll = setInterval(() => this.drain(), POLL_MS);
    this.poll.unref?.();
  }

  private unwatch(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** Takes the answers in the inbox: each file is consumed once, whatever it says. */
  private drain(): void {
    if (!this.enabled) return;
    const inbox = inboxDir(this.home, this.id);
    let names: string[];
    try {
      // The folder above too: whoever may write there could put an inbox of their own in place.
      if (!ownDirExists(liveDir(this.home)) || !ownDirExists(inbox)) return;
      names = readdirSync(inbox);
      this.refused = false;
    } catch (e) {
      if (!this.refused) log.warn(`pml ui answers are not taken: ${(e as Error).message}`);
      this.refused = true;
      return;
    }
    for (const name of names) {
      if (name.startsWith(".") || !name.endsWith(".json")) continue; // a write in progress
      const path = `${inbox}/${name}`;
      const file = readOwnFile(path);
      try {
        unlinkSync(path);
      } catch {
        continue; // another reader took it
      }
      this.take(file?.text);
    }
  }

  private take(text: string | undefined): void {
    if (text === undefined) return;
    let answer: v.InferOutput<typeof AnswerSchema>;
    try {
      const r = v.safeParse(AnswerSchema, JSON.parse(text));
      if (!r.success) return;
      answer = r.output;
    } catch {
      return;
    }
    const entry = this.waiting.get(answer.approval);
    // Answered already, redeemed, expired or unknown: a replayed answer changes nothing.
    if (!entry || entry.answer !== undefined || entry.expires <= Date.now()) return;
    log.debug(`${entry.approval.tool}: answered ${answer.answer} in the pml ui page`);
    entry.settle(answer.answer);
  }
}
