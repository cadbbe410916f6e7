import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/** Machines, keys and hashed bearer tokens (SPEC §8). */
export class IdentityObject extends DurableObject<Env> {
  async ping(): Promise<string> {
    return "identity";
  }
}
