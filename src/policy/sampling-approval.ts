// A child server's sampling/createMessage spends the user's LLM key, so it is a call like any
// other: capped by .pml.json `sampling.max_tokens` (default 4096; larger requests are clamped),
// and, when pml itself would send it to the configured API, approved by the user first — once per
// server per session ("Continue"), or for good ("Always" adds the server to `sampling.allow`).
// Relayed to a client that can sample, the client's own UI approves it; the cap still applies.
import { capSamplingRequest, samplingCap, SamplingError, samplingTarget, type CreateMessageParams, type SamplingTarget } from "../cloud/sampling.ts";
import type { ProjectConfig } from "../config/pml-json.ts";
import { log } from "../log.ts";
import { allowSamplingAlways } from "./trust/trust-record.ts";
import { isRefusal } from "./approval-channel.ts";
import { askByForm } from "./workflow-channel.ts";
import type { Session } from "../mcp/session.ts";

const approvalKey = (ns: string) => `sampling ${ns}`;

/** The request as it may go out: maxTokens within the cap. */
export function capped(params: CreateMessageParams, config: ProjectConfig): CreateMessageParams {
  const cap = samplingCap(config);
  const out = capSamplingRequest(params, cap);
  if (out !== params) log.info(`sampling request asked for maxTokens ${JSON.stringify(params.maxTokens)}; clamped to ${cap} (.pml.json sampling.max_tokens)`);
  return out;
}

/** Throws a SamplingError (the server gets it as the error of its request) unless the user allows
 * `ns` to sample through the configured API with their key; returns where it will go. */
export async function authorizeSampling(
  ns: string,
  params: CreateMessageParams,
  opts: { config: ProjectConfig; workspace: string; asker: Session | undefined; invalidate(): void },
): Promise<SamplingTarget> {
  const target = samplingTarget(params, { config: opts.config, workspace: opts.workspace });
  const allowList = (opts.config.sampling as { allow?: string[] } | undefined)?.allow ?? [];
  if (allowList.includes(ns) || opts.asker?.approved.has(approvalKey(ns))) return target;
  const why =
    `The MCP server "${ns}" asks for an LLM completion with your ${target.keyEnv}: model ${target.model}, up to ${params.maxTokens} tokens ` +
    `(cap: .pml.json sampling.max_tokens = ${samplingCap(opts.config)}), sent to ${target.url}. "Always" adds "${ns}" to .pml.json sampling.allow.`;
  const question = { toolId: `sampling by ${ns}`, why, key: approvalKey(ns) };
  const decision = opts.asker ? await askByForm(opts.asker, question, new AbortController().signal) : "later";
  if (isRefusal(decision)) throw new SamplingError(`The user declined the sampling request of "${ns}"; nothing was sent to ${target.url}.`);
  if (decision === "later" || decision === "dismissed")
    throw new SamplingError(
      `The sampling request of "${ns}" needs the user's approval (it would spend ${target.keyEnv}), and the client cannot ask in-line. ` +
        `Nothing was sent. To allow it, add "${ns}" to "sampling": {"allow": [...]} in ${opts.workspace}/.pml.json.`,
    );
  opts.asker!.approved.add(approvalKey(ns));
  if (decision === "always") {
    try {
      await allowSamplingAlways(opts.workspace, ns);
      opts.invalidate();
    } catch (e) {
      log.warn(`could not add ${ns} to .pml.json sampling.allow: ${(e as Error).message}`);
    }
  }
  return target;
}
