import { builder } from '../builder.js';

export const ReviewDecision = builder.enumType('ReviewDecision', {
  description: 'ผลการพิจารณา: the operator\'s decision on a pending request for use.',
  values: {
    APPROVE: { value: 'APPROVE', description: 'อนุมัติ: approve; the client may read the payload.' },
    REJECT: { value: 'REJECT', description: 'ไม่อนุมัติ: reject; the client may ask again.' },
  } as const,
});
