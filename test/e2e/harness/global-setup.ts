import type { TestProject } from "vitest/node";
import { startDevServer, type DevServer } from "./wrangler-dev";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

let server: DevServer | undefined;

/** One shared `wrangler dev` for the e2e project; its URL reaches tests through inject("baseUrl"). */
export async function setup(project: TestProject): Promise<void> {
  server = await startDevServer({ vars: { MOSAIC_DEV: "1" } });
  project.provide("baseUrl", server.baseUrl);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
