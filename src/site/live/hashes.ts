import { gamePath, getJson } from "../api";

/**
 * Tile hashes (SPEC §9: published as tiles come into existence) for the details card, fetched
 * once on the first request — every tile's `{id, hash}` — and refreshed when a tile is missing
 * (it grew later).
 */
export class HashBook {
  private hashes = new Map<number, string>();
  private loading: Promise<void> | null = null;
  private loadedAt = 0;

  constructor(private readonly gameId: string) {}

  async get(id: number): Promise<string | undefined> {
    if (!this.hashes.has(id) && (!this.loading || performance.now() - this.loadedAt > 30_000)) this.loading = this.load();
    await this.loading;
    return this.hashes.get(id);
  }

  private async load(): Promise<void> {
    this.loadedAt = performance.now();
    try {
      const body = await getJson<{ hashes?: Array<{ id: number; hash: string }>; tiles?: Array<{ id: number; hash: string }> } | Array<{ id: number; hash: string }>>(gamePath(this.gameId, "/hashes"));
      const list = Array.isArray(body) ? body : (body.hashes ?? body.tiles ?? []);
      for (const { id, hash } of list) this.hashes.set(id, hash);
    } catch {
      // Fields started with start_mosaic publish no commitments: the card says so.
    }
  }
}
