/** A problem with a file the user owns (.pml.json, .mcp.json, .env): the message says which file,
 * where, and what to do. Callers show `message` as is. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(message);
  }
}
