/**
 * Canonical JSON (SPEC §9): object keys sorted, no whitespace, UTF-8 when encoded. The same
 * value gives the same text in every language, so it can be hashed into the event chain.
 *
 * - Keys sort by UTF-16 code units (JavaScript's default order, as in RFC 8785).
 * - Strings are escaped as JSON.stringify escapes them (well-formed: lone surrogates become
 *   \uXXXX escapes).
 * - Numbers must be safe integers (no fractions, NaN, infinities or integers beyond 2^53,
 *   whose text could differ between languages); -0 is written 0.
 * - Properties whose value is `undefined` are left out (as JSON.stringify does), so optional
 *   fields can stay unset; anything else that is not JSON (functions, symbols, bigints,
 *   `undefined` in an array, class instances such as Date or Map) is refused.
 */
export function canonicalJson(value: unknown): string {
  return write(value, "$");
}

function write(value: unknown, path: string): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return JSON.stringify(value);
    case "number":
      if (!Number.isSafeInteger(value)) throw new TypeError(`canonical JSON: ${path} is ${value}, not a safe integer`);
      return String(value === 0 ? 0 : value);
    case "object": {
      if (Array.isArray(value)) {
        return `[${value.map((item, i) => {
          if (item === undefined) throw new TypeError(`canonical JSON: ${path}[${i}] is undefined`);
          return write(item, `${path}[${i}]`);
        }).join(",")}]`;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new TypeError(`canonical JSON: ${path} is not a plain object`);
      const record = value as Record<string, unknown>;
      const parts: string[] = [];
      for (const key of Object.keys(record).sort()) {
        const item = record[key];
        if (item === undefined) continue;
        parts.push(`${JSON.stringify(key)}:${write(item, `${path}.${key}`)}`);
      }
      return `{${parts.join(",")}}`;
    }
    default:
      throw new TypeError(`canonical JSON: ${path} is a ${typeof value}`);
  }
}
