// A header value made from a variable (a key, a token): a line break in it would end the header
// and start another one of the value's choosing.

/** True when `value` can be sent as an HTTP header value as it is: printable, tab allowed. */
export function isHeaderSafe(value: string): boolean {
  return /^[\x20-\x7e\x80-\xff\t]*$/.test(value);
}
