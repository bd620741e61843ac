// The one rule for registry names, shared by the client, the resolver and the server: dot-separated
// segments of [A-Za-z0-9_-]. No empty segment, so "..", "a..b", leading or trailing dots never pass,
// and nothing that could name a path (slashes, backslashes, NUL) gets near a file name.
export const FQDN_PATTERN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
export const FQDN_MAX_LENGTH = 200;

export function isValidFqdn(name: string): boolean {
  return name.length > 0 && name.length <= FQDN_MAX_LENGTH && FQDN_PATTERN.test(name);
}

/** Registry URLs are compared and keyed without trailing slashes. */
export function normalizeRegistryUrl(url: string): string {
  return url.trim().replace(/\/+$/, "");
}
