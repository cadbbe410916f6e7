import type { McpServer } from "@modelcontextprotocol/server";
import { RULES_TEXT, RULES_URI } from "./rules";

/** `mosaic://rules` (SPEC §6): the full rules as plain text, the same for every request. */
export function registerResources(server: McpServer): void {
  server.registerResource(
    "rules",
    RULES_URI,
    { title: "Mosaic rules", description: "How Mosaic is played: the puzzle, frontier, commits, health, revisions.", mimeType: "text/plain" },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: RULES_TEXT }] }),
  );
}
