// Mastra (@mastra/mcp): MCPClient tools on a Mastra Agent, the model a scripted one that reads the
// tool results Mastra puts in its prompt (the structured content as JSON; a refused call as its
// error text).
import { Agent } from "@mastra/core/agent";
import { MCPClient } from "@mastra/mcp";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, inject, it } from "vitest";
import { mintToken, newMachine } from "../support/identity";
import { expectPlayedFromText, TOOL_NAMES } from "./expectations";
import { ScriptedModel } from "./scripted-model";
import { scriptedStep } from "./ai-sdk-step";

const base = inject("baseUrl");

describe("@mastra/mcp", () => {
  it("a model on a Mastra Agent plays from the tool results in its prompt; the rules resource reads", async () => {
    const machine = newMachine();
    const token = await mintToken(base, machine);
    const mcp = new MCPClient({ id: `mosaic-${machine.machineId}`, servers: { mosaic: { url: new URL(`${base}/mcp`), requestInit: { headers: { Authorization: `Bearer ${token}` } } } } });
    try {
      const tools = await mcp.listTools();
      // Mastra names a server's tools <server>_<tool>.
      expect(Object.keys(tools).sort()).toEqual(TOOL_NAMES.map((n) => `mosaic_${n}`));
      const rules = await mcp.resources.read("mosaic", "mosaic://rules");
      expect(JSON.stringify(rules)).toContain("MOSAIC RULES");

      const player = new ScriptedModel({ G: 30, seed: "clients-mastra", session: "ma", model: "scripted", harness: "my-mastra-agent" });
      const offered: Array<{ name: string; inputSchema: unknown }> = [];
      const model = new MockLanguageModelV3({ doGenerate: scriptedStep(player, offered, (name) => `mosaic_${name}`) });
      // Mastra's types ask for its own model wrapper; at run time it takes an AI SDK v3 model as is.
      const agentModel = model as unknown as ConstructorParameters<typeof Agent>[0]["model"];
      const agent = new Agent({ id: "player", name: "player", instructions: "Play Mosaic.", model: agentModel, tools });
      const result = await agent.generate("Play Mosaic on this server.", { maxSteps: 400 });
      expect(result.text).toBe("done");

      expect(offered.map((t) => t.name).sort()).toEqual(TOOL_NAMES.map((n) => `mosaic_${n}`));
      for (const t of offered) expect(t.inputSchema, t.name).toMatchObject({ type: "object", properties: expect.any(Object) });
      // Mastra shows its model structuredContent: the picture comes from its pictures field.
      await expectPlayedFromText(player, machine.machineId, { name: "my-mastra-agent", source: "argument" }, base, "structured");
    } finally {
      await mcp.disconnect();
    }
  });
});
