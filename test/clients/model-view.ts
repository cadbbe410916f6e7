// What a model reads of a tool answer, however its client wraps it (SPEC §6 "What a model reads";
// shared/notes on clients): the answer's text itself (content-only SDKs, desktop hosts), the text
// inside a JSON-encoded content block or whole result (LangChain, mcp-use), or, for Mastra, the
// structured content as JSON (its pictures field carries the tiles the text draws).

export type Data = Record<string, unknown>;

/** The answer as the model sees it: the text written for it, or (Mastra) the structured data. */
export type Reading = { text: string; data?: undefined } | { text?: undefined; data: Data };

/** Reads what a client showed its model. */
export function readSeen(seen: string): Reading {
  const t = seen.trim();
  const parsed = parseJson(t);
  if (parsed === undefined) return { text: seen };
  if (Array.isArray(parsed)) return { text: blocksText(parsed) };
  const o = parsed as Data;
  if (o.type === "text" && typeof o.text === "string") return { text: o.text };
  // A whole tool result: the model reads its text blocks, as the server wrote them for it.
  if (Array.isArray(o.content)) return { text: blocksText(o.content) };
  return { data: o };
}

function blocksText(blocks: unknown[]): string {
  return blocks.map((b) => (b !== null && typeof b === "object" && typeof (b as { text?: unknown }).text === "string" ? (b as { text: string }).text : "")).join("\n");
}

function parseJson(text: string): unknown {
  if (!text.startsWith("{") && !text.startsWith("[")) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === "object" ? v : undefined;
  } catch {
    return undefined;
  }
}
