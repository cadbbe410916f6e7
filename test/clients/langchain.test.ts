// LangChain (@langchain/mcp-adapters): tools from MultiServerMCPClient run by LangGraph's ToolNode,
// the node agents use; the model reads the ToolMessages it appends (a refused call becomes an
// error ToolMessage there).
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { describe, expect, inject, it } from "vitest";
import { mintToken, newMachine } from "../support/identity";
import { expectPlayedFromText, TOOL_NAMES } from "./expectations";
import { ScriptedModel } from "./scripted-model";

const base = inject("baseUrl");

/** What the model reads of a ToolMessage: its content, as text. */
function messageText(message: ToolMessage): string {
  const c = message.content;
  if (typeof c === "string") return c;
  return c.map((b) => ("text" in b && typeof b.text === "string" ? b.text : JSON.stringify(b))).join("\n");
}

describe("@langchain/mcp-adapters", () => {
  it("a model plays from the ToolMessages LangGraph's ToolNode gives it; the rules resource reads", async () => {
    const machine = newMachine();
    const token = await mintToken(base, machine);
    const client = new MultiServerMCPClient({ mcpServers: { mosaic: { url: `${base}/mcp`, headers: { Authorization: `Bearer ${token}` } } } });
    try {
      const tools = await client.getTools();
      expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
      // Every schema converts to the JSON Schema a chat model is given.
      for (const t of tools) expect(toJsonSchema(t.schema), t.name).toMatchObject({ type: "object", properties: expect.any(Object) });
      const rules = await client.readResource("mosaic", "mosaic://rules");
      expect(JSON.stringify(rules)).toContain("MOSAIC RULES");

      const node = new ToolNode(tools);
      const player = new ScriptedModel({ G: 30, seed: "clients-langchain", session: "lc", model: "scripted", harness: "my-langgraph-agent" });
      let seen: string | null = null;
      for (let i = 1; ; i++) {
        const call = await player.next(seen);
        if (!call) break;
        const ai = new AIMessage({ content: "", tool_calls: [{ id: `call-${i}`, name: call.name, args: call.args, type: "tool_call" }] });
        const out = (await node.invoke({ messages: [ai] })) as { messages: ToolMessage[] };
        seen = messageText(out.messages[0]);
      }
      await expectPlayedFromText(player, machine.machineId, { name: "my-langgraph-agent", source: "argument" }, base);
    } finally {
      await client.close();
    }
  });
});
