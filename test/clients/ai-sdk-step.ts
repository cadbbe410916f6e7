// The scripted model's side of the AI SDK's language-model interface, shared by the Vercel AI SDK
// test and Mastra's (which runs on it): what the model reads from the tool results in its prompt,
// and the tool call it answers with.
import type { ScriptedModel } from "./scripted-model";

const NO_USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

interface PromptPart {
  type: string;
  output?: { type: string; value?: unknown };
}

interface StepOptions {
  prompt: unknown[];
  tools?: Array<{ type: string; name?: string; inputSchema?: unknown }>;
}

/** The text the model reads for a tool result part of its prompt. */
function toolResultText(part: PromptPart): string {
  const out = part.output;
  if (!out) return "";
  if (out.type === "content") return (out.value as Array<{ type: string; text?: string }>).map((p) => (p.type === "text" ? (p.text ?? "") : JSON.stringify(p))).join("\n");
  if (out.type === "text" || out.type === "error-text") return String(out.value);
  return JSON.stringify(out.value);
}

/**
 * A `doGenerate` that records the tools offered (once) into `offered`, hands the player the text
 * of the last tool results, and answers its next call as a tool call named `toolName(call)` (or
 * the text "done" when it has finished).
 */
export function scriptedStep(player: ScriptedModel, offered: Array<{ name: string; inputSchema: unknown }>, toolName: (name: string) => string = (n) => n) {
  let calls = 0;
  return async (options: StepOptions) => {
    if (offered.length === 0) for (const t of options.tools ?? []) if (t.type === "function") offered.push({ name: String(t.name), inputSchema: t.inputSchema });
    const lastMessage = options.prompt.at(-1) as { role: string; content: PromptPart[] } | undefined;
    const seen = lastMessage?.role === "tool" ? lastMessage.content.filter((p) => p.type === "tool-result").map(toolResultText).join("\n") : null;
    const call = await player.next(seen);
    if (!call) return { content: [{ type: "text" as const, text: "done" }], finishReason: { unified: "stop" as const, raw: undefined }, usage: NO_USAGE, warnings: [] };
    return {
      content: [{ type: "tool-call" as const, toolCallId: `call-${++calls}`, toolName: toolName(call.name), input: JSON.stringify(call.args) }],
      finishReason: { unified: "tool-calls" as const, raw: undefined },
      usage: NO_USAGE,
      warnings: [],
    };
  };
}
