// OpenAI Agents (@openai/agents): MCPServerStreamableHttp with default options on an Agent run by
// the SDK's own Runner; the model is a scripted one that reads only the tool outputs the Runner
// puts in its input (content by default, never structuredContent).
import { Agent, MCPServerStreamableHttp, run, setTracingDisabled, Usage, type Model, type ModelRequest, type ModelResponse } from "@openai/agents";
import { describe, expect, inject, it } from "vitest";
import { mintToken, newMachine } from "../support/identity";
import { expectPlayedFromText, TOOL_NAMES } from "./expectations";
import { ScriptedModel } from "./scripted-model";

const base = inject("baseUrl");
setTracingDisabled(true);

/** The text the model reads for the newest function call result in its input. */
function lastToolOutput(input: ModelRequest["input"]): string | null {
  if (typeof input === "string") return null;
  const last = input.at(-1) as { type?: string; output?: unknown } | undefined;
  if (last?.type !== "function_call_result") return null;
  const out = last.output as string | { type: string; text?: string } | Array<{ type: string; text?: string }>;
  if (typeof out === "string") return out;
  const parts = Array.isArray(out) ? out : [out];
  return parts.map((p) => p.text ?? JSON.stringify(p)).join("\n");
}

describe("@openai/agents", () => {
  it("a model plays from the function call outputs the Runner gives it; resources read through the server", async () => {
    const machine = newMachine();
    const token = await mintToken(base, machine);
    const server = new MCPServerStreamableHttp({ url: `${base}/mcp`, name: "mosaic", requestInit: { headers: { Authorization: `Bearer ${token}` } } });
    await server.connect();
    try {
      const listed = await server.listTools();
      expect(listed.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
      const rules = await server.readResource("mosaic://rules");
      expect(JSON.stringify(rules.contents)).toContain("MOSAIC RULES");

      const player = new ScriptedModel({ G: 30, seed: "clients-openai-agents", session: "oa", model: "scripted", harness: "my-openai-agent" });
      const offered: Array<{ name: string; parameters: unknown }> = [];
      let calls = 0;
      const model: Model = {
        async getResponse(request: ModelRequest): Promise<ModelResponse> {
          if (offered.length === 0) for (const t of request.tools) if (t.type === "function") offered.push({ name: t.name, parameters: t.parameters });
          const call = await player.next(lastToolOutput(request.input));
          const output: ModelResponse["output"] = call
            ? [{ type: "function_call", callId: `call-${++calls}`, name: call.name, arguments: JSON.stringify(call.args), status: "completed" }]
            : [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done" }] }];
          return { usage: new Usage(), output };
        },
        // eslint-disable-next-line require-yield
        async *getStreamedResponse() {
          throw new Error("this test runs without streaming");
        },
      };
      const agent = new Agent({ name: "player", instructions: "Play Mosaic.", model, mcpServers: [server] });
      const result = await run(agent, "Play Mosaic on this server.", { maxTurns: 400 });
      expect(result.finalOutput).toBe("done");

      expect(offered.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
      for (const t of offered) expect(t.parameters, t.name).toMatchObject({ type: "object", properties: expect.any(Object) });
      await expectPlayedFromText(player, machine.machineId, { name: "my-openai-agent", source: "argument" }, base);
    } finally {
      await server.close();
    }
  });
});
