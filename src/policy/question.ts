// What the user is asked before a call runs, as the gate puts it and every asker shows it.

/** Variables the user is asked to give to a namespace (an approval grants them). */
export interface EnvGrant {
  ns: string;
  names: string[];
}

export interface Question {
  /** The tool id that needs the user's approval. */
  toolId: string;
  /** What will run and what it receives, in plain words. */
  why: string;
  /** Variables a yes gives to the namespace. */
  grant?: EnvGrant;
  /** What a yes approves for the session: the tool, or for a shell command that command
   * (see approval-text.ts approvalKey). */
  key: string;
  /** .pml.json allows the tool already (only variables are asked): "Always" writes no allow. */
  fileAllows?: boolean;
  /** The user dismissed the form that asked it (cancel): asked again with the result, which says so. */
  dismissed?: boolean;
}

/** The session-approval key of a variable granted to a namespace (never a tool id: spaces). */
export const grantKey = (ns: string, name: string) => `env ${ns} ${name}`;
