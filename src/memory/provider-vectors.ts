// discover's vectors from the user's embeddings provider (memory.embeddings): each record's and
// tool's text embedded in the background, in batches, never while a request waits; cached in
// memory.db per model (sqlite-provider-vectors.ts), so a text is asked for once. A request's own
// vector is asked for with a short timeout; when anything fails, discover ranks as it would without
// a provider and pml says once, on stderr, what failed (`pml doctor` asks the provider itself).
import { log } from "../log.ts";
import { EmbeddingsError, embedTexts } from "./embeddings-client.ts";
import type { EmbeddingsTarget } from "./embeddings-config.ts";
import type { ProviderQuery } from "./provider-slot.ts";
import type { CapabilityStore } from "./store.ts";
import { VectorIndex } from "./vector-index.ts";
import { packVector } from "./word-vectors.ts";

/** A request's vector is awaited this long at most (discover answers without it after). */
export const QUERY_TIMEOUT_MS = 1000;
/** Texts per background request, and how long one may take. */
const BATCH = 64;
const BATCH_TIMEOUT_MS = 60_000;
/** After a failure: requests go without the provider this long, and background embedding waits
 * this long (doubling, up to RETRY_MAX_MS) before it tries again. */
const RETRY_MS = 30_000;
const RETRY_MAX_MS = 10 * 60_000;
/** Request vectors kept (an agent repeats a request). */
const QUERIES_KEPT = 64;
/** Cached vectors are looked up by text hash in one query up to this many, else all are read. */
const LOOKUP_MAX = 500;

const sourceOf = (text: string) => Bun.hash(text).toString(36);

export class ProviderVectors {
  private index?: VectorIndex;
  private dims?: number;
  /** Per key: the hash of the text it should have a vector of, and of the one it has. */
  private readonly wanted = new Map<string, string>();
  private readonly held = new Map<string, string>();
  /** Texts to embed by hash, and the keys waiting for each. */
  private readonly pending = new Map<string, string>();
  private readonly waiting = new Map<string, Set<string>>();
  private readonly queries = new Map<string, Float32Array>();
  private running?: Promise<void>;
  private retryTimer?: ReturnType<typeof setTimeout>;
  private failures = 0;
  private queryAgainAt = 0;
  private readonly said = new Set<string>();
  /** What last failed (undefined once a request succeeded since). */
  failure?: string;

  constructor(
    readonly target: EmbeddingsTarget,
    private readonly open: () => Promise<CapabilityStore>,
  ) {}

  /** How many keys have a vector of their current text, and how many wait for one. */
  get status(): { ready: number; pending: number; failure?: string } {
    let ready = 0;
    for (const [key, src] of this.wanted) if (this.held.get(key) === src) ready++;
    return { ready, pending: this.wanted.size - ready, ...(this.failure ? { failure: this.failure } : {}) };
  }

  /** `key` should have the vector of `text`: from the cache, else embedded in the background. */
  text(key: string, text: string): void {
    const src = sourceOf(text);
    if (this.wanted.get(key) === src) return;
    this.wanted.set(key, src);
    this.pending.set(src, text);
    let keys = this.waiting.get(src);
    if (!keys) this.waiting.set(src, (keys = new Set()));
    keys.add(key);
    this.schedule();
  }

  remove(key: string): void {
    this.wanted.delete(key);
    this.held.delete(key);
    this.index?.remove(key);
  }

  /** Starts the background work unless it runs or waits to retry (the caller never awaits it). */
  private schedule(): void {
    if (this.running || this.retryTimer) return;
    this.running = new Promise<void>((r) => setTimeout(r, 0))
      .then(() => this.work())
      .catch((e: Error) => this.failed(e))
      .finally(() => {
        this.running = undefined;
        if (this.pending.size && !this.retryTimer) this.schedule();
      });
  }

  /** Resolves once nothing waits to be embedded or a failure stopped the work (tests, benches). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async work(): Promise<void> {
    const store = await this.open();
    await this.fromCache(store);
    while (this.pending.size) {
      const batch = [...this.pending].slice(0, BATCH);
      const vectors = await embedTexts(
        this.target,
        batch.map(([, t]) => t),
        BATCH_TIMEOUT_MS,
        this.dims,
      );
      this.dims ??= vectors[0]!.length;
      const rows = batch.map(([src], i) => ({ source: src, bytes: packVector(vectors[i]!) }));
      await store.saveProviderVectors(this.target.identity, this.dims, rows);
      for (const r of rows) this.apply(r.source, r.bytes);
      this.succeeded();
    }
  }

  /** What the cache holds of the pending texts goes into the index without a request. */
  private async fromCache(store: CapabilityStore): Promise<void> {
    const { dims, vectors } = await store.providerVectors(this.target.identity, this.pending.size <= LOOKUP_MAX ? [...this.pending.keys()] : undefined);
    if (dims === undefined || (this.dims !== undefined && dims !== this.dims)) return;
    this.dims = dims;
    for (const src of [...this.pending.keys()]) {
      const bytes = vectors.get(src);
      if (bytes) this.apply(src, bytes);
    }
  }

  private apply(src: string, bytes: Uint8Array): void {
    this.pending.delete(src);
    const keys = this.waiting.get(src);
    this.waiting.delete(src);
    if (!keys) return;
    this.index ??= new VectorIndex(this.dims!);
    for (const key of keys) {
      if (this.wanted.get(key) !== src) continue;
      this.index.setPacked(key, bytes);
      this.held.set(key, src);
    }
  }

  /**
   * The request's vector against the records', or undefined (no vectors yet, or the provider failed:
   * discover then ranks without it). Waits QUERY_TIMEOUT_MS at most.
   */
  async query(text: string): Promise<ProviderQuery | undefined> {
    const index = this.index;
    if (!index?.size || performance.now() < this.queryAgainAt) return undefined;
    let v = this.queries.get(text);
    if (!v) {
      try {
        [v] = await embedTexts(this.target, [text], QUERY_TIMEOUT_MS, this.dims);
        this.succeeded();
      } catch (e) {
        this.queryAgainAt = performance.now() + RETRY_MS;
        this.report(e as Error);
        return undefined;
      }
      if (this.queries.size >= QUERIES_KEPT) this.queries.delete(this.queries.keys().next().value!);
      this.queries.set(text, v!);
    }
    const q = index.prepare(v!);
    if (!q) return undefined;
    return { nearest: (want, accept) => index.score(q, want, accept), cosine: (key) => index.cosine(q, key) };
  }

  private succeeded(): void {
    this.failures = 0;
    this.failure = undefined;
  }

  private failed(e: Error): void {
    this.report(e);
    const wait = Math.min(RETRY_MS * 2 ** this.failures++, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.schedule();
    }, wait);
    this.retryTimer.unref?.();
  }

  /** Said once per distinct failure, on stderr (stdout is the client's). */
  private report(e: Error): void {
    const msg = e instanceof EmbeddingsError ? e.message : `embeddings provider ${this.target.endpoint}: ${e.message}`;
    this.failure = msg;
    if (this.said.has(msg)) return;
    this.said.add(msg);
    log.warn(`${msg}. discover ranks without the provider until it answers well.`);
  }
}
