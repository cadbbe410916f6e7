import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../types";
import { jsonRpcErrorResponse, PARSE_ERROR } from "../jsonrpc";

/** The /mcp body (already read under the limit) as UTF-8 text; invalid UTF-8 is a parse error. */
export const utf8Body: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "POST") return next();
  try {
    c.set("bodyText", new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(c.get("bodyBytes") ?? new Uint8Array(0)));
  } catch {
    return jsonRpcErrorResponse(400, PARSE_ERROR, "Parse error: the body is not valid UTF-8");
  }
  await next();
};
