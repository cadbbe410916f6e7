import type { Env } from "../env";
import { displayNames } from "../identity/api";
import type { SpectatorModel } from "../spectator";

/** How long a looked-up display name is trusted before it is asked again. */
const NAME_TTL_MS = 60_000;

/**
 * Machines' display names (SPEC §8: the key holder's name wins over join's `name`), looked up in
 * the identity objects at most once a minute per machine and applied to the model before it is
 * shown. A lookup that fails keeps the name the model has.
 */
export class DisplayNames {
  private readonly cache = new Map<string, { name: string | null; at: number }>();

  constructor(private readonly env: Env) {}

  async apply(model: SpectatorModel): Promise<void> {
    const now = Date.now();
    const stale = model.machines.filter((m) => {
      const c = this.cache.get(m.id);
      return !c || now - c.at > NAME_TTL_MS;
    });
    for (const [id, name] of await displayNames(this.env, stale.map((m) => m.id))) this.cache.set(id, { name, at: now });
    for (const m of model.machines) {
      const name = this.cache.get(m.id)?.name;
      if (name) model.setDisplayName(m.id, name);
    }
  }
}
