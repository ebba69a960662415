import { CodedError } from '../errors/coded-error.js';

/**
 * A request-for-use operation refused, with its code (errors/registry.ts). Messages are written for the client:
 * they say what is wrong and, for a transition, the current status (`details`, e.g. `{ status: 'APPROVED' }`).
 */
export class AccessError extends CodedError {
  override readonly name = 'AccessError';
}
