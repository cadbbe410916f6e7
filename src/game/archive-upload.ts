/**
 * Writes a document given as text pieces to R2, gzip-compressed, without ever holding it whole:
 * pieces go through a CompressionStream and the compressed bytes are cut into equal parts of
 * PART_BYTES for a multipart upload (R2's `put` needs a known length, which a compressed stream
 * does not have; every part but the last must be the same size, at least 5 MiB). Memory stays
 * at about two parts, whatever the document's size.
 */

/** R2's minimum part size; all parts but the last have exactly this size. */
export const PART_BYTES = 5 * 1024 * 1024;

export interface UploadResult {
  /** Compressed size in bytes (the object's size). */
  bytes: number;
  /** Uncompressed size in bytes. */
  rawBytes: number;
  parts: number;
}

export interface UploadOptions {
  httpMetadata?: R2HTTPMetadata;
  customMetadata?: Record<string, string>;
  /** Part size (tests use the default; must stay ≥ 5 MiB for R2). */
  partBytes?: number;
}

export async function uploadGzipped(bucket: R2Bucket, key: string, pieces: Iterable<string>, options: UploadOptions = {}): Promise<UploadResult> {
  const partBytes = options.partBytes ?? PART_BYTES;
  const upload = await bucket.createMultipartUpload(key, { httpMetadata: options.httpMetadata, customMetadata: options.customMetadata });
  const uploaded: R2UploadedPart[] = [];
  let part = new Uint8Array(partBytes);
  let filled = 0;
  let bytes = 0;
  let rawBytes = 0;
  const flush = async (last: boolean): Promise<void> => {
    if (filled === 0 && !(last && uploaded.length === 0)) return;
    const body = filled === partBytes ? part : part.slice(0, filled);
    part = new Uint8Array(partBytes);
    filled = 0;
    uploaded.push(await upload.uploadPart(uploaded.length + 1, body));
  };

  const gzip = new CompressionStream("gzip");
  const writer = gzip.writable.getWriter();
  const reader = gzip.readable.getReader();
  // Drains the compressor into parts while pieces are written; its awaits give backpressure.
  const drain = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        bytes += value.byteLength;
        let at = 0;
        while (at < value.byteLength) {
          const n = Math.min(value.byteLength - at, partBytes - filled);
          part.set(value.subarray(at, at + n), filled);
          filled += n;
          at += n;
          if (filled === partBytes) await flush(false);
        }
      }
    } catch (err) {
      // A failed part: cancelling the readable side errors the writable one, so a pending write rejects.
      await reader.cancel(err).catch(() => {});
      throw err;
    }
  })();

  try {
    const encoder = new TextEncoder();
    for (const piece of pieces) {
      const chunk = encoder.encode(piece);
      rawBytes += chunk.byteLength;
      await writer.write(chunk);
    }
    await writer.close();
    await drain;
    await flush(true);
    await upload.complete(uploaded);
  } catch (err) {
    await writer.abort(err).catch(() => {});
    await drain.catch(() => {});
    await upload.abort().catch((e) => console.error("multipart abort failed", e));
    throw err;
  }
  return { bytes, rawBytes, parts: uploaded.length };
}
