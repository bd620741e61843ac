// How a command or server will run, in the words approval texts use. Text only: the caller
// passes which confinement works here (confine.ts probes it), so the gate's decision stays a
// function of what it was told (src/policy/evaluate.ts).
import type { Confinement } from "./confine.ts";

/** The sentence approval texts use to say how a command or server will run under `c`. */
export function confinementSentence(c: Confinement, network: boolean): string {
  if (c.kind === "none") {
    return `It is NOT confined: it runs as you, with your files and network (${c.reason}; ${c.install}).`;
  }
  const how = c.kind === "bubblewrap" ? "bubblewrap" : "Seatbelt";
  return (
    `Confined by ${how}: it can write only the workspace (not .pml.json, .mcp.json, .git, .claude, .pml or .env*), ` +
    `cannot read your home directory, ${network ? "and HAS network access" : "and has no network"}.`
  );
}
