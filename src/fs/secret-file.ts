// A secret pml keeps in a file of its own under $PML_HOME (the `pml serve` token): created once,
// whole, with mode 0600 and never through a link, and refused when anyone but its owner could read
// it, since whoever reads it can act as the user.
import { closeSync, constants, fchmodSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname } from "node:path";
import { ConfigError } from "../errors.ts";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// Windows has no POSIX modes or uids; a file in the user's profile is the user's by its ACL.
const POSIX = process.platform !== "win32";

export interface SecretFile {
  /** The file's content as written (the caller checks its form). */
  text: string;
  /** This call created the file. */
  created: boolean;
}

/**
 * The secret in `path`, created with `make()` first when there is none. Throws a ConfigError that
 * says what to do when the file is a link, not a regular file, another user's, or readable by
 * group or others.
 */
export function readOrCreateSecretFile(path: string, make: () => string): SecretFile {
  const existing = readSecretFile(path);
  if (existing !== undefined) return { text: existing, created: false };
  const created = createExclusively(path, make());
  const text = readSecretFile(path);
  if (text === undefined) throw new ConfigError(`${path} disappeared while pml created it; retry.`, path);
  return { text, created };
}

/** The file's content, or undefined when there is no file; checked before a byte is read. */
function readSecretFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW | constants.O_NONBLOCK);
  } catch (e: any) {
    if (e?.code === "ENOENT") return undefined;
    if (e?.code === "ELOOP" || e?.code === "EMLINK")
      throw new ConfigError(`${path} is a symbolic link; pml keeps its secrets in a file of its own. Remove the link (rm "${path}") and pml creates a new one.`, path);
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new ConfigError(`${path} is not a regular file; remove it and pml creates a new one.`, path);
    if (POSIX && st.uid !== process.getuid?.()) throw new ConfigError(`${path} belongs to another user (uid ${st.uid}); remove it and pml creates a new one.`, path);
    if (POSIX && (st.mode & 0o077) !== 0)
      throw new ConfigError(
        `${path} is readable by other users (mode ${(st.mode & 0o777).toString(8)}), so it no longer protects anything; run \`chmod 600 ${path}\` (or remove it for a new one).`,
        path,
      );
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** Writes `text` in full under a temporary name, then links it into place: a concurrent pml either
 * wins the link or reads the complete file of the one that did. True when this call won. */
function createExclusively(path: string, text: string): boolean {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const fd = openSync(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | NOFOLLOW, 0o600);
  try {
    if (POSIX) fchmodSync(fd, 0o600); // open's mode passes through the umask; this one must be exact
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
    return true;
  } catch (e: any) {
    if (e?.code !== "EEXIST") throw e;
    return false;
  } finally {
    unlinkSync(tmp);
  }
}
