// One dataset: what it is, a chart the reader steers, a table explorer (filters, order, pages, downloads), its
// columns, and a ready-to-run request. Everything is drawn from what the upstream answers, through the records
// engine (Dataset.fields, aggregate, records): the page works whatever the upstream's record keys are. The view
// (filters, order, chart) lives in the address, so a link restores it.
import { ApiError, graphqlPartial, subscribe } from '../api.js';
import { h, replace } from '../dom.js';
import { formatDateTime, language } from '../i18n.js';
import { t, tOf } from '../dataset/messages.js';
import { datasetPath, portalPath } from '../routes.js';
import { focusHeading, setHead, showSimulatedNotice } from '../shell.js';
import { datasetDescription, datasetTitle } from '../page-heads.js';
import { alertBox, announce, descriptiveTitle, section, shortVersion } from '../ui.js';
import { defaultGroupBy, defaultMeasure, yearColumn } from '../dataset/columns.js';
import { ABOUT, COLUMNS, VERSION } from '../dataset/documents.js';
import { columnLabel, typedNames } from '../dataset/labels.js';
import { chartPanel, measureWords } from '../dataset/chart-panel.js';
import { provinceMap } from '../dataset/province-map.js';
import { citeBox } from '../dataset/cite-box.js';
import { explorer } from '../dataset/explorer.js';
import { codePanel } from '../dataset/code-panel.js';
import { fieldsTable } from '../dataset/fields-table.js';
import { givesView, readView, viewParams } from '../dataset/view.js';

/** @typedef {import('../dataset/columns.js').Column} Column */
/** @typedef {import('../dataset/view.js').View} View */
/** @typedef {NonNullable<import('../gql/operations').DatasetAboutQuery['dataset']>} About */

/**
 * What the parts of the page share: the dataset, its columns, the view and a way to change it.
 * @typedef {{
 *   code: import('../gql/operations').DatasetCode,
 *   about: About | undefined,
 *   columns: Column[],
 *   recordCount: number,
 *   label: (column: string) => string,
 *   view: () => View,
 *   setView: (next: View) => void,
 * }} Page
 */

/** Staff-type columns: summing over them adds non-teaching staff to teachers (dataset 13). */
const STAFF_TYPE = /person.?type|staff.?type|ประเภทบุคลากร/i;

/**
 * @param {HTMLElement} main
 * @param {string} code
 */
export function renderDataset(main, code) {
  // The route took a code of letters, digits and _; the API refuses one that is not a DatasetCode.
  const datasetCode = /** @type {import('../gql/operations').DatasetCode} */ (code);
  let view = readView(new URLSearchParams(location.search));
  const viewGiven = givesView(new URLSearchParams(location.search));
  const heading = h('h1', { class: 'dataset-title' }, code);
  const subtitle = h('div', {});
  const aboutBody = h('div', {}, h('p', { role: 'status' }, t('loading')));
  const chartBody = h('div', {}, h('p', { role: 'status' }, t('loading')));
  // Shown only for a dataset whose records name a province, once its columns say so.
  const mapBody = h('div', {});
  const mapSection = section(t('mapHeading'), mapBody);
  mapSection.hidden = true;
  const rowsBody = h('div', {}, h('p', { role: 'status' }, t('loading')));
  const fieldsBody = h('div', {}, h('p', { role: 'status' }, t('loading')));
  const codeBody = h('div', {});
  const version = h('span', { class: 'mono' });
  const changed = h('span', {});
  const changeNote = h('div', {});
  replace(
    main,
    h('p', {}, h('a', { href: portalPath('/') }, `← ${t('backToCatalogue')}`)),
    heading,
    subtitle,
    section(t('about'), aboutBody, changeNote),
    section(t('chartHeading'), chartBody),
    mapSection,
    section(t('citeHeading'), citeBox(code)),
    section(t('rowsHeading'), rowsBody),
    section(t('codeHeading'), codeBody),
    section(t('fieldsHeading'), fieldsBody),
  );

  /** @type {About | undefined} */
  let about;
  /** @type {(() => void)[]} */
  const onViewChange = [];

  const loadAbout = async () => {
    try {
      const { data, errors } = await graphqlPartial(ABOUT, { code: datasetCode });
      showSimulatedNotice();
      about = data.dataset;
      drawAbout(data.dataset, errors);
    } catch (error) {
      // A code that is not a dataset's: the API refuses it before reading anything.
      if (
        error instanceof ApiError &&
        (error.code === 'GRAPHQL_VALIDATION_FAILED' || error.code === 'BAD_USER_INPUT')
      ) {
        replace(main, h('h1', {}, t('notFound')), h('p', {}, h('a', { href: portalPath('/') }, t('backToCatalogue'))));
        return;
      }
      replace(aboutBody, alertBox(error), h('button', { type: 'button', onclick: loadAbout }, t('retry')));
    }
  };

  /**
   * @param {About} dataset
   * @param {Error[]} errors of fields that failed while the others answered
   */
  const drawAbout = (dataset, errors) => {
    const official = dataset.title;
    const title = language === 'th' ? dataset.title : dataset.titleEn;
    // The catalogue's official title of No. 13 is its code: keep it, and say beside it what the dataset is.
    const titleIsCode = official === dataset.code;
    const descriptive = titleIsCode ? descriptiveTitle(dataset) : undefined;
    heading.textContent = titleIsCode ? official : title;
    heading.classList.toggle('code-title', titleIsCode);
    setHead(
      datasetTitle(descriptive ?? title, dataset.code, language),
      datasetDescription(descriptive ?? title, dataset.metadata.publisher, language),
      datasetPath(dataset.code),
    );
    replace(subtitle, descriptive === undefined ? null : h('p', { class: 'subtitle', lang: language }, descriptive));
    // The watcher's content hash; what was last fetched before its first look is the "last fetched" fact below (its
    // version is the upstream's ETag where it sends one, another kind of version, so it is not shown here).
    version.textContent = shortVersion(dataset.version);
    changed.textContent = dataset.changedAt === null ? t('notWatched') : formatDateTime(dataset.changedAt);
    const fact = (
      /** @type {string} */ name,
      /** @type {string} */ term,
      /** @type {import('../dom.js').Child} */ value,
      className = '',
    ) => [h('dt', {}, term), h('dd', { class: className || null, 'data-fact': name }, value)];
    replace(
      aboutBody,
      h(
        'dl',
        { class: 'facts' },
        titleIsCode ? fact('officialTitle', t('officialTitle'), official, 'mono wrap') : null,
        titleIsCode ? fact('descriptiveTitle', t('descriptiveTitle'), descriptive) : null,
        titleIsCode ? null : fact('code', t('code'), dataset.code, 'mono wrap'),
        fact('group', t('colGroup'), dataset.groups.map((group) => tOf('groups', group)).join(', ')),
        fact('coverage', t('coverage'), dataset.metadata.coverage.description),
        // Read from the records: left out, like lastFetched, when the upstream cannot be read.
        dataset.metadata.coverage.referencePeriod === null || dataset.metadata.coverage.referencePeriod === undefined
          ? null
          : fact('referencePeriod', t('referencePeriod'), dataset.metadata.coverage.referencePeriod.description),
        fact('agency', t('colAgency'), language === 'th' ? dataset.agencyName : dataset.agencyNameEn),
        fact('apiUrl', t('apiUrl'), `${dataset.method} ${dataset.apiUrl}`, 'mono wrap'),
        fact('version', t('version'), version),
        fact('changedAt', t('changedAt'), changed),
        // What the server last fetched: known from the cache at once after a restart, before the watcher's first look.
        dataset.lastFetched === null || dataset.lastFetched === undefined
          ? null
          : fact('lastFetched', t('lastFetched'), formatDateTime(dataset.lastFetched.fetchedAt)),
        fact('licence', t('licence'), h('a', { href: dataset.metadata.licence.url }, dataset.metadata.licence.name)),
        fact('source', t('source'), h('a', { href: dataset.metadata.publisherUrl }, dataset.metadata.publisher)),
        fact('updateFrequency', t('updateFrequency'), dataset.metadata.updateFrequency),
        dataset.metadata.contactEmail === null || dataset.metadata.contactEmail === undefined
          ? null
          : fact(
              'contact',
              t('contact'),
              h('a', { href: `mailto:${dataset.metadata.contactEmail}` }, dataset.metadata.contactEmail),
            ),
      ),
      dataset.metadata.caveats.length === 0
        ? null
        : h(
            'div',
            { class: 'caveats', 'data-fact': 'caveats' },
            h('h3', {}, t('caveats')),
            h('ul', {}, ...dataset.metadata.caveats.map((caveat) => h('li', {}, caveat))),
          ),
      titleIsCode && dataset.group !== 'TEACHERS'
        ? h('p', { class: 'help' }, t('groupFiledUnder', { group: tOf('groups', dataset.group) }))
        : null,
      h('p', { class: 'help' }, t('liveNote')),
      errors.length === 0
        ? null
        : h('p', { class: 'alert' }, t('partFailed', { what: errors.map((error) => error.message).join(' · ') })),
    );
  };

  /** @param {Promise<void>} aboutLoaded the dataset's group names its default measure */
  const loadColumns = async (aboutLoaded) => {
    try {
      await aboutLoaded;
      const [{ data, errors }, names] = await Promise.all([
        graphqlPartial(COLUMNS, { code: datasetCode }),
        typedNames(code),
      ]);
      const fields = data.dataset.fields;
      // The upstream's own reason when it failed; "nothing to chart" when it answered no records.
      if (fields === null || fields === undefined || fields.length === 0) throw errors[0] ?? new Error(t('noChart'));
      /** @type {Column[]} */
      const columns = fields.map((field) => ({ ...field, types: field.types.map(String) }));
      const recordCount = data.dataset.recordCount ?? 0;
      showSimulatedNotice();
      const label = (/** @type {string} */ column) => columnLabel(column, names);
      // The reader's first view, unless the address gave one: the chart's measure and categories, and the latest
      // year when the chart is not by year (adding up years would count the same schools several times).
      if (!viewGiven) {
        const by = defaultGroupBy(columns, code);
        const year = columns.find((column) => column.name === yearColumn(columns));
        const where = new Map(view.where);
        if (year !== undefined && year.name !== by && year.max !== null) where.set(year.name, [String(year.max)]);
        view = { ...view, where, measure: defaultMeasure(columns, recordCount, about?.group ?? ''), by };
      }
      /** @type {Page} */
      const page = {
        code: datasetCode,
        get about() {
          return about;
        },
        columns,
        recordCount,
        label,
        view: () => view,
        setView: (next) => {
          view = next;
          history.replaceState(history.state, '', datasetPath(code, viewParams(view)));
          for (const redraw of onViewChange) redraw();
        },
      };
      const staffType = columns.find((column) => STAFF_TYPE.test(column.name));
      const chart = chartPanel(page, { staffType: staffType?.name });
      const table = explorer(page, { quick: [yearColumn(columns), provinceColumn(columns), staffType?.name] });
      const snippets = codePanel(page);
      onViewChange.push(chart.redraw, table.redraw, snippets.redraw);
      const province = provinceColumn(columns);
      if (province !== undefined) {
        const map = provinceMap(page, { province, measureLabel: (measure) => measureWords(page, measure) });
        onViewChange.push(map.redraw);
        replace(mapBody, map.element);
      }
      mapSection.hidden = province === undefined;
      replace(chartBody, chart.element);
      replace(rowsBody, table.element);
      replace(codeBody, snippets.element);
      replace(fieldsBody, fieldsTable(page));
      if (!viewGiven) history.replaceState(history.state, '', datasetPath(code, viewParams(view)));
    } catch (error) {
      for (const body of [chartBody, rowsBody, fieldsBody]) {
        replace(body, alertBox(error), h('button', { type: 'button', onclick: reload }, t('retry')));
      }
    }
  };

  const reload = () => {
    onViewChange.length = 0;
    replace(changeNote);
    const aboutLoaded = loadAbout();
    return Promise.all([aboutLoaded, loadColumns(aboutLoaded)]);
  };

  void reload().then(focusHeading);
  return subscribe(VERSION, {
    variables: { codes: [datasetCode] },
    onNext: ({ datasetChanged }) => {
      version.textContent = shortVersion(datasetChanged.version);
      changed.textContent = formatDateTime(datasetChanged.changedAt);
      const message = t('datasetChangedAnnounce', { version: shortVersion(datasetChanged.version) });
      replace(
        changeNote,
        h('p', { class: 'notice' }, message, ' ', h('button', { type: 'button', onclick: reload }, t('reloadData'))),
      );
      announce(message);
    },
  });
}

/**
 * The column of province names, if any: the one named so in English or Thai, a name rather than a code.
 * @param {Column[]} columns
 */
function provinceColumn(columns) {
  const named = columns.filter((column) => /prov|จังหวัด/i.test(column.name));
  return (named.find((column) => !/code|รหัส/i.test(column.name)) ?? named[0])?.name;
}
