// The limits of .pml.json that spend the user's time, tokens or money outside the sandbox, and
// pml's defaults for them: one table for the code that applies them and for workspace trust, where
// a value above the default (a longer wait, a bigger LLM bill, a longer tool list in every
// request's context) is a grant (src/policy/trust/grants.ts).
export const COST_LIMIT_DEFAULTS = {
  /** How long a call to a pooled or remote tool server may take. */
  "pool.call_timeout_s": 120,
  /** How long an idle tool server keeps running. */
  "pool.idle_timeout_s": 300,
  "cloud.timeout_s": 30,
  "sampling.timeout_s": 120,
  /** The most tokens one sampling request may spend of the user's LLM key. */
  "sampling.max_tokens": 4096,
  /** How many capabilities tools/list carries ("all": every one). */
  "memory.list_tools": 20,
} as const;

export type CostLimitKey = keyof typeof COST_LIMIT_DEFAULTS;
