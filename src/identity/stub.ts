import type { Env } from "../env";

/** The identity Durable Object of one machine (sharded by machine id; see identity-object.ts). */
export function identityStub(env: Env, machineId: string): DurableObjectStub<import("./identity-object").IdentityObject> {
  return env.IDENTITY.getByName(machineId);
}
