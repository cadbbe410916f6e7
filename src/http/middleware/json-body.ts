import type { MiddlewareHandler } from "hono";
import { isJsonContentType } from "@modelcontextprotocol/server";
import type { AppEnv } from "../types";
import { jsonRpcErrorResponse, PARSE_ERROR, SERVER_ERROR } from "../jsonrpc";

/** Parses the POST body once: 415 for a non-JSON media type, -32700 for malformed JSON. */
export const jsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "POST") return next();
  if (!isJsonContentType(c.req.header("content-type") ?? null)) {
    return jsonRpcErrorResponse(415, SERVER_ERROR, "Unsupported Media Type: Content-Type must be application/json");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(c.get("bodyText") ?? "");
  } catch {
    return jsonRpcErrorResponse(400, PARSE_ERROR, "Parse error: the body is not valid JSON");
  }
  c.set("parsedBody", parsed);
  await next();
};
