import { unpackTiles } from "./codec";
import { SpectatorError, type SpectatorModel } from "./model";
import type { LiveMessage, LogHead } from "./types";

export interface LiveApplyResult {
  /** Events applied to the model. */
  applied: number;
  /** Set when the page must load a fresh snapshot and reconnect from its revision. */
  resync?: string;
  /** The head the server announced with the message. */
  logHead?: LogHead;
}

/**
 * Apply one message of the live feed to a spectator's model: learn the geometry it carries, skip
 * events already applied (a reconnect may repeat some), and ask for a resync on a gap or on a
 * `resync` message. The model is left unchanged by an event it cannot apply.
 */
export function applyLiveMessage(model: SpectatorModel, message: LiveMessage): LiveApplyResult {
  if (message.type === "resync") return { applied: 0, resync: message.reason, logHead: message.log_head };
  if (message.type !== "events") return { applied: 0, logHead: message.log_head };
  if (message.tiles) model.addTiles(unpackTiles(message.tiles));
  let applied = 0;
  for (const e of message.events) {
    if (e.rev <= model.revision) continue;
    if (e.rev !== model.revision + 1) return { applied, resync: `missing events ${model.revision + 1}..${e.rev - 1}`, logHead: message.log_head };
    try {
      model.apply(e);
    } catch (err) {
      if (err instanceof SpectatorError) return { applied, resync: err.message, logHead: message.log_head };
      throw err;
    }
    applied++;
  }
  return { applied, logHead: message.log_head };
}
