import { createApp } from "./http/app";
import type { Env } from "./env";
import { runDailyCron } from "./daily/daily-lifecycle";

export { FieldObject } from "./game/field-object";
export { RegistryObject } from "./game/registry-object";
export { IdentityObject } from "./identity/identity-object";
export { HistoryObject } from "./history-store/history-object";
export { RelayObject } from "./live/relay-object";

const app = createApp();

export default {
  fetch: app.fetch,
  /** The daily lifecycle (SPEC §9) on the hosted daily server: open today, close what ended. */
  async scheduled(controller: ScheduledController, env: Env, _ctx: ExecutionContext): Promise<void> {
    if (env.MOSAIC_DAILY !== "1") return;
    const result = await runDailyCron(env, controller.scheduledTime);
    console.log(`daily cron ${new Date(controller.scheduledTime).toISOString()}: ${JSON.stringify(result)}`);
    if (result.errors.length > 0) throw new Error(`daily cron: ${result.errors.join("; ")}`);
  },
} satisfies ExportedHandler<Env>;
