// Per-slot numbers kept in typed arrays (search.ts, vector-index.ts, slot-lists.ts) grow by copy.

type Numbers = Float32Array | Float64Array | Int32Array;

/** A copy of `a` with room for `length` entries; the new ones are 0. */
export function grown<T extends Numbers>(a: T, length: number): T {
  const out = new (a.constructor as new (n: number) => T)(length);
  out.set(a as never);
  return out;
}
