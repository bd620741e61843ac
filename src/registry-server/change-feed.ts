// How a replica keeps an in-memory cache of capabilities without ever serving one that changed.
//
// Every change of a capability row appends its fqdn to `registry_changes` (a trigger, migration 3).
// A caching replica registers in `registry_replicas` and polls the log every POLL_MS (PostgreSQL
// also wakes it at once with NOTIFY), drops what changed from its cache, then acknowledges how far
// it read (at once when it read something, else about once a second) and renews a lease. It
// answers from its cache only while its lease runs.
//
// A publish, after its commit, waits until every replica with a running lease has acknowledged the
// change (or its lease ran out). So once a publish returns, no replica serves what it replaced: a
// live replica has dropped it, and a stalled one (paused, cut off from the database) has let its
// lease lapse and goes to the database until it catches up. A lapsed lease is renewed only while it
// has not run out in the database, so a replica a publisher stopped waiting for cannot carry on as
// if nothing happened: it empties its cache and registers again.
import { randomUUID } from "node:crypto";
import { log } from "../log.ts";
import { nowMs, type Db } from "./database.ts";
import { CHANGE_CHANNEL } from "./migrations.ts";

export interface ChangeFeedOptions {
  /** How often the log is read (default 50 ms). */
  pollMs?: number;
  /** How long a replica may answer from memory after its last acknowledged read (default 2 s). */
  leaseMs?: number;
}

const DEFAULT_POLL_MS = 50;
const DEFAULT_LEASE_MS = 2000;
/** Log rows and records of departed replicas older than this are deleted. */
const RETAIN_MS = 10 * 60_000;

export class ChangeFeed {
  readonly id = randomUUID();
  private seen = 0;
  /** performance.now() until which the cache may answer. */
  private leaseUntil = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private failing = false;
  private polls = 0;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly now: string;

  private constructor(
    private readonly db: Db,
    /** Drop these fqdns (4-part names) from the cache; "all" empties it. */
    private readonly onChange: (fqdns: string[] | "all") => void,
    opts: ChangeFeedOptions,
  ) {
    this.pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.now = nowMs(db.dialect);
  }

  /** Registers this replica (its cache is empty, so it has seen everything so far) and starts polling. */
  static async start(db: Db, onChange: (fqdns: string[] | "all") => void, opts: ChangeFeedOptions = {}): Promise<ChangeFeed> {
    const feed = new ChangeFeed(db, onChange, opts);
    await feed.prune();
    await feed.register();
    if (db.listen) {
      try {
        feed.unlisten = await db.listen(CHANGE_CHANNEL, () => feed.wake());
      } catch (e) {
        log.warn(`registry cache: LISTEN ${CHANGE_CHANNEL} failed (${(e as Error).message}); changes are picked up by polling every ${feed.pollMs} ms`);
      }
    }
    feed.schedule();
    return feed;
  }

  /** Whether the cache may answer now. */
  fresh(): boolean {
    return performance.now() < this.leaseUntil;
  }

  /** Reads the log now (a NOTIFY arrived). */
  wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.tick();
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick();
    }, this.pollMs);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    this.running = this.poll();
    await this.running;
    this.running = null;
    if (this.again && !this.closed) {
      this.again = false;
      return this.tick();
    }
    this.schedule();
  }

  private async poll(): Promise<void> {
    try {
      const rows = await this.db.query(`SELECT seq, fqdn FROM registry_changes WHERE seq > $1 ORDER BY seq`, [this.seen]);
      if (rows.length) {
        this.onChange([...new Set(rows.map((r) => r.fqdn as string))]);
        this.seen = Number(rows.at(-1).seq);
      }
      // Acknowledge at once when there was something to read (a publisher may be waiting), else
      // renew only once half the lease has gone: an idle replica writes about once a second, not
      // at every read (on SQLite every write is a commit to the file).
      const t0 = performance.now();
      if (rows.length === 0 && t0 < this.leaseUntil - this.leaseMs / 2) return this.afterPoll();
      // Renewed only while the lease has not run out in the database: a publisher that found it run
      // out did not wait for us, so what we hold may be stale.
      const renewed = await this.db.query(`UPDATE registry_replicas SET seen_seq = $2, lease_until = ${this.now} + $3 WHERE id = $1 AND lease_until > ${this.now} RETURNING id`, [
        this.id,
        this.seen,
        this.leaseMs,
      ]);
      if (renewed.length) this.leaseUntil = t0 + this.leaseMs;
      else {
        this.leaseUntil = 0;
        this.onChange("all");
        log.info(`registry cache: this replica's lease ran out (paused, or the database was out of reach); cache emptied`);
        await this.register(true);
      }
      await this.afterPoll();
    } catch (e) {
      // The lease runs out on its own; until the database answers, every fetch goes to it.
      if (!this.failing && !this.closed) log.warn(`registry cache: cannot read the change log (${(e as Error).message}); answering from the database until it can`);
      this.failing = true;
    }
  }

  private async afterPoll(): Promise<void> {
    if (this.failing) log.info("registry cache: reading the change log again");
    this.failing = false;
    if (++this.polls % Math.max(1, Math.round(60_000 / this.pollMs)) === 0) await this.prune();
  }

  /** First (`again` false): from the end of the log. Again after a lapse: from where we read to. */
  private async register(again = false): Promise<void> {
    const t0 = performance.now();
    const from = again ? `$3` : `(SELECT coalesce(max(seq), 0) FROM registry_changes)`;
    const [row] = await this.db.query(
      `INSERT INTO registry_replicas (id, seen_seq, lease_until) VALUES ($1, ${from}, ${this.now} + $2)
       ON CONFLICT (id) DO UPDATE SET seen_seq = excluded.seen_seq, lease_until = excluded.lease_until RETURNING seen_seq`,
      again ? [this.id, this.leaseMs, this.seen] : [this.id, this.leaseMs],
    );
    this.seen = Number(row.seen_seq);
    this.leaseUntil = t0 + this.leaseMs;
  }

  private async prune(): Promise<void> {
    await this.db.query(`DELETE FROM registry_changes WHERE changed_at < ${this.now} - $1`, [RETAIN_MS]);
    await this.db.query(`DELETE FROM registry_replicas WHERE lease_until < ${this.now} - $1`, [RETAIN_MS]);
  }

  /** Stops polling and deregisters, so publishes stop waiting for this replica. */
  async close(): Promise<void> {
    this.closed = true;
    this.leaseUntil = 0;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await this.unlisten?.().catch(() => {});
    await this.db.query(`DELETE FROM registry_replicas WHERE id = $1`, [this.id]).catch(() => {});
  }
}

/**
 * After a publish committed change `seq`: waits until every other replica whose lease runs has read
 * the log past it. The replicas table is locked for the check, so a replica cannot renew a lease
 * the check already found run out (see `poll`).
 */
export async function waitForReplicas(db: Db, seq: number, self: string | null, leaseMs = DEFAULT_LEASE_MS): Promise<void> {
  const now = nowMs(db.dialect);
  const giveUp = performance.now() + 2 * leaseMs + 1000;
  for (let pause = 2; ; pause = Math.min(pause * 2, 20)) {
    const [row] = await db.transaction(async (q) => {
      // SQLite: the transaction already holds the database's write lock.
      if (db.dialect === "postgres") await q(`LOCK TABLE registry_replicas IN EXCLUSIVE MODE`);
      return q(`SELECT count(*) AS n FROM registry_replicas WHERE id <> $1 AND seen_seq < $2 AND lease_until > ${now}`, [self ?? "", seq]);
    });
    if (Number(row.n) === 0) return;
    if (performance.now() > giveUp) {
      // A safety net: a live replica acknowledges within a read or two, a stalled one's lease runs
      // out (leases are timed by the database's clock, so the hosts' clocks do not matter).
      log.warn(`registry cache: ${row.n} replica(s) did not acknowledge change ${seq} within ${Math.round(2 * leaseMs + 1000)} ms; answering the publish anyway`);
      return;
    }
    await Bun.sleep(pause);
  }
}
