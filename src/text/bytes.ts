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
