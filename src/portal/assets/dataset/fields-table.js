// The dataset's columns as the records engine reads them off the data: the key, a readable name where the typed
// shapes know the key, its JSON types, how many distinct values, examples and the numeric range.
import { formatNumber } from '../i18n.js';
import { t, tOf } from './messages.js';
import { h } from '../dom.js';
import { table } from '../ui.js';
import { isIdentifier } from './columns.js';

/** @param {import('../pages/dataset.js').Page} page */
export function fieldsTable(page) {
  return [
    h('p', { class: 'help' }, t('fieldsIntro')),
    table(
      t('fieldsTable'),
      [t('colColumn'), t('colKey'), t('colType'), t('colDistinct'), t('colExamples'), t('colRange')],
      page.columns.map((column) => [
        page.label(column.name),
        h('code', {}, column.name),
        [
          column.types.map((type) => tOf('valueTypes', type)).join(', '),
          column.numericStrings ? ` (${t('numericText')})` : '',
        ].join(''),
        formatNumber(column.distinctCount),
        column.examples.map((example) => (typeof example === 'string' ? example : JSON.stringify(example))).join(', '),
        column.min === null || column.max === null || isIdentifier(column)
          ? ''
          : `${formatNumber(column.min)} – ${formatNumber(column.max)}`,
      ]),
      { hideCaption: true, stack: true },
    ),
  ];
}
