import type { IncomingMessage } from 'node:http';

/** The caller's IP: the socket's peer, or with a trusted proxy the address that proxy saw. */
export function clientIp(forwardedFor: string | null, req: IncomingMessage | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = forwardedFor?.split(',').at(-1)?.trim();
    if (forwarded !== undefined && forwarded !== '') return forwarded;
  }
  return req?.socket.remoteAddress ?? 'unknown';
}
