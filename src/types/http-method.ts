import { builder } from '../builder.js';
import { HTTP_METHODS } from '../catalogue.js';
import { describedValues } from './described-values.js';

export const HttpMethod = builder.enumType('HttpMethod', {
  description: 'The HTTP method the upstream expects at `apiUrl`: GET for datasets, POST for summary endpoints.',
  values: describedValues(HTTP_METHODS, (method) => `HTTP ${method}`),
});
