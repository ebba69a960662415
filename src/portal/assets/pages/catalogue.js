// The catalogue: the 13 datasets (each version updated live) and the 4 summaries with the reader's status.
import { graphql, graphqlPartial, operation, subscribe } from '../api.js';
import { h, replace } from '../dom.js';
import { formatDateTime, language, t, tOf } from '../i18n.js';
import { periodText } from '../period.js';
import { datasetPath, portalPath } from '../routes.js';
import { showSimulatedNotice } from '../shell.js';
import {
  alertBox,
  announce,
  checkbox,
  descriptiveTitle,
  field,
  section,
  shortVersion,
  statusBadge,
  summaryTitle,
  table,
} from '../ui.js';
import { credential } from '../session.js';

/** @import { PortalCatalogueQuery, PortalCatalogueQueryVariables, PortalCataloguePeriodsQuery, PortalCataloguePeriodsQueryVariables, PortalDatasetChangesSubscription, PortalDatasetChangesSubscriptionVariables, PortalDatasetSearchQuery, PortalDatasetSearchQueryVariables } from '../gql/operations' */

/** @type {import('../api.js').Operation<PortalCatalogueQuery, PortalCatalogueQueryVariables>} */
const CATALOGUE = operation(/* GraphQL */ `
  query PortalCatalogue {
    datasets {
      no
      code
      title
      titleEn
      group
      groups
      agency
      agencyName
      agencyNameEn
      version
      changedAt
      metadata {
        coverage {
          label
        }
      }
    }
    summaryEndpoints {
      name
      title
      subject
      version
      apiUrl
      status
      statusLabel
    }
  }
`);

/**
 * The catalogue's one search (the server's, which MCP's find_datasets and CKAN's package_search share): it looks in
 * what the page does not hold, the datasets' descriptions, field names and the provinces they have rows for.
 * @type {import('../api.js').Operation<PortalDatasetSearchQuery, PortalDatasetSearchQueryVariables>}
 */
const SEARCH = operation(/* GraphQL */ `
  query PortalDatasetSearch($search: String!) {
    datasets(search: $search) {
      code
    }
  }
`);

/**
 * Each dataset's reference period, read from its records: asked apart from the list, so the list never waits for
 * the upstream, and filled into the coverage column when it comes.
 * @type {import('../api.js').Operation<PortalCataloguePeriodsQuery, PortalCataloguePeriodsQueryVariables>}
 */
const PERIODS = operation(/* GraphQL */ `
  query PortalCataloguePeriods {
    datasets {
      code
      metadata {
        coverage {
          referencePeriod {
            firstYear
            lastYear
            asOf
          }
        }
      }
    }
  }
`);

/** How long typing pauses before the search is asked: one request per pause, not per key. */
const SEARCH_PAUSE_MS = 250;

/** @type {import('../api.js').Operation<PortalDatasetChangesSubscription, PortalDatasetChangesSubscriptionVariables>} */
const CHANGES = operation(/* GraphQL */ `
  subscription PortalDatasetChanges {
    datasetChanged {
      version
      changedAt
      dataset {
        code
      }
    }
  }
`);

/** The catalogue groups, in the order the filters show them. */
const GROUPS = /** @type {const} */ (['TEACHERS', 'STUDENTS', 'SCHOOLS', 'GRADUATES']);

/** @param {HTMLElement} main */
export function renderCatalogue(main) {
  const body = h('div', {}, h('p', { role: 'status' }, t('loading')));
  replace(main, h('h1', {}, t('catalogueTitle')), h('p', { class: 'lead' }, t('catalogueIntro')), body);
  /** @type {Map<string, { version: HTMLElement, changed: HTMLElement }>} */
  const cells = new Map();
  /** Each dataset's period cell, kept across redraws of the list (the same element moves between tables). */
  /** @type {Map<string, HTMLElement>} */
  const periods = new Map();
  const loadPeriods = async () => {
    try {
      // Those read are shown when another failed (its field is null).
      const { data } = await graphqlPartial(PERIODS, {});
      for (const dataset of data.datasets) {
        const cell = periods.get(dataset.code);
        if (cell !== undefined) cell.textContent = periodText(dataset.metadata.coverage.referencePeriod, language);
      }
    } catch {
      // A period not read (the upstream away) is left blank: the dataset page says what failed.
    }
  };
  // The search and the groups chosen live in the address (?q=…&group=…), so a filtered list can be shared.
  const params = new URLSearchParams(location.search);
  const search = /** @type {HTMLInputElement} */ (
    h('input', { type: 'search', name: 'q', value: params.get('q') ?? '', autocomplete: 'off' })
  );
  const chosenGroups = new Set(params.getAll('group'));
  const boxes = GROUPS.map((group) => {
    const box = /** @type {HTMLInputElement} */ (
      h('input', { type: 'checkbox', name: 'group', value: group, checked: chosenGroups.has(group) })
    );
    return { group, box };
  });
  const load = async () => {
    try {
      // The reader's own status when signed in as a developer; anonymous otherwise.
      const read = (/** @type {string | undefined} */ token = undefined) => graphql(CATALOGUE, {}, token);
      const data = await read(credential('client')).catch(() => read());
      showSimulatedNotice();
      const datasets = data.datasets.map((dataset) => {
        const period = h('span', { 'data-period': dataset.code });
        periods.set(dataset.code, period);
        const version = h('span', { class: 'mono' }, shortVersion(dataset.version));
        const changed = h('span', {}, formatDateTime(dataset.changedAt));
        cells.set(dataset.code, { version, changed });
        // No. 13's official title is its code, in both languages: what it is is searched and shown beside it.
        const described = dataset.title === dataset.code ? descriptiveTitle(dataset) : undefined;
        const title = described !== undefined || language === 'th' ? dataset.title : dataset.titleEn;
        return {
          dataset,
          cells: [
            String(dataset.no),
            h(
              'span',
              { class: described === undefined ? null : 'wrap' },
              h('a', { href: datasetPath(dataset.code) }, title),
              described === undefined || described === title ? null : h('span', { class: 'help' }, ` · ${described}`),
            ),
            dataset.groups.map((group) => tOf('groups', group)).join(', '),
            h('span', { class: 'wrap' }, dataset.metadata.coverage.label, h('br', {}), period),
            language === 'th' ? dataset.agencyName : dataset.agencyNameEn,
            version,
            changed,
          ],
        };
      });
      const listSlot = h('div', {});
      const count = h('p', { role: 'status', class: 'help' });
      /** The codes the server's search found for the words in the box; undefined for an empty box (all). */
      /** @type {Set<string> | undefined} */
      let found;
      const drawList = () => {
        const groups = new Set(boxes.filter(({ box }) => box.checked).map(({ group }) => group));
        const shown = datasets.filter(
          (row) =>
            (groups.size === 0 || row.dataset.groups.some((group) => groups.has(group))) &&
            (found === undefined || found.has(row.dataset.code)),
        );
        count.textContent = t('datasetsShown', { shown: shown.length, total: datasets.length });
        replace(
          listSlot,
          shown.length === 0
            ? h('p', {}, t('noDatasetMatches'))
            : table(
                t('datasetsTable'),
                [
                  t('colNo'),
                  t('colTitle'),
                  t('colGroup'),
                  t('colCoverage'),
                  t('colAgency'),
                  t('colVersion'),
                  t('colChanged'),
                ],
                shown.map((row) => row.cells),
                { hideCaption: true, stack: true },
              ),
        );
        const next = new URLSearchParams();
        if (search.value.trim() !== '') next.set('q', search.value.trim());
        for (const group of groups) next.append('group', group);
        const query = next.toString();
        history.replaceState(history.state, '', `${location.pathname}${query === '' ? '' : `?${query}`}`);
      };
      // Each answer is drawn only if it is for the words still in the box: a slower earlier answer is dropped.
      const searchFor = async () => {
        const words = search.value.trim();
        if (words === '') {
          found = undefined;
          drawList();
          return;
        }
        try {
          const answer = await graphql(SEARCH, { search: words }, credential('client')).catch(() =>
            graphql(SEARCH, { search: words }),
          );
          if (search.value.trim() !== words) return;
          found = new Set(answer.datasets.map((dataset) => dataset.code));
          drawList();
        } catch (error) {
          if (search.value.trim() === words) replace(listSlot, alertBox(error));
        }
      };
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let pause;
      search.addEventListener('input', () => {
        clearTimeout(pause);
        pause = setTimeout(() => void searchFor(), SEARCH_PAUSE_MS);
      });
      for (const { box } of boxes) box.addEventListener('change', drawList);
      const summaries = data.summaryEndpoints.map((endpoint) => [
        summaryTitle(endpoint),
        h('span', { class: 'mono' }, endpoint.name),
        statusBadge(endpoint.status, endpoint.statusLabel),
        h('a', { href: portalPath('/developer') }, t('askForUse')),
      ]);
      replace(
        body,
        section(
          t('datasetsHeading', { count: datasets.length }),
          h(
            'form',
            {
              class: 'catalogue-search',
              role: 'search',
              onsubmit: (/** @type {Event} */ event) => event.preventDefault(),
            },
            field(t('searchDatasets'), search, t('searchDatasetsHelp')),
          ),
          h(
            'fieldset',
            { class: 'group-filters' },
            h('legend', {}, t('colGroup')),
            boxes.map(({ group, box }) => checkbox(tOf('groups', group), box)),
          ),
          count,
          listSlot,
          h('p', { class: 'help' }, t('liveNote')),
        ),
        section(
          t('summariesHeading', { count: summaries.length }),
          h('p', {}, t('summariesIntro')),
          table(t('summariesTable'), [t('colSubject'), t('colEndpoint'), t('colStatus'), t('askForUse')], summaries, {
            hideCaption: true,
            stack: true,
          }),
        ),
      );
      drawList();
      void loadPeriods();
      // A shared address (?q=…) opens with its search asked.
      if (search.value.trim() !== '') await searchFor();
    } catch (error) {
      replace(body, alertBox(error), h('button', { type: 'button', onclick: load }, t('retry')));
    }
  };
  void load();
  return subscribe(CHANGES, {
    onNext: ({ datasetChanged }) => {
      const cell = cells.get(datasetChanged.dataset.code);
      if (cell === undefined) return;
      cell.version.textContent = shortVersion(datasetChanged.version);
      cell.changed.textContent = formatDateTime(datasetChanged.changedAt);
      announce(t('datasetChangedAnnounce', { version: shortVersion(datasetChanged.version) }));
    },
  });
}
