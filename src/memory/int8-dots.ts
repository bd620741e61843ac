// Dot products of one query with every row of an int8 matrix: the scan behind each discover's
// vector side (10k records x 100 dimensions). Plain JavaScript spends ~1.2 ms on it, a third of a
// discover; WebAssembly SIMD does 8 products per instruction (i32x4.dot_i16x8_s) in about a sixth
// of that, which pays for a larger candidate pool. The query is quantized to int16 (error ~1/65k
// of its largest component, far under the rows' int8 rounding), so sums stay exact integers.
// The module is 193 bytes, assembled here from its instructions rather than shipped as a binary
// blob, so that what runs can be read.

/** Rows are this many bytes apart at least, and their width a multiple of it (one SIMD load). */
export const ROW_ALIGN = 8;
/** Bytes kept at the start of the memory for the query (int16: up to 512 dimensions). */
const QUERY_BYTES = 1024;
const PAGE = 65536;

export interface Int8Dots {
  /** The rows, `width` int8s each (padding zero); valid until the next `reserve`. */
  rows: Int8Array;
  /** Makes room for `count` rows of `width`, keeping the rows already there (the caller grows it by a share). */
  reserve(count: number): void;
  /** Each of the first `count` rows' dot product with `query` (length `width`), in units of `unit`:
   *  the real dot product of row r is `out[r] * unit`. `out` is valid until the next call. */
  dots(query: Float32Array, count: number): { out: Int32Array; unit: number };
}

/** A kernel for rows of `width` int8s (a multiple of ROW_ALIGN); WebAssembly SIMD where the runtime
 *  has it, else the same arithmetic in JavaScript. */
export function int8Dots(width: number, simd = true): Int8Dots {
  if (width % ROW_ALIGN || width * 2 > QUERY_BYTES) throw new Error(`int8Dots: width ${width} is not a multiple of ${ROW_ALIGN} up to ${QUERY_BYTES / 2}`);
  const compiled = simd ? simdModule() : undefined;
  const wasm = compiled && new WebAssembly.Instance(compiled).exports;
  const memory = wasm?.memory as WebAssembly.Memory | undefined;
  let buffer = memory?.buffer ?? new ArrayBuffer(QUERY_BYTES);
  let capacity = 0;
  let results = new Int32Array(0);
  const kernel: Int8Dots = {
    rows: new Int8Array(0),
    reserve(count) {
      if (count <= capacity) return;
      const had = capacity;
      capacity = count;
      const need = QUERY_BYTES + capacity * (width + 4);
      if (memory) {
        if (need > buffer.byteLength) memory.grow(Math.ceil((need - buffer.byteLength) / PAGE));
        buffer = memory.buffer;
      } else {
        const grown = new ArrayBuffer(need);
        new Uint8Array(grown).set(new Uint8Array(buffer, 0, Math.min(buffer.byteLength, need)));
        buffer = grown;
      }
      kernel.rows = new Int8Array(buffer, QUERY_BYTES, capacity * width);
      // The new rows lie where the last results were: padding must read as zero.
      kernel.rows.fill(0, had * width);
    },
    dots(query, count) {
      const q = new Int16Array(buffer, 0, width);
      let max = 0;
      for (let d = 0; d < query.length; d++) max = Math.max(max, Math.abs(query[d]!));
      const unit = max ? max / 32767 : 1;
      q.fill(0);
      for (let d = 0; d < Math.min(query.length, width); d++) q[d] = Math.round(query[d]! / unit);
      if (results.length < count) results = new Int32Array(capacity);
      const out = results.subarray(0, count);
      if (wasm) {
        const outAt = QUERY_BYTES + capacity * width;
        (wasm.dots as (rows: number, count: number, width: number, query: number, out: number) => void)(QUERY_BYTES, count, width, 0, outAt);
        // Copied out: JavaScriptCore checks a view of WebAssembly memory on every read (it may be
        // detached by a grow), which made the caller's loop over 10k results slower than the scan.
        out.set(new Int32Array(buffer, outAt, count));
      } else scalarDots(kernel.rows, count, width, q, out);
      return { out, unit };
    },
  };
  return kernel;
}

function scalarDots(rows: Int8Array, count: number, width: number, q: Int16Array, out: Int32Array): void {
  for (let r = 0, at = 0; r < count; r++, at += width) {
    let dot = 0;
    for (let d = 0; d < width; d++) dot += rows[at + d]! * q[d]!;
    out[r] = dot;
  }
}

/** The compiled kernel, once per process; undefined where the runtime has no WebAssembly SIMD. */
let compiled: WebAssembly.Module | null | undefined;
function simdModule(): WebAssembly.Module | undefined {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(module());
    } catch {
      compiled = null;
    }
  }
  return compiled ?? undefined;
}

export const simdAvailable = () => simdModule() !== undefined;

// --- the module ------------------------------------------------------------------------------
// (func $dots (param $rows i32) (param $count i32) (param $width i32) (param $q i32) (param $out i32)
//   (local $i i32) (local $d i32) (local $acc v128)
//   for each row: acc = sum over d of dot_i16x8(load8x8_s(rows + d), load(q + 2d)); out[i] = lanes of acc summed
const I32 = 0x7f;
const V128 = 0x7b;
const [ROWS, COUNT, WIDTH, Q, OUT, I, D, ACC] = [0, 1, 2, 3, 4, 5, 6, 7];
const get = (l: number) => [0x20, l];
const set = (l: number) => [0x21, l];
const tee = (l: number) => [0x22, l];
const i32const = (n: number) => [0x41, n];
const [ADD, SHL, LT_U, EQZ] = [[0x6a], [0x74], [0x49], [0x45]];
const simdOp = (op: number, ...imm: number[]) => [0xfd, ...leb(op), ...imm];
const memarg = (align: number) => [align, 0];
/** local += step, then back to the start of the enclosing loop while local < limit (unsigned). */
const stepWhileBelow = (local: number, step: number, limit: number) => [...get(local), ...i32const(step), ...ADD, ...tee(local), ...get(limit), ...LT_U, 0x0d, 0];

function body(): number[] {
  const lane = (n: number) => [...get(ACC), ...simdOp(0x1b, n)]; // i32x4.extract_lane
  return [
    ...[0x02, 0x40], // block
    ...get(COUNT),
    ...EQZ,
    ...[0x0d, 0], // br_if out of the block when there are no rows
    ...[0x03, 0x40], // loop over rows
    ...simdOp(0x0c, ...new Array(16).fill(0)),
    ...set(ACC), // v128.const 0
    ...i32const(0),
    ...set(D),
    ...[0x03, 0x40], // loop over 8 columns at a time
    ...get(ACC),
    ...get(ROWS),
    ...get(D),
    ...ADD,
    ...simdOp(0x01, ...memarg(0)), // v128.load8x8_s
    ...get(Q),
    ...get(D),
    ...i32const(1),
    ...SHL,
    ...ADD,
    ...simdOp(0x00, ...memarg(0)), // v128.load
    ...simdOp(0xba), // i32x4.dot_i16x8_s
    ...simdOp(0xae), // i32x4.add
    ...set(ACC),
    ...stepWhileBelow(D, 8, WIDTH),
    0x0b, // end of the column loop
    ...get(OUT),
    ...get(I),
    ...i32const(2),
    ...SHL,
    ...ADD,
    ...lane(0),
    ...lane(1),
    ...ADD,
    ...lane(2),
    ...ADD,
    ...lane(3),
    ...ADD,
    ...[0x36, ...memarg(2)], // i32.store
    ...get(ROWS),
    ...get(WIDTH),
    ...ADD,
    ...set(ROWS),
    ...stepWhileBelow(I, 1, COUNT),
    0x0b, // end of the row loop
    0x0b, // end of the block
    0x0b, // end of the function
  ];
}

let bytes: Uint8Array | undefined;
function module(): Uint8Array {
  if (bytes) return bytes;
  const code = [
    ...vec([
      [2, I32],
      [1, V128],
    ]),
    ...body(),
  ];
  const str = (s: string) => [s.length, ...Buffer.from(s)];
  bytes = new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, ...vec([I32, I32, I32, I32, I32].map((t) => [t])), 0]])), // type: (5 x i32) -> ()
    ...section(3, vec([[0]])), // function 0 has type 0
    ...section(5, vec([[0x00, 1]])), // memory: at least one page
    ...section(
      7,
      vec([
        [...str("dots"), 0x00, 0],
        [...str("memory"), 0x02, 0],
      ]),
    ),
    ...section(10, vec([[...leb(code.length), ...code]])),
  ]);
  return bytes;
}

function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

function vec(items: number[][]): number[] {
  return [...leb(items.length), ...items.flat()];
}

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}
