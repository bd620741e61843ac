// What confining a process means: the policy it runs under, and the command line (with its
// clean-up) that runs it so (confine.ts picks bubblewrap or Seatbelt).

export interface ConfinePolicy {
  /** Readable and writable (except protected files); bound at its own path. */
  workspace: string;
  /** Where the process starts (inside the workspace); default the workspace. */
  cwd?: string;
  /** All network or none. */
  network: boolean;
  /** Extra paths visible read-only even when under a hidden directory (installed packages, pml's binary). */
  readOnly?: string[];
  /** Extra directories the process may write (a server's own data dir). */
  writable?: string[];
  /** Stays in its caller's session (a long-lived server: on Linux a session of its own is a
   * scheduling group of its own, pool/exec-in-group.ts says what that costs). It reaches no
   * terminal either way: /dev/tty inside is /dev/null, and nothing else of a terminal is there. */
  inCallerSession?: boolean;
}

export interface ConfinedCommand {
  argv: string[];
  /** Environment changes the confinement needs (TMPDIR). */
  env: Record<string, string>;
  /** Call once the process has exited: removes the placeholders it needed. */
  release(): void;
  /**
   * For long-lived processes: watches the protected paths bound read-only. A file replaced by
   * rename on the host (an editor's save, pml's own atomic write of .pml.json, `rm -rf .git`)
   * detaches the read-only mount inside the sandbox, so `onBreach` is called with that path: the
   * caller restarts the process to bind the new file. Call once the process is running (its
   * mounts are made); returns the function that stops watching.
   */
  guard(onBreach: (path: string) => void): () => void;
  /**
   * For short-lived processes, once they have exited: protected entries that appeared (or were
   * replaced) while they ran, where no read-only bind could stand in advance (`sub/.git`,
   * `.env.production`), are renamed aside to `<name>.pml-blocked-<time>` (nothing is deleted) so
   * that git, pml or a dotenv loader never picks them up. Returns [created, moved-to] pairs.
   */
  sweep(): Array<[string, string]>;
}
