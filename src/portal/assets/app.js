// The portal's shell: header, navigation, language switch, and a hash router (#/, #/datasets/CODE, #/developer,
// #/operator), so the server serves one page and no secret ever needs a URL.
import { h, replace } from './dom.js';
import { language, setLanguage, t } from './i18n.js';
import { renderCatalogue } from './pages/catalogue.js';
import { renderDataset } from './pages/dataset.js';
import { renderDeveloper } from './pages/developer.js';
import { renderOperator } from './pages/operator.js';
import { focusHeading, main, notice, showSimulatedNotice } from './shell.js';

/** @typedef {(main: HTMLElement, parameter: string) => (() => void) | void} Page */

/** @type {[RegExp, Page, string][]} */
const ROUTES = [
  [/^#?\/?$/, renderCatalogue, 'navDatasets'],
  [/^#\/datasets\/([A-Z0-9_]+)$/, renderDataset, 'navDatasets'],
  [/^#\/developer$/, renderDeveloper, 'navDevelopers'],
  [/^#\/operator$/, renderOperator, 'navOperators'],
];

const header = h('header', { class: 'site-header' });
/** @type {(() => void) | void} */
let leave;

function renderHeader(/** @type {string} */ current) {
  const link = (/** @type {string} */ href, /** @type {string} */ key) =>
    h('a', { href, 'aria-current': key === current ? 'page' : null }, t(key));
  replace(
    header,
    h('a', { class: 'skip', href: '#main', onclick: skipToMain }, t('skip')),
    h(
      'div',
      { class: 'header-row' },
      h('a', { class: 'brand', href: '#/' }, t('brand')),
      h(
        'button',
        {
          type: 'button',
          class: 'language',
          lang: language === 'th' ? 'en' : 'th',
          onclick: () => {
            setLanguage(language === 'th' ? 'en' : 'th');
            route();
          },
        },
        t('switchLanguage'),
      ),
    ),
    h(
      'nav',
      { 'aria-label': t('navLabel') },
      h(
        'ul',
        {},
        h('li', {}, link('#/', 'navDatasets')),
        h('li', {}, link('#/developer', 'navDevelopers')),
        h('li', {}, link('#/operator', 'navOperators')),
        h('li', {}, h('a', { href: '/graphql' }, t('navGraphiql'))),
      ),
    ),
  );
}

/** The skip link must not change the route: it moves focus to the content. @param {Event} event */
function skipToMain(event) {
  event.preventDefault();
  main.focus();
}

function route() {
  leave?.();
  leave = undefined;
  document.documentElement.lang = language;
  const hash = location.hash;
  // The skip link's own target is not a route.
  if (hash === '#main') return;
  const match = ROUTES.map(([pattern, page, nav]) => /** @type {const} */ ([pattern.exec(hash), page, nav])).find(
    ([found]) => found !== null,
  );
  document.title = t('brand');
  replace(notice);
  if (match === undefined) {
    renderHeader('');
    replace(main, h('h1', {}, t('notFound')), h('p', {}, h('a', { href: '#/' }, t('backToCatalogue'))));
    return;
  }
  const [found, page, nav] = match;
  renderHeader(nav);
  replace(main);
  leave = page(main, decodeURIComponent(found?.[1] ?? ''));
  showSimulatedNotice();
}

document.body.append(header, notice, main);
window.addEventListener('hashchange', () => {
  route();
  focusHeading();
});
route();
