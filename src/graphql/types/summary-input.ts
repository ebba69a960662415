import type { SummaryInputEntry } from '../../catalogue.js';
import { builder } from '../builder.js';

export const SummaryInput = builder.objectRef<SummaryInputEntry>('SummaryInput').implement({
  description:
    'ข้อมูลนำเข้า: a key of the JSON body of `SummaryEndpoint.payload(input:)` known to select records, as far as we know it: the upstream does not document its inputs, so these are the keys of the records it answers.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The body key, e.g. ACADEMIC_YEAR.' }),
    description: t.string({
      description: 'Its Thai name and what it selects, e.g. ปีการศึกษา: one academic year, in the Buddhist Era.',
      resolve: (input) => `${input.title}: ${input.selects}`,
    }),
    example: t.field({
      type: 'JSON',
      nullable: true,
      description: 'A value that selects some records, written as the records write it, e.g. "2566".',
      resolve: (input) => input.example,
    }),
  }),
});
