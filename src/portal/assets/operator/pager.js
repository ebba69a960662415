// Previous and next buttons over a list the API pages, and where this page is in the whole list.
import { h } from '../dom.js';
import { t } from './messages.js';

/**
 * @param {string} label
 * @param {ReturnType<typeof import('./state.js').pagePosition>} position
 * @param {(direction: 'previous' | 'next') => void} turn
 */
export function pager(label, position, turn) {
  if (!position.shown) return null;
  return h(
    'nav',
    { class: 'pager', 'aria-label': label },
    h(
      'button',
      { type: 'button', disabled: !position.hasPrevious, onclick: () => turn('previous') },
      t('previousPage'),
    ),
    h('span', {}, t('pageOf', { page: position.page, pages: position.pages })),
    h('button', { type: 'button', disabled: !position.hasNext, onclick: () => turn('next') }, t('nextPage')),
  );
}
