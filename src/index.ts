import { createApp } from "./http/app";
import type { Env } from "./env";

export { FieldObject } from "./game/field-object";
export { RegistryObject } from "./game/registry-object";
export { IdentityObject } from "./identity/identity-object";

const app = createApp();

export default {
  fetch: app.fetch,
  async scheduled(controller: ScheduledController, _env: Env, _ctx: ExecutionContext): Promise<void> {
    // The daily lifecycle (SPEC §9) hooks in here.
    console.log(`scheduled: ${controller.cron} at ${new Date(controller.scheduledTime).toISOString()}`);
  },
} satisfies ExportedHandler<Env>;
