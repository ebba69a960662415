/** Where the server answers MCP over Streamable HTTP, and where the stdio command sends what it relays. */
export const MCP_PATH = '/mcp';
