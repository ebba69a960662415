import { CodedError } from '../errors/coded-error.js';
import { CODE } from '../errors/registry.js';

/** A download refused before its file is written: a code of the registry and the HTTP status it is answered with. */
export class DownloadError extends CodedError {
  override readonly name = 'DownloadError';
}

export function badUserInput(message: string): DownloadError {
  return new DownloadError(CODE.BAD_USER_INPUT, message, {}, 400);
}
