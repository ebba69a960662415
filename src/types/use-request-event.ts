import { builder } from '../builder.js';
import type { UseRequestEventRecord } from '../access/model.js';
import { UseRequestStatus } from './use-request-status.js';

export const UseRequestEvent = builder.objectRef<UseRequestEventRecord>('UseRequestEvent').implement({
  description: 'ประวัติ: one transition of a request for use, as the audit trail keeps it.',
  fields: (t) => ({
    from: t.expose('from', { type: UseRequestStatus, description: 'The status before.' }),
    to: t.expose('to', { type: UseRequestStatus, description: 'The status after.' }),
    actor: t.exposeString('actor', { description: 'Who made it: client:<id>, operator or operator:cli.' }),
    note: t.exposeString('note', { nullable: true, description: 'Why, as the actor wrote it.' }),
    at: t.expose('at', { type: 'DateTime', description: 'When.' }),
  }),
});
