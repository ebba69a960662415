/** An undici answer's headers as one string each, repeated ones joined as HTTP joins them (`, `). */
export function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    flat[name] = Array.isArray(value) ? value.join(', ') : (value ?? '');
  return flat;
}
