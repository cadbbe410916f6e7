import type { z } from "zod";

type JsonSchemaConverter = (options: { target: string }) => Record<string, unknown>;

/**
 * A tool's argument schema as `tools/list` publishes it: zod's own JSON Schema without the
 * `$schema` dialect line. MCP already takes JSON Schema 2020-12 as the default dialect, and the
 * line would be repeated for every tool in a list every agent pays to read (SPEC §6 token
 * economy). Validation is untouched: the result is the same zod schema underneath.
 */
export function published<T extends z.ZodType>(schema: T): T {
  const standard = schema["~standard"] as T["~standard"] & { jsonSchema?: { input: JsonSchemaConverter; output: JsonSchemaConverter } };
  const convert = standard.jsonSchema;
  if (!convert) return schema;
  const withoutDialect =
    (to: JsonSchemaConverter): JsonSchemaConverter =>
    (options) => {
      const { $schema: _dialect, ...rest } = to(options);
      return rest;
    };
  const derived = Object.create(schema) as T;
  Object.defineProperty(derived, "~standard", {
    value: { ...standard, jsonSchema: { input: withoutDialect(convert.input), output: withoutDialect(convert.output) } },
    enumerable: false,
  });
  return derived;
}
