import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/** One Durable Object per game_id: serialises writes, keeps the field in SQLite (SPEC §13). */
export class FieldObject extends DurableObject<Env> {
  async ping(): Promise<string> {
    return "field";
  }
}
