import {
  DATASET_CODES,
  findDataset,
  type DatasetCode as DatasetCodeValue,
  type DatasetEntry,
} from '../../catalogue.js';
import type { DatasetChange as DatasetChangeValue } from '../../live/watcher.js';
import { builder } from '../builder.js';
import { delivered, SubscriptionError } from '../../live/subscription-hub.js';
import { answerToKey, openStream } from '../stream-key.js';
import { Dataset, DatasetCode } from './dataset.js';
import { CODE } from '../../errors/registry.js';

export const DatasetChange = builder.objectRef<DatasetChangeValue>('DatasetChange').implement({
  description:
    'ชุดข้อมูลเปลี่ยน: the upstream published another version of a dataset (its unfiltered payload has other content than when the server last looked).',
  fields: (t) => ({
    dataset: t.field({
      type: Dataset,
      description: 'The dataset that changed.',
      resolve: (change): DatasetEntry => {
        const dataset = findDataset(change.dataset);
        if (dataset === undefined) throw new Error(`Dataset ${change.dataset} is missing from the catalogue`);
        return dataset;
      },
    }),
    changedAt: t.expose('changedAt', { type: 'DateTime', description: 'When the server noticed the change.' }),
    version: t.exposeString('version', {
      description: 'The new version: a content hash of the payload, as `Dataset.version` shows it.',
    }),
    previousVersion: t.exposeString('previousVersion', { description: 'The version before the change.' }),
    recordCount: t.exposeInt('recordCount', { description: 'How many records the new payload has.' }),
    previousRecordCount: t.exposeInt('previousRecordCount', { description: 'How many records it had before.' }),
    shapeFingerprint: t.exposeString('shapeFingerprint', {
      description:
        "The hash of the new payload's inferred fields and their types, as `Dataset.shapeFingerprint` gives it.",
    }),
    shapeChanged: t.exposeBoolean('shapeChanged', {
      description:
        'True when the fields or their types changed, not only the figures: clients built against the old fields should look.',
    }),
  }),
});

builder.subscriptionField('datasetChanged', (t) =>
  t.field({
    type: DatasetChange,
    description:
      'ชุดข้อมูลที่เปลี่ยน: an event each time the server notices that one of these datasets (every dataset when `codes` is omitted) changed upstream. The server revalidates every dataset each WATCH_INTERVAL_S seconds.',
    args: {
      codes: t.arg({
        type: [DatasetCode],
        required: false,
        description: `Only these datasets (at most ${DATASET_CODES.length} codes).`,
      }),
    },
    subscribe: (_root, { codes }, context) => {
      if (codes != null && codes.length > DATASET_CODES.length) {
        throw new SubscriptionError(
          CODE.BAD_USER_INPUT,
          `codes: at most ${DATASET_CODES.length} dataset codes, got ${codes.length}.`,
        );
      }
      const wanted: ReadonlySet<DatasetCodeValue> | undefined = codes == null ? undefined : new Set(codes);
      return openStream(context, 'datasetChanged', (event) =>
        event.topic === 'datasetChanged' && (wanted === undefined || wanted.has(event.change.dataset))
          ? event.change
          : undefined,
      );
    },
    resolve: async (value, args, context, info) => {
      const change = delivered(value);
      await answerToKey(change, context, info, value, args);
      // The subscription's loaders live as long as it does: a payload they remember is the one before the change.
      context.loaders.datasetPayload.clearAll();
      return change;
    },
  }),
);
