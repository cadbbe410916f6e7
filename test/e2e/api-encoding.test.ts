import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { rawGet } from "../support/raw-get";
import { newPlayer, startPlaying, type Player } from "./play-helpers";

/**
 * Over HTTP against `wrangler dev`: the spectator's large answers are gzip only for a client that
 * asked for it. The platform rewrites Accept-Encoding before the Worker sees it, so this is only
 * visible on the wire; node:http sends exactly the headers given (fetch would add its own).
 */

describe("spectator answers and Accept-Encoding", () => {
  let player: Player;
  let gameId: string;

  beforeAll(async () => {
    player = await newPlayer(inject("baseUrl"));
    ({ gameId } = await startPlaying(player.client, { kind: "scatter", G: 60 }));
  });
  afterAll(async () => {
    await player?.client.close();
  });

  it("the snapshot and the analysis are plain JSON without Accept-Encoding: gzip, and gzip with it", async () => {
    const base = inject("baseUrl");
    for (const route of ["snapshot", "analysis"]) {
      const url = `${base}/api/games/${gameId}/${route}`;
      const variants: Array<Record<string, string>> = [{}, { "Accept-Encoding": "identity" }, { "Accept-Encoding": "gzip;q=0, identity" }];
      for (const headers of variants) {
        const plain = await rawGet(url, headers);
        const label = `${route} ${JSON.stringify(headers)}`;
        expect(plain.status, label).toBe(200);
        expect(plain.headers["content-encoding"], label).toBeUndefined();
        expect(String(plain.headers.vary), label).toMatch(/accept-encoding/i);
        expect(() => JSON.parse(plain.body.toString("utf8")), label).not.toThrow();
      }
      const zipped = await rawGet(url, { "Accept-Encoding": "gzip, deflate" });
      expect(zipped.status).toBe(200);
      expect(String(zipped.headers.vary)).toMatch(/accept-encoding/i);
      const plain = await rawGet(url);
      if (plain.body.length > 1024) {
        expect(zipped.headers["content-encoding"], route).toBe("gzip");
        expect(gunzipSync(zipped.body).toString("utf8"), route).toBe(plain.body.toString("utf8"));
      }
    }
    // The snapshot of a 60×60 field without fog is large enough to be compressed at all.
    expect((await rawGet(`${base}/api/games/${gameId}/snapshot`)).body.length).toBeGreaterThan(1024);
  });
});
