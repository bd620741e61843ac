// `pml doctor`'s look at the embeddings provider (memory.embeddings, PML_EMBEDDINGS_URL): whether one
// is configured and trusted, and whether it answers well now. It asks the provider itself, with the
// timeout a request's vector gets, so what it says is what discover would meet.
import type { ProjectConfig } from "../../config/pml-json.ts";
import { embedTexts } from "../../memory/embeddings-client.ts";
import { embeddingsTarget } from "../../memory/embeddings-config.ts";
import { QUERY_TIMEOUT_MS } from "../../memory/provider-vectors.ts";
import type { Grant } from "../../policy/trust/grants.ts";

export interface EmbeddingsCheck {
  name: "embeddings";
  ok: boolean;
  warn?: boolean;
  detail: string;
}

export async function embeddingsCheck(root: string, config: ProjectConfig, untrusted: readonly Grant[]): Promise<EmbeddingsCheck | undefined> {
  const held = untrusted.some((g) => g.id.startsWith("memory.embeddings "));
  const applied = held ? { ...config, memory: { ...config.memory, embeddings: undefined } } : config;
  const t = embeddingsTarget(applied, root);
  const heldNote = held ? "; .pml.json memory.embeddings is not trusted, so nothing is sent there (run `pml trust`)" : "";
  if (!t) return held ? { name: "embeddings", ok: true, warn: true, detail: `none in use${heldNote}` } : undefined;
  if ("error" in t) return { name: "embeddings", ok: false, detail: `${t.error} discover ranks without a provider.` };
  try {
    const [v] = await embedTexts(t, ["pml doctor"], QUERY_TIMEOUT_MS);
    const key = t.keyEnv ? `, with your $${t.keyEnv}` : "";
    return { name: "embeddings", ok: true, detail: `${t.endpoint} (${t.from}, model ${t.model}${key}) answers: ${v!.length} dimensions${heldNote}` };
  } catch (e) {
    return { name: "embeddings", ok: false, detail: `${(e as Error).message}; discover ranks without the provider until it answers well${heldNote}` };
  }
}
