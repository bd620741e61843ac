// Reads a byte stream as UTF-8 text up to a cap (a command's output, a fetched body).

/** The stream's text up to `cap` bytes; the rest is drained and dropped, and `truncated` says so. */
export async function readCapped(stream: ReadableStream<Uint8Array> | null, cap: number): Promise<{ text: string; truncated: boolean }> {
  if (!stream) return { text: "", truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream) {
    if (size >= cap) {
      truncated = true;
      continue; // keep draining so the child does not block on a full pipe
    }
    const room = cap - size;
    if (chunk.length > room) truncated = true;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    chunks.push(part);
    size += part.length;
  }
  return { text: Buffer.concat(chunks).toString("utf8"), truncated };
}
