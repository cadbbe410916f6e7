/** The server's MCP name (SPEC §6): sent as serverInfo.name, and what clients often label it. */
export const SERVER_NAME = "mosaic";
