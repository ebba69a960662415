// The catalogue: the 13 datasets (each version updated live) and the 4 summaries with the reader's status.
import { graphql, subscribe } from '../api.js';
import { h, replace } from '../dom.js';
import { formatDateTime, language, t, tOf } from '../i18n.js';
import { showSimulatedNotice } from '../shell.js';
import { alertBox, announce, section, statusBadge, summaryTitle, table } from '../ui.js';
import { credential } from '../session.js';

const CATALOGUE = `query PortalCatalogue {
  datasets { no code title titleEn group agency agencyName agencyNameEn version changedAt }
  summaryEndpoints { name title subject version apiUrl status statusLabel }
}`;

const CHANGES = `subscription PortalDatasetChanges {
  datasetChanged { version changedAt dataset { code } }
}`;

/** @param {HTMLElement} main */
export function renderCatalogue(main) {
  const body = h('div', {}, h('p', { role: 'status' }, t('loading')));
  replace(main, h('h1', {}, t('catalogueTitle')), h('p', { class: 'lead' }, t('catalogueIntro')), body);
  /** @type {Map<string, { version: HTMLElement, changed: HTMLElement }>} */
  const cells = new Map();
  const load = async () => {
    try {
      // The reader's own status when signed in as a developer; anonymous otherwise.
      /** @typedef {{ datasets: import('../types').DatasetSummary[], summaryEndpoints: import('../types').SummaryEndpoint[] }} Catalogue */
      /** @type {(token?: string) => Promise<Catalogue>} */
      const read = (token) => graphql(CATALOGUE, {}, token);
      const data = await read(credential('client')).catch(() => read());
      showSimulatedNotice();
      const rows = data.datasets.map((dataset) => {
        const version = h('span', { class: 'mono' }, shortVersion(dataset.version));
        const changed = h('span', {}, formatDateTime(dataset.changedAt));
        cells.set(dataset.code, { version, changed });
        return [
          String(dataset.no),
          h('a', { href: `#/datasets/${dataset.code}` }, language === 'th' ? dataset.title : dataset.titleEn),
          tOf('groups', dataset.group),
          language === 'th' ? dataset.agencyName : dataset.agencyNameEn,
          version,
          changed,
        ];
      });
      const summaries = data.summaryEndpoints.map((endpoint) => [
        summaryTitle(endpoint),
        h('span', { class: 'mono' }, endpoint.name),
        statusBadge(endpoint.status, endpoint.statusLabel),
        h('a', { href: '#/developer' }, t('askForUse')),
      ]);
      replace(
        body,
        section(
          t('datasetsHeading', { count: rows.length }),
          table(
            t('datasetsHeading', { count: rows.length }),
            [t('colNo'), t('colTitle'), t('colGroup'), t('colAgency'), t('colVersion'), t('colChanged')],
            rows,
            { hideCaption: true, stack: true },
          ),
          h('p', { class: 'help' }, t('liveNote')),
        ),
        section(
          t('summariesHeading', { count: summaries.length }),
          h('p', {}, t('summariesIntro')),
          table(
            t('summariesHeading', { count: summaries.length }),
            [t('colSubject'), t('colEndpoint'), t('colStatus'), t('askForUse')],
            summaries,
            { hideCaption: true, stack: true },
          ),
        ),
      );
    } catch (error) {
      replace(body, alertBox(error), h('button', { type: 'button', onclick: load }, t('retry')));
    }
  };
  void load();
  return subscribe(CHANGES, {
    onNext: (/** @type {{ datasetChanged: import('../types').DatasetChange }} */ { datasetChanged }) => {
      const cell = cells.get(datasetChanged.dataset.code);
      if (cell === undefined) return;
      cell.version.textContent = shortVersion(datasetChanged.version);
      cell.changed.textContent = formatDateTime(datasetChanged.changedAt);
      announce(t('datasetChangedAnnounce', { version: shortVersion(datasetChanged.version) }));
    },
  });
}

/** The first characters of a content hash, enough to tell versions apart. @param {string | null} version */
export function shortVersion(version) {
  return version === null ? t('notWatched') : version.slice(0, 10);
}
