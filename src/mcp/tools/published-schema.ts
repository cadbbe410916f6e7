import type { z } from "zod";

type JsonSchemaConverter = (options: { target: string }) => Record<string, unknown>;

/**
 * A tool's argument schema as `tools/list` publishes it: zod's own JSON Schema without the
 * `$schema` dialect line. MCP already takes JSON Schema 2020-12 as the default dialect, and the
 * line would be repeated for every tool in a list every agent pays to read (SPEC §6 token
 * economy). Nor the bounds zod writes on every integer (±9007199254740991, the safe-integer
 * range, which says nothing to a reader): 27 bytes each, seven times in the list. Validation is
 * untouched: the result is the same zod schema underneath.
 *
 * The conversion is done once per isolate and target: the SDK converts a tool's schema on every
 * `tools/call` (to look for `Mcp-Param` header declarations) and the servers are built per
 * request, so without the memo each call paid a full zod → JSON Schema walk (~1 ms of CPU). The
 * shared result is deeply frozen: no request can change what another one reads.
 */
export function published<T extends z.ZodType>(schema: T): T {
  const standard = schema["~standard"] as T["~standard"] & { jsonSchema?: { input: JsonSchemaConverter; output: JsonSchemaConverter } };
  const convert = standard.jsonSchema;
  if (!convert) return schema;
  const withoutDialect = (to: JsonSchemaConverter): JsonSchemaConverter => {
    const done = new Map<string, Record<string, unknown>>();
    return (options) => {
      let json = done.get(options.target);
      if (json === undefined) {
        const { $schema: _dialect, ...rest } = to(options);
        json = deepFreeze(withoutSafeIntegerBounds(rest));
        done.set(options.target, json);
      }
      return json;
    };
  };
  const derived = Object.create(schema) as T;
  Object.defineProperty(derived, "~standard", {
    value: { ...standard, jsonSchema: { input: withoutDialect(convert.input), output: withoutDialect(convert.output) } },
    enumerable: false,
  });
  return derived;
}

/** A copy of a JSON Schema without `maximum`/`minimum` equal to the safe-integer range's ends. */
export function withoutSafeIntegerBounds<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds) as T;
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if ((key === "maximum" && inner === Number.MAX_SAFE_INTEGER) || (key === "minimum" && inner === Number.MIN_SAFE_INTEGER)) continue;
    out[key] = withoutSafeIntegerBounds(inner);
  }
  return out as T;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
