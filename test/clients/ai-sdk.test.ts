// Vercel AI SDK (@ai-sdk/mcp): tools converted with client.tools() and driven by generateText,
// the model a scripted one that reads only what the SDK puts in its prompt (toModelOutput).
import { createMCPClient } from "@ai-sdk/mcp";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, inject, it } from "vitest";
import { mintToken, newMachine } from "../e2e/harness/identity";
import { expectPlayedFromText, TOOL_NAMES } from "./expectations";
import { ScriptedModel } from "./scripted-model";

const base = inject("baseUrl");

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

interface PromptPart {
  type: string;
  output?: { type: string; value?: unknown };
}

/** The text the model reads for a tool result part of its prompt. */
function toolResultText(part: PromptPart): string {
  const out = part.output;
  if (!out) return "";
  if (out.type === "content") return (out.value as Array<{ type: string; text?: string }>).map((p) => (p.type === "text" ? (p.text ?? "") : JSON.stringify(p))).join("\n");
  if (out.type === "text" || out.type === "error-text") return String(out.value);
  return JSON.stringify(out.value);
}

describe("@ai-sdk/mcp", () => {
  it("a model plays from what client.tools() and toModelOutput show it; the rules resource reads", async () => {
    const machine = newMachine();
    const token = await mintToken(base, machine);
    const client = await createMCPClient({ transport: { type: "http", url: `${base}/mcp`, headers: { Authorization: `Bearer ${token}` } } });
    try {
      const tools = await client.tools();
      expect(Object.keys(tools).sort()).toEqual(TOOL_NAMES);

      const rules = await client.readResource({ uri: "mosaic://rules" });
      expect((rules.contents[0] as { text?: string }).text).toContain("MOSAIC RULES");

      const player = new ScriptedModel({ G: 30, seed: "clients-ai-sdk", session: "ai", model: "scripted", harness: "my-ai-sdk-agent" });
      const offered: Array<{ name: string; inputSchema: unknown }> = [];
      let calls = 0;
      const model = new MockLanguageModelV4({
        doGenerate: async (options) => {
          if (offered.length === 0) for (const t of options.tools ?? []) if (t.type === "function") offered.push({ name: t.name, inputSchema: t.inputSchema });
          const lastMessage = options.prompt.at(-1) as { role: string; content: PromptPart[] } | undefined;
          const seen = lastMessage?.role === "tool" ? lastMessage.content.filter((p) => p.type === "tool-result").map(toolResultText).join("\n") : null;
          const call = await player.next(seen);
          if (!call) return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
          return {
            content: [{ type: "tool-call", toolCallId: `call-${++calls}`, toolName: call.name, input: JSON.stringify(call.args) }],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          };
        },
      });
      await generateText({ model, tools, prompt: "Play Mosaic on this server.", stopWhen: stepCountIs(400) });

      // Every converted schema reached the model as a JSON Schema object.
      expect(offered.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
      for (const t of offered) expect(t.inputSchema, t.name).toMatchObject({ type: "object", properties: expect.any(Object) });
      expectPlayedFromText(player, machine.machineId, { name: "my-ai-sdk-agent", source: "argument" });
    } finally {
      await client.close();
    }
  });
});
