// Vercel AI SDK (@ai-sdk/mcp): tools converted with client.tools() and driven by generateText,
// the model a scripted one that reads only what the SDK puts in its prompt (toModelOutput).
import { createMCPClient } from "@ai-sdk/mcp";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, inject, it } from "vitest";
import { mintToken, newMachine } from "../support/identity";
import { expectPlayedFromText, TOOL_NAMES } from "./expectations";
import { ScriptedModel } from "./scripted-model";
import { scriptedStep } from "./ai-sdk-step";

const base = inject("baseUrl");

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
      const model = new MockLanguageModelV4({ doGenerate: scriptedStep(player, offered) });
      await generateText({ model, tools, prompt: "Play Mosaic on this server.", stopWhen: stepCountIs(400) });

      // Every converted schema reached the model as a JSON Schema object.
      expect(offered.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
      for (const t of offered) expect(t.inputSchema, t.name).toMatchObject({ type: "object", properties: expect.any(Object) });
      await expectPlayedFromText(player, machine.machineId, { name: "my-ai-sdk-agent", source: "argument" }, base);
    } finally {
      await client.close();
    }
  });
});
