// One dataset: what it is, its fields (schema/shapes.json), a chart and its first records (typed records), the
// query that produced them with a link to GraphiQL, and its version, updated live.
import { graphiqlLink, graphql, subscribe } from '../api.js';
import { barChart } from '../chart.js';
import { h, replace } from '../dom.js';
import { fieldLabel, formatDateTime, formatNumber, language, t, tOf } from '../i18n.js';
import { focusHeading, showSimulatedNotice } from '../shell.js';
import { alertBox, announce, section, table } from '../ui.js';
import { shortVersion } from './catalogue.js';

const PREVIEW_ROWS = 10;
const MOST_BARS = 15;

/** @typedef {import('../types').Shape} Shape */
/** @typedef {import('../types').Row} Row */
/**
 * @typedef {{
 *   dataset: import('../types').DatasetSummary,
 *   typedRecords: Record<string, { rows: { totalCount: number, nodes: Row[] }, chart?: Row[] | null }>
 * }} DatasetPage
 */

/** @type {Promise<Shape[]> | undefined} */
let shapes;
/** The shapes the typed schema was built from, shipped beside the portal. */
function loadShapes() {
  shapes ??= fetch('shapes.json').then(async (response) => {
    if (!response.ok) throw new Error(`shapes.json: HTTP ${response.status}`);
    /** @type {unknown} */
    const file = await response.json();
    return /** @type {{ datasets: Shape[] }} */ (file).datasets;
  });
  return shapes;
}

/** The typedRecords field of a dataset: its code in camelCase (ODS_COUNT_TEACHER_BY_YEAR → odsCountTeacherByYear). @param {string} code */
function typedField(code) {
  return code.toLowerCase().replace(/_([a-z0-9])/g, (_, /** @type {string} */ letter) => letter.toUpperCase());
}

/**
 * What to chart: a count (`total` when there is one, else the first number field) by academic year, or by a
 * category (jurisdiction, province) for the latest year when the dataset is "by" that category.
 * @param {Shape} shape
 * @returns {{ measure: string, groupBy: string[], category?: string } | undefined}
 */
function chartPlan(shape) {
  const names = shape.fields.map((field) => field.name);
  const numbers = shape.fields.filter((field) => field.type === 'number').map((field) => field.name);
  const measure = numbers.includes('total') ? 'total' : numbers[0];
  if (measure === undefined) return undefined;
  const year = names.includes('academicYear') ? 'academicYear' : undefined;
  const category = ['jurisdictionName', 'provinceName'].find((name) => names.includes(name));
  if (category !== undefined && (shape.code.includes('JURISDICTION') || year === undefined)) {
    return { measure, groupBy: year === undefined ? [category] : [year, category], category };
  }
  if (year !== undefined) return { measure, groupBy: [year] };
  return undefined;
}

/**
 * The one operation behind the page, as a developer would write it.
 * @param {Shape} shape
 * @param {ReturnType<typeof chartPlan>} plan
 */
function pageQuery(shape, plan) {
  const fields = shape.fields.map((field) => field.name).join(' ');
  const chart =
    plan === undefined
      ? ''
      : `
      chart: aggregate(groupBy: [${plan.groupBy.join(', ')}], sum: [${plan.measure}]) {
        ${plan.groupBy.join(' ')} ${plan.measure}
      }`;
  return `query DatasetPage {
  dataset(code: ${shape.code}) {
    no title titleEn group agencyName agencyNameEn method apiUrl version changedAt
  }
  typedRecords {
    ${typedField(shape.code)} {
      rows(first: ${PREVIEW_ROWS}) {
        totalCount
        nodes { ${fields} }
      }${chart}
    }
  }
}`;
}

/**
 * @param {HTMLElement} main
 * @param {string} code
 */
export function renderDataset(main, code) {
  const body = h('div', {}, h('p', { role: 'status' }, t('loading')));
  const heading = h('h1', {}, code);
  replace(main, h('p', {}, h('a', { href: '#/' }, `← ${t('backToCatalogue')}`)), heading, body);
  const version = h('span', { class: 'mono' });
  const changed = h('span', {});
  const changeNote = h('div', {});
  const load = async () => {
    try {
      const shape = (await loadShapes()).find((candidate) => candidate.code === code);
      if (shape === undefined) {
        replace(main, h('h1', {}, t('notFound')), h('p', {}, h('a', { href: '#/' }, t('backToCatalogue'))));
        return;
      }
      const plan = chartPlan(shape);
      const query = pageQuery(shape, plan);
      /** @type {DatasetPage} */
      const data = await graphql(query);
      showSimulatedNotice();
      const { dataset } = data;
      const records = data.typedRecords[typedField(code)];
      if (records === undefined) throw new Error(code);
      const title = language === 'th' ? dataset.title : dataset.titleEn;
      heading.textContent = title;
      document.title = `${title} · ${t('brand')}`;
      version.textContent = shortVersion(dataset.version);
      changed.textContent = formatDateTime(dataset.changedAt);
      replace(changeNote);
      replace(
        body,
        section(
          t('about'),
          h(
            'dl',
            { class: 'facts' },
            h('dt', {}, t('code')),
            h('dd', { class: 'mono' }, code),
            h('dt', {}, t('colGroup')),
            h('dd', {}, tOf('groups', dataset.group)),
            h('dt', {}, t('colAgency')),
            h('dd', {}, language === 'th' ? dataset.agencyName : dataset.agencyNameEn),
            h('dt', {}, t('apiUrl')),
            h('dd', { class: 'mono wrap' }, `${dataset.method} ${dataset.apiUrl}`),
            h('dt', {}, t('recordCount')),
            h('dd', {}, formatNumber(records.rows.totalCount)),
            h('dt', {}, t('version')),
            h('dd', {}, version),
            h('dt', {}, t('changedAt')),
            h('dd', {}, changed),
          ),
          h('p', { class: 'help' }, t('liveNote')),
          changeNote,
        ),
        section(t('chartHeading'), chartOf(plan, records.chart)),
        section(
          t('previewHeading'),
          table(
            t('previewCaption', { shown: records.rows.nodes.length, total: formatNumber(records.rows.totalCount) }),
            shape.fields.map((field) => fieldLabel(field.name)),
            records.rows.nodes.map((row) => shape.fields.map((field) => cell(row[field.name]))),
          ),
        ),
        section(
          t('fieldsHeading'),
          h('p', { class: 'help' }, t('fieldsIntro')),
          table(
            t('fieldsHeading'),
            [t('colLabel'), t('colName'), t('colType'), t('colKey')],
            shape.fields.map((field) => [
              fieldLabel(field.name),
              h('code', {}, field.name),
              `${tOf('types', field.type)}${field.nullable ? ` ${t('nullable')}` : ''}`,
              h('code', {}, field.key),
            ]),
            { hideCaption: true, stack: true },
          ),
        ),
        section(
          t('queryHeading'),
          h('pre', { class: 'code', tabindex: '0', 'aria-label': t('queryHeading') }, h('code', {}, query)),
          h('p', {}, h('a', { class: 'button', href: graphiqlLink(query) }, t('openInGraphiql'))),
        ),
      );
    } catch (error) {
      replace(body, alertBox(error), h('button', { type: 'button', onclick: load }, t('retry')));
    }
  };
  void load().then(focusHeading);
  return subscribe(
    `subscription DatasetVersion($codes: [DatasetCode!]) {
  datasetChanged(codes: $codes) { version changedAt recordCount }
}`,
    {
      variables: { codes: [code] },
      onNext: (/** @type {{ datasetChanged: import('../types').DatasetChange }} */ { datasetChanged }) => {
        version.textContent = shortVersion(datasetChanged.version);
        changed.textContent = formatDateTime(datasetChanged.changedAt);
        const message = t('datasetChangedAnnounce', { version: shortVersion(datasetChanged.version) });
        replace(
          changeNote,
          h('p', { class: 'notice' }, message, ' ', h('button', { type: 'button', onclick: load }, t('reloadData'))),
        );
        announce(message);
      },
    },
  );
}

/** @param {string | number | null | undefined} value */
function cell(value) {
  if (typeof value === 'number') return h('span', { class: 'number' }, formatNumber(value));
  return value ?? '';
}

/**
 * @param {ReturnType<typeof chartPlan>} plan
 * @param {Row[] | null | undefined} groups
 */
function chartOf(plan, groups) {
  if (plan === undefined || groups === null || groups === undefined) return h('p', {}, t('noChart'));
  const measure = fieldLabel(plan.measure);
  if (plan.category === undefined) {
    const bars = groups.map((group) => ({
      label: String(group[plan.groupBy[0] ?? '']),
      value: Number(group[plan.measure] ?? 0),
    }));
    return barChart(t('chartByYear', { measure }), bars);
  }
  const category = plan.category;
  const years = groups.map((group) => group.academicYear).filter((year) => year !== undefined && year !== null);
  const latest = years.length === 0 ? undefined : years.reduce((a, b) => (a > b ? a : b));
  const chosen = groups
    .filter((group) => latest === undefined || group.academicYear === latest)
    .map((group) => ({ label: String(group[category] ?? '–'), value: Number(group[plan.measure] ?? 0) }))
    .sort((a, b) => b.value - a.value);
  const caption =
    latest === undefined
      ? t('chartByCategory', { measure, category: fieldLabel(category) })
      : t('chartByCategoryYear', { measure, category: fieldLabel(category), year: latest });
  const top = chosen.slice(0, MOST_BARS);
  return barChart(chosen.length > MOST_BARS ? `${caption} ${t('chartTop', { count: MOST_BARS })}` : caption, top);
}
