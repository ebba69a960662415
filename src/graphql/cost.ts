/**
 * Operation cost (@pothos/plugin-complexity, enforced by server/operations/use-operation-limits.ts): every field costs 1 and
 * the selections under a list count 10 times, except the fields that read an upstream payload, which cost
 * this much each, so an operation asking for many payloads is refused before any upstream call.
 */
export const UPSTREAM_FIELD_COST = 50;
/** The default multiplier of a list field's selections: an estimate, as the list's length is not known. */
export const LIST_MULTIPLIER = 10;
