import { z } from 'zod';
import { SETTING_LIST } from './settings.js';

/** The operators' table of variables, as docs/operators/configuration.md holds it between its markers. */
export function settingsTable(): string {
  const escape = (value: string): string => value.replace(/\|/g, '\\|').replace(/</g, '&lt;');
  const rows = SETTING_LIST.map((s) => {
    const fallback = s.default === undefined ? 'unset' : `\`${s.default}\``;
    return `| \`${s.env}\` | ${escape(fallback)} | ${escape(allowedValues(s.schema))} | ${escape(s.description)} |`;
  });
  return ['| Variable | Default | Allowed | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** What the table says a variable accepts, read from its schema: bounds, choices, or nothing for free text. */
function allowedValues(schema: z.ZodType): string {
  if (schema instanceof z.ZodPipe && schema.out instanceof z.ZodBoolean) return 'true, false';
  const inner = schema instanceof z.ZodPipe ? (schema.in as z.ZodType) : schema;
  if (inner instanceof z.ZodNumber) return `${inner.minValue ?? ''} to ${inner.maxValue ?? ''}`;
  if (inner instanceof z.ZodEnum) return inner.options.join(', ');
  return '';
}
