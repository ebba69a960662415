// The parts of the page every view writes into.
import { simulated } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';

export const notice = h('div', { class: 'notice-slot' });
export const main = h('main', { id: 'main', tabindex: '-1' });

/** Shows the simulator notice once any answer said the data is simulated. */
export function showSimulatedNotice() {
  if (simulated && notice.childElementCount === 0) notice.append(h('p', { class: 'notice' }, t('simulated')));
}

/** Moves focus to the new page's heading, as a page load would, so keyboard and screen-reader users start there. */
export function focusHeading() {
  const heading = main.querySelector('h1');
  if (heading instanceof HTMLElement) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
}

/**
 * The page's title, meta description and canonical address, as the server writes them into a page it sends
 * (page-heads.js): set here too, so a page drawn without a load says the same of itself. The canonical address is the
 * page's own, without a view's query.
 * @param {string} title
 * @param {string} description
 * @param {string} path the page's path, as the server's canonical link has it
 */
export function setHead(title, description, path) {
  document.title = title;
  let meta = document.head.querySelector('meta[name="description"]');
  if (meta === null) {
    meta = document.createElement('meta');
    meta.setAttribute('name', 'description');
    document.head.append(meta);
  }
  meta.setAttribute('content', description);
  let canonical = document.head.querySelector('link[rel="canonical"]');
  if (canonical === null) {
    canonical = document.createElement('link');
    canonical.setAttribute('rel', 'canonical');
    document.head.append(canonical);
  }
  canonical.setAttribute('href', `${location.origin}${path}`);
}
