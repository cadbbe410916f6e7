/** Pieces of bytes joined into one array (a streamed body, a blob stored in parts). Pure. */
export function concatBytes(pieces: ReadonlyArray<Uint8Array | ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const views = pieces.map((p) => (p instanceof Uint8Array ? p : new Uint8Array(p)));
  const out = new Uint8Array(views.reduce((n, v) => n + v.byteLength, 0));
  let at = 0;
  for (const v of views) {
    out.set(v, at);
    at += v.byteLength;
  }
  return out;
}

/**
 * Frees the memory under `bytes` at once instead of at the next full collection, which a worker
 * busy for a minute may not run for tens of seconds (a download's pieces once joined, an archive
 * once decoded): its buffer is moved into an empty one (`ArrayBuffer.prototype.transfer`, where the
 * runtime has it; elsewhere nothing happens). Only a view over a whole buffer is released, so a
 * view into a shared pool is left alone. `bytes` is empty afterwards.
 */
export function releaseBytes(bytes: Uint8Array): void {
  const buffer = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer; detached?: boolean };
  if (!(buffer instanceof ArrayBuffer) || typeof buffer.transfer !== "function" || buffer.detached) return;
  if (bytes.byteOffset !== 0 || bytes.byteLength !== buffer.byteLength) return;
  buffer.transfer(0);
}
