// Signed requests of a machine over its sign-in grants (SPEC §8.1), for the workerd tests.
import { toBase64Url } from "../../src/text/encoding";
import type { Machine } from "./identity-helpers";

export async function grantsBody(origin: string, m: Machine, ts = Math.floor(Date.now() / 1000)): Promise<Record<string, unknown>> {
  return { publicKey: m.publicKey, ts, sig: toBase64Url(await m.sign(`mosaic-oauth-grants:${new URL(origin).host}:${ts}`)) };
}

export async function revokeBody(origin: string, m: Machine, grant: string, ts = Math.floor(Date.now() / 1000)): Promise<Record<string, unknown>> {
  return { publicKey: m.publicKey, ts, grant, sig: toBase64Url(await m.sign(`mosaic-oauth-revoke:${new URL(origin).host}:${ts}:${grant}`)) };
}
