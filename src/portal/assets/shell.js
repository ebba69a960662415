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
