import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";

/**
 * Tolerates what some clients and shells add around a JSON body (SPEC §7): a UTF-8 byte-order
 * mark in front and a carriage return (CRLF line ending) behind.
 */
export function stripBomAndTrailingCr(text: string): string {
  return text.replace(/^\uFEFF/, "").replace(/[\r\n]+$/, "");
}

export const bomCrTolerance: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === "POST") c.set("bodyText", stripBomAndTrailingCr(c.get("bodyText") ?? ""));
  await next();
};
