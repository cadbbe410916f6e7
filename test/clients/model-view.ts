// What a model reads: the data a tool answer's text carries, however a client wraps it
// (the text itself, a JSON-encoded content block, an error message with the JSON last).

export type Data = Record<string, unknown>;

/** The JSON object a model can read from a tool answer's text, if any. */
export function dataInText(text: string): Data | undefined {
  const t = text.trim();
  const whole = parseObject(t);
  if (whole !== undefined) {
    if (Array.isArray(whole)) return dataInText((whole as Array<{ text?: unknown } | null>).map((b) => (typeof b?.text === "string" ? b.text : "")).join("\n"));
    if (whole.type === "text" && typeof whole.text === "string") return dataInText(whole.text);
    return whole as Data;
  }
  // The summary line first, then the compact JSON; a client may wrap the whole text in words of
  // its own before or after (an error prefix, an exhortation), so read the JSON object itself.
  const lines = t.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i].trimStart().startsWith("{")) continue;
    const json = leadingObject(lines.slice(i).join("\n").trimStart());
    const parsed = json === undefined ? undefined : parseObject(json);
    if (parsed !== undefined && !Array.isArray(parsed)) return parsed as Data;
  }
  return undefined;
}

/** The balanced `{…}` at the start of a text (strings and escapes respected). */
function leadingObject(text: string): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return text.slice(0, i + 1);
  }
  return undefined;
}

function parseObject(text: string): (Data & { type?: unknown; text?: unknown }) | unknown[] | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === "object" ? (v as Data) : undefined;
  } catch {
    return undefined;
  }
}
