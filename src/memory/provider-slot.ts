// What discover holds of the embeddings provider: nothing at all until memory.embeddings (or
// PML_EMBEDDINGS_URL) names one, so a pml without a provider loads none of its code; then the
// provider's vectors (provider-vectors.ts) and its fusion step (provider-fusion.ts), replaced when the
// configured provider or model changes (its vectors start over: those of another model never mix in).
import { log } from "../log.ts";
import type { EmbeddingsMisconfigured, EmbeddingsTarget } from "./embeddings-config.ts";
import type { ProviderFuseInput } from "./provider-fusion.ts";
import type { ProviderVectors } from "./provider-vectors.ts";
import type { Hit } from "./search.ts";
import type { CapabilityStore, SearchRecord } from "./store.ts";

/** A request's vector against the records': what the fusion reads (provider-fusion.ts). */
export interface ProviderQuery {
  /** The best `want` keys `accept` lets through, as [key, cosine]. */
  nearest(want: number, accept: (key: string) => boolean): Array<[string, number]>;
  cosine(key: string): number | undefined;
}

export class ProviderSlot {
  private vectors?: ProviderVectors;
  private fuser?: typeof import("./provider-fusion.ts").fuseProvider;
  private recordText?: typeof import("./meaning.ts").recordText;
  private readonly said = new Set<string>();

  constructor(private readonly open: () => Promise<CapabilityStore>) {}

  /** The provider in use (tests, benches, status). */
  get current(): ProviderVectors | undefined {
    return this.vectors;
  }

  /** Uses the configured provider; true when it is a new one (every text must be given to it again). */
  async use(target: EmbeddingsTarget | EmbeddingsMisconfigured | undefined): Promise<boolean> {
    if (target && "error" in target && !this.said.has(target.error)) {
      this.said.add(target.error);
      log.warn(`${target.error} discover ranks without an embeddings provider.`);
    }
    const t = target && "identity" in target ? target : undefined;
    if (this.vectors?.target.identity === t?.identity) return false;
    this.vectors = undefined;
    if (!t) return false;
    const [{ ProviderVectors }, { fuseProvider }, { recordText }] = await Promise.all([import("./provider-vectors.ts"), import("./provider-fusion.ts"), import("./meaning.ts")]);
    // A discover beside this one may have made it meanwhile.
    if ((this.vectors as ProviderVectors | undefined)?.target.identity === t.identity) return false;
    this.fuser = fuseProvider;
    this.recordText = recordText;
    this.vectors = new ProviderVectors(t, this.open);
    return true;
  }

  record(key: string, c: SearchRecord): void {
    this.vectors?.text(key, this.recordText!(c));
  }

  text(key: string, text: string): void {
    this.vectors?.text(key, text);
  }

  remove(key: string): void {
    this.vectors?.remove(key);
  }

  /** The request against the provider's vectors (at most QUERY_TIMEOUT_MS); undefined without one. */
  async query(text: string): Promise<ProviderQuery | undefined> {
    return this.vectors?.query(text);
  }

  /** The built-in ranking's candidates with the provider's fused in (provider-fusion.ts). */
  fuse(input: ProviderFuseInput): Hit[] {
    return this.fuser ? this.fuser(input) : input.fused;
  }
}
