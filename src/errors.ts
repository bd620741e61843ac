// The one base of every error whose message is meant for the user (or the model acting for them):
// it says what went wrong and what to do, and is shown as it is. Anything else that escapes is a
// bug in pml and is reported as an internal error.

export class UserError extends Error {
  override name = "UserError";
}

/** A problem with a file the user owns (.pml.json, .mcp.json, .env): the message says which file,
 * where, and what to do. */
export class ConfigError extends UserError {
  override name = "ConfigError";
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(message);
  }
}
