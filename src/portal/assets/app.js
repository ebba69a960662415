// The portal's shell: header, navigation, language switch, and a router over path-style addresses (/portal/,
// /portal/datasets/CODE, /portal/developer, /portal/operator). Each page's module is loaded only when its route is
// first shown (a dynamic import from this origin, which the CSP's script-src 'self' allows), so a reader of the
// catalogue never downloads the operator's code. Secrets never go in a URL: only a page's view state does.
import { h, replace } from './dom.js';
import { language, setLanguage, t } from './i18n.js';

/** @typedef {import('./i18n.js').MessageKey} MessageKey */
import { PORTAL, portalPath } from './routes.js';
import { focusHeading, main, notice, setHead, showSimulatedNotice } from './shell.js';
import { PAGE_HEADS, pageOfPath } from './page-heads.js';

/**
 * A page draws itself into `main` and may return a function that stops what it started (subscriptions).
 * @typedef {(main: HTMLElement, parameter: string) => (() => void) | void} Page
 */

/**
 * Route pattern (on the path after /portal), the page's module and export, and the navigation entry it belongs to.
 * @type {[pattern: RegExp, load: () => Promise<Page>, nav: MessageKey][]}
 */
const ROUTES = [
  [/^\/?$/, () => import('./pages/catalogue.js').then((module) => module.renderCatalogue), 'navDatasets'],
  [
    /^\/datasets\/([A-Za-z0-9_]+)\/?$/,
    () => import('./pages/dataset.js').then((module) => module.renderDataset),
    'navDatasets',
  ],
  [/^\/developer\/?$/, () => import('./pages/developer.js').then((module) => module.renderDeveloper), 'navDevelopers'],
  [/^\/operator\/?$/, () => import('./pages/operator.js').then((module) => module.renderOperator), 'navOperators'],
];

const header = h('header', { class: 'site-header' });
/** @type {(() => void) | void} */
let leave;
/** Counts route changes, so a page whose module arrives after the reader moved on is not drawn. */
let generation = 0;

function renderHeader(/** @type {string} */ current) {
  const link = (/** @type {string} */ href, /** @type {MessageKey} */ key) =>
    h('a', { href, 'aria-current': key === current ? 'page' : null }, t(key));
  replace(
    header,
    h('a', { class: 'skip', href: '#main', onclick: skipToMain }, t('skip')),
    h(
      'div',
      { class: 'header-row' },
      h('a', { class: 'brand', href: portalPath('/') }, t('brand')),
      h(
        'button',
        {
          type: 'button',
          class: 'language',
          lang: language === 'th' ? 'en' : 'th',
          onclick: () => {
            setLanguage(language === 'th' ? 'en' : 'th');
            void route();
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
        h('li', {}, link(portalPath('/'), 'navDatasets')),
        h('li', {}, link(portalPath('/developer'), 'navDevelopers')),
        h('li', {}, link(portalPath('/operator'), 'navOperators')),
        h('li', {}, h('a', { href: '/graphql' }, t('navGraphiql'))),
      ),
    ),
    // Inside the banner landmark: the simulator notice concerns the whole site, and no content sits outside one.
    notice,
  );
}

/** The skip link must not change the route: it moves focus to the content. @param {Event} event */
function skipToMain(event) {
  event.preventDefault();
  main.focus();
}

/** The route of an address written the old way (#/datasets/CODE), still in bookmarks and other people's pages. */
function legacyHashRoute() {
  const hash = location.hash;
  if (!hash.startsWith('#/')) return undefined;
  return `${portalPath(hash.slice(1))}${location.search}`;
}

async function route() {
  const legacy = legacyHashRoute();
  if (legacy !== undefined) history.replaceState(null, '', legacy);
  leave?.();
  leave = undefined;
  generation += 1;
  const mine = generation;
  document.documentElement.lang = language;
  const path = location.pathname.startsWith(PORTAL) ? location.pathname.slice(PORTAL.length) : location.pathname;
  const match = ROUTES.map(([pattern, load, nav]) => /** @type {const} */ ([pattern.exec(path), load, nav])).find(
    ([found]) => found !== null,
  );
  // The page's own head (page-heads.js); a dataset's page sets its own once the catalogue has answered.
  const named = pageOfPath(`${PORTAL}${path}`);
  const head = named === undefined ? undefined : PAGE_HEADS[named][language];
  setHead(
    head?.title ?? t('brand'),
    head?.description ?? '',
    named === undefined ? location.pathname : PAGE_HEADS[named].path,
  );
  replace(notice);
  if (match === undefined) {
    renderHeader('');
    replace(main, h('h1', {}, t('notFound')), h('p', {}, h('a', { href: portalPath('/') }, t('backToCatalogue'))));
    return;
  }
  const [found, load, nav] = match;
  renderHeader(nav);
  replace(main, h('p', { role: 'status' }, t('loading')));
  /** @type {Page} */
  let page;
  try {
    page = await load();
  } catch {
    // The module did not arrive (offline, a deployment replaced it): say so in the reader's language.
    if (mine !== generation) return;
    replace(
      main,
      h('h1', {}, t('failed')),
      h('p', { class: 'alert', role: 'alert' }, t('networkFailed')),
      h('button', { type: 'button', onclick: () => location.reload() }, t('retry')),
    );
    return;
  }
  if (mine !== generation) return;
  replace(main);
  leave = page(main, decodeURIComponent(found?.[1] ?? ''));
  showSimulatedNotice();
}

/** Moves within the portal without a page load. @param {string} href */
export function navigate(href) {
  history.pushState(null, '', href);
  void route().then(focusHeading);
}

// Links to portal pages are followed here rather than by a page load; anything else (an asset, /graphql, a
// download, a new tab, a modified click) is left to the browser.
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const target = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(target instanceof HTMLAnchorElement) || target.target !== '' || target.hasAttribute('download')) return;
  const url = new URL(target.href);
  if (url.origin !== location.origin) return;
  const legacy = url.hash.startsWith('#/');
  const page = url.pathname.startsWith(`${PORTAL}/`) && !/\.[a-z0-9]+$/i.test(url.pathname);
  // An anchor within this page (#main, a section) is the browser's.
  const samePage = url.pathname === location.pathname && url.search === location.search && url.hash !== '';
  if (!legacy && (!page || samePage)) return;
  event.preventDefault();
  navigate(legacy ? portalPath(url.hash.slice(1)) : `${url.pathname}${url.search}`);
});

document.body.append(header, main);
window.addEventListener('popstate', () => void route().then(focusHeading));
window.addEventListener('hashchange', () => {
  if (legacyHashRoute() !== undefined) void route().then(focusHeading);
});
void route();
