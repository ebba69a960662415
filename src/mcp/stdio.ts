#!/usr/bin/env node
/**
 * `thai-edu-graphql-mcp`: MCP over stdio for desktop assistants, relaying every message to a running server's /mcp
 * (THAI_EDU_URL, its base address, /mcp or /graphql), with THAI_EDU_API_KEY as `Authorization: Bearer`. The server
 * answers, so its keys, rate limit, bounds and provenance apply as they do over HTTP.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MCP_PATH } from './path.js';

const environment = z.object({
  THAI_EDU_URL: z.url({ protocol: /^https?$/, error: 'must be the http(s) address of a thai-edu-graphql server' }),
  THAI_EDU_API_KEY: z.string().min(1).optional(),
});

/** The server's MCP address for a base address, its /graphql or its /mcp. */
export function mcpUrlOf(given: string): URL {
  const url = new URL(given);
  if (url.pathname === '/' || url.pathname === '') url.pathname = MCP_PATH;
  else url.pathname = url.pathname.replace(/\/graphql\/?$/, MCP_PATH);
  return url;
}

async function main(): Promise<void> {
  const parsed = environment.safeParse(process.env);
  if (!parsed.success) {
    process.stderr.write(
      `thai-edu-graphql-mcp: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}\n` +
        'Set THAI_EDU_URL to the server, e.g. THAI_EDU_URL=https://edu.example.go.th, and THAI_EDU_API_KEY to your key.\n',
    );
    process.exitCode = 2;
    return;
  }
  const { THAI_EDU_URL: base, THAI_EDU_API_KEY: key } = parsed.data;
  const target = mcpUrlOf(base);
  const remote = new StreamableHTTPClientTransport(target, {
    requestInit: { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } },
  });
  const local = new StdioServerTransport();
  local.onmessage = (message: JSONRPCMessage) => {
    remote.send(message).catch((error: unknown) => {
      // A request gets its answer even when the server cannot be reached or refuses (a bad key is HTTP 401).
      if (!('id' in message) || !('method' in message)) return;
      const reason = error instanceof Error ? error.message : String(error);
      void local.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32603, message: `thai-edu-graphql at ${target.origin}: ${reason}` },
      });
    });
  };
  remote.onmessage = (message) => void local.send(message);
  remote.onerror = (error) => process.stderr.write(`thai-edu-graphql-mcp: ${error.message}\n`);
  local.onclose = () => void remote.close();
  await remote.start();
  await local.start();
}

await main();
