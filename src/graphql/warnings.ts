import { responsePathAsArray, type GraphQLResolveInfo } from 'graphql';
import type { ErrorFacts, WarningCode } from '../errors/registry.js';
import type { Language } from '../http/language.js';
import { warningMessage } from './messages.js';

/** One entry of `extensions.warnings`: its code, the path of the field it concerns, a message and its facts. */
export interface AnswerWarning {
  readonly code: WarningCode;
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly [fact: string]: unknown;
}

/**
 * The most warnings one answer (or one part of an incremental or subscription answer) carries: an input with
 * thousands of keys must not make an answer thousands of messages long. The first ones are kept.
 */
export const MAX_WARNINGS_PER_ANSWER = 20;

/**
 * The warnings of one operation: any field adds them as it resolves (`context.warnings.add(info, …)`), and the
 * warnings plugin (server/answers/use-warnings.ts) writes those not yet sent into the result's
 * `extensions.warnings`, over every transport. Each operation has its own (a batch's included), since the context
 * is made per operation.
 */
export class AnswerWarnings {
  private pending: AnswerWarning[] = [];

  constructor(private readonly language: Language) {}

  /** Warns about the field being resolved, in the request's language; `facts` are sent beside the message. */
  add(info: Pick<GraphQLResolveInfo, 'path'>, code: WarningCode, facts: ErrorFacts = {}): void {
    if (this.pending.length >= MAX_WARNINGS_PER_ANSWER) return;
    this.pending.push({
      code,
      path: responsePathAsArray(info.path),
      message: warningMessage(this.language, code, facts),
      ...facts,
    });
  }

  /** The warnings added since the last call; they leave the list, so that each is sent once. */
  take(): readonly AnswerWarning[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
}
