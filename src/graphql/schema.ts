import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import './types/dataset.js';
import './types/dataset-change.js';
import './types/records.js';
import './types/typed-records.js';
import './types/summary-endpoint.js';
import './types/client.js';
import './types/use-request.js';
import './types/client-directory.js';
import './types/viewer.js';

/** The executable schema, its types sorted so the printed SDL is stable. */
export const schema = lexicographicSortSchema(builder.toSchema());
