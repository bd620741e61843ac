// How to start one stdio MCP server: what the loader produces and the pool consumes.

export interface LaunchSpec {
  command: string;
  args: string[];
  /** The child's complete environment (not merged with pml's). */
  env: Record<string, string>;
  cwd?: string;
  /** Called once the process has exited (the OS sandbox's clean-up, pool/confine-server.ts). */
  release?: () => void;
  /** Once the server answered initialize: watch what must stay read-only in its sandbox; calls
   * `onBreach` when that no longer holds (the server must restart). Returns the unwatch. */
  guard?: (onBreach: (path: string) => void) => () => void;
}

/** A launch spec, or a function that produces one (install on first use); called only when the
 * pool has to spawn the server, so an installed, running server costs nothing here. */
export type LaunchSource = LaunchSpec | ((progress: (message: string) => void, signal: AbortSignal) => Promise<LaunchSpec>);
