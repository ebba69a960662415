import { AnswerBudget } from '../records/index.js';
import type { Context } from './context.js';

/** Each operation's budget of records answers, by its context (one per operation): its response is written in one piece. */
const budgets = new WeakMap<Context, AnswerBudget>();

/** The records-answer budget of this operation, shared by the untyped and the typed records fields. */
export function budgetOf(context: Context): AnswerBudget {
  let budget = budgets.get(context);
  if (budget === undefined) {
    budget = new AnswerBudget();
    budgets.set(context, budget);
  }
  return budget;
}
