/**
 * What the records answers of one operation may make in all (MAX_OPERATION_VALUES): the work of building pages and
 * groups, each made once per records field. What the answer carries (a page's lists selected again under aliases
 * included) is bounded in bytes where it is written, by the request's budget (graphql/answer-size.ts).
 */
import type { JsonObject } from '../json.js';
import { overLimit } from './errors.js';
import { MAX_OPERATION_VALUES } from './limits.js';
import type { RecordConnection } from './types.js';

export class AnswerBudget {
  private spent = 0;

  /**
   * Counts an answer's values against the operation's; BAD_USER_INPUT (limit operationValues) for the answer
   * that would take the operation over, which is then not given.
   */
  charge<Answer extends RecordConnection | readonly JsonObject[]>(answer: Answer): Answer {
    const values = 'edges' in answer ? connectionValues(answer) : rowValues(answer);
    if (this.spent + values > MAX_OPERATION_VALUES) {
      throw overLimit(
        'operationValues',
        `this answer would take the operation's records answers to ${this.spent + values} values; one operation's ` +
          `hold at most ${MAX_OPERATION_VALUES}: ask for fewer records (first, select) or groups, or split the operation`,
      );
    }
    this.spent += values;
    return answer;
  }
}

/** A page's values: each node's fields and its cursor. */
function connectionValues(connection: RecordConnection): number {
  return connection.edges.reduce((sum, edge) => sum + Object.keys(edge.node).length + 1, 0);
}

/** An aggregate's values: every row has the same keys. */
function rowValues(rows: readonly JsonObject[]): number {
  const [first] = rows;
  return first === undefined ? 0 : rows.length * Object.keys(first).length;
}
