import { builder } from '../builder.js';
import { USE_REQUEST_STATUSES, USE_REQUEST_STATUS_LABELS, type UseRequestStatus as Status } from '../catalogue.js';
import { describedValues } from './described-values.js';

const MEANINGS: Readonly<Record<Status, string>> = {
  NOT_REQUESTED: 'use has not been requested',
  PENDING: 'requested, waiting for the operator',
  APPROVED: 'approved: the payload may be read',
  REJECTED: 'the request was refused; it may be asked again',
  REVOKED: 'an approval was withdrawn; it may be asked again',
};

export const UseRequestStatus = builder.enumType('UseRequestStatus', {
  description: 'สถานะการขอใช้งาน: the status of request for use of a summary endpoint, for one client.',
  values: describedValues(USE_REQUEST_STATUSES, (status) => `${USE_REQUEST_STATUS_LABELS[status]}: ${MEANINGS[status]}`),
});
