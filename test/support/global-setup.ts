import type { TestProject } from "vitest/node";
import { buildSite } from "../../scripts/build-site";
import { installClients } from "../../scripts/install-clients";
import { startDevServer, type DevServer } from "./wrangler-dev";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

let server: DevServer | undefined;

/** One shared `wrangler dev` for the e2e project; its URL reaches tests through inject("baseUrl"). */
export async function setup(project: TestProject): Promise<void> {
  // wrangler dev serves public/ as it is: bundle the spectator site first.
  await buildSite();
  // The client matrix (test/clients) runs in this project with its own packages.
  installClients();
  server = await startDevServer({ vars: { MOSAIC_DEV: "1" } });
  project.provide("baseUrl", server.baseUrl);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
