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
  const writer = new CanonicalWriter();
  writer.write(value);
  return writer.text;
}

/**
 * Appends to one string (V8 keeps it as a rope until it is read) and keeps the path to the
 * current value as a stack, formatted only for an error message: an event of a whole-tile commit
 * is hashed on every write, so nothing is allocated per item but its text.
 */
class CanonicalWriter {
  text = "";
  private readonly path: Array<string | number> = [];

  write(value: unknown): void {
    if (value === null) {
      this.text += "null";
      return;
    }
    switch (typeof value) {
      case "boolean":
        this.text += value ? "true" : "false";
        return;
      case "string":
        this.text += JSON.stringify(value);
        return;
      case "number":
        if (!Number.isSafeInteger(value)) this.fail(`is ${value}, not a safe integer`);
        this.text += value === 0 ? "0" : String(value);
        return;
      case "object":
        if (Array.isArray(value)) this.writeArray(value);
        else this.writeObject(value);
        return;
      default:
        this.fail(`is a ${typeof value}`);
    }
  }

  private writeArray(items: unknown[]): void {
    this.text += "[";
    const path = this.path;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      path.push(i);
      if (item === undefined) this.fail("is undefined");
      if (i > 0) this.text += ",";
      this.write(item);
      path.pop();
    }
    this.text += "]";
  }

  private writeObject(value: object): void {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) this.fail("is not a plain object");
    const record = value as Record<string, unknown>;
    this.text += "{";
    let first = true;
    for (const key of sortedKeys(record)) {
      const item = record[key];
      if (item === undefined) continue;
      this.text += first ? quotedKey(key) : "," + quotedKey(key);
      first = false;
      this.path.push(key);
      this.write(item);
      this.path.pop();
    }
    this.text += "}";
  }

  private fail(what: string): never {
    const at = this.path.map((step) => (typeof step === "number" ? `[${step}]` : `.${step}`)).join("");
    throw new TypeError(`canonical JSON: $${at} ${what}`);
  }
}

/** Keys in UTF-16 code-unit order; small objects (almost all) by insertion sort, cheaper than `sort`'s setup. */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length > 12) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    let j = i;
    while (j > 0 && keys[j - 1] > key) {
      keys[j] = keys[j - 1];
      j--;
    }
    keys[j] = key;
  }
  return keys;
}

/** `"key":` as JSON writes it; the few key names of the log repeat on every event, so they are kept. */
const quotedKeys = new Map<string, string>();
function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = `${JSON.stringify(key)}:`;
    if (quotedKeys.size < 1024) quotedKeys.set(key, quoted);
  }
  return quoted;
}
