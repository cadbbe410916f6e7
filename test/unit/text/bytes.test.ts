import { describe, expect, it } from "vitest";
import { concatBytes, releaseBytes } from "../../../src/text/bytes";

describe("concatBytes", () => {
  it("joins pieces in order, views and buffers alike", () => {
    const joined = concatBytes([new Uint8Array([1, 2]), new Uint8Array([3]).buffer, new Uint8Array(0), new Uint8Array([4, 5])]);
    expect([...joined]).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("releaseBytes", () => {
  it("frees a view over a whole buffer: the buffer is detached and the bytes read as empty", () => {
    const bytes = new Uint8Array(1 << 20).fill(7);
    releaseBytes(bytes);
    expect((bytes.buffer as ArrayBuffer & { detached: boolean }).detached).toBe(true);
    expect(bytes.byteLength).toBe(0);
  });

  it("leaves a view into part of a buffer alone: the rest of the buffer may be someone else's", () => {
    const shared = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const part = shared.subarray(2, 4);
    releaseBytes(part);
    expect([...part]).toEqual([3, 4]);
    expect([...shared]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("does nothing to bytes already released or moved to a worker", () => {
    const bytes = new Uint8Array(16);
    structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
    expect(() => releaseBytes(bytes)).not.toThrow();
    releaseBytes(new Uint8Array(0));
  });

  it("keeps what was joined from released pieces", () => {
    const pieces = [new Uint8Array([1, 2, 3]), new Uint8Array([4])];
    const joined = concatBytes(pieces);
    for (const p of pieces) releaseBytes(p);
    expect(pieces.map((p) => p.byteLength)).toEqual([0, 0]);
    expect([...joined]).toEqual([1, 2, 3, 4]);
  });
});
