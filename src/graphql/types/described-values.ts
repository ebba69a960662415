/**
 * Enum values for Pothos with a description on each: GraphiQL shows them, and ours carry the Thai label the
 * upstream portal uses beside the English meaning.
 */
export function describedValues<Value extends string>(
  values: readonly Value[],
  describe: (value: Value) => string,
): Record<Value, { value: Value; description: string }> {
  const entries = values.map((value) => [value, { value, description: describe(value) }] as const);
  return Object.fromEntries(entries) as Record<Value, { value: Value; description: string }>;
}
