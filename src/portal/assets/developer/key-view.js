// What the developer does with the registration itself: who is signed in (and signing out), rotating the key with a
// grace period for the old one (the new key shown once), and deleting the registration (confirmed first).
import { h, replace } from '../dom.js';
import { formatDateTime } from '../i18n.js';
import { actionButton, field, keyOnce, section } from '../ui.js';
import { t } from './messages.js';

/** @typedef {import('./state.js').Account} Account */

/** The grace periods offered for the old key, in seconds, with their words. */
const GRACE_PERIODS = /** @type {const} */ ([
  [0, 'graceNow'],
  [3600, 'graceHour'],
  [86400, 'graceDay'],
  [604800, 'graceWeek'],
]);

/**
 * @param {Account} account
 * @param {() => void} signOut
 */
export function accountHeader(account, signOut) {
  return h(
    'div',
    { class: 'account' },
    h('p', {}, t('signedInAs', { name: account.me.name }), ' · ', h('span', { class: 'mono' }, account.me.id)),
    h('button', { type: 'button', onclick: signOut }, t('signOut')),
  );
}

/**
 * The rotation's section, and what draws the key it gave from the state.
 * @param {Account} account
 * @param {{ grace: (seconds: number) => void, rotate: () => Promise<void> }} actions `rotate` returns once the state
 *   holds the new key, and throws what the section shows
 * @returns {{ element: HTMLElement, drawRotated: (account: Account) => void }}
 */
export function rotateSection(account, actions) {
  const errors = h('div', {});
  const rotated = h('div', {});
  const grace = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { onchange: () => actions.grace(Number(grace.value)) },
      GRACE_PERIODS.map(([seconds, words]) =>
        h('option', { value: String(seconds), selected: seconds === account.graceS }, t(words)),
      ),
    )
  );
  return {
    element: section(
      t('rotateHeading'),
      h('p', {}, t('rotateHelp')),
      field(t('grace'), grace),
      actionButton(t('rotate'), actions.rotate, errors),
      errors,
      rotated,
    ),
    drawRotated: (next) => {
      if (next.rotated === undefined) return replace(rotated);
      replace(
        rotated,
        keyOnce(next.rotated.apiKey),
        h('p', {}, t('previousKeysExpire', { at: formatDateTime(next.rotated.previousKeysExpireAt) })),
      );
    },
  };
}

/**
 * Deleting the registration: asked, then confirmed or cancelled, the focus following.
 * @param {() => Promise<void>} remove throws what the section shows
 */
export function deleteSection(remove) {
  const errors = h('div', {});
  const area = h('div', {});
  const askButton = h(
    'button',
    {
      type: 'button',
      class: 'danger-outline',
      onclick: () => {
        const confirm = actionButton(t('deleteConfirm'), remove, errors, { class: 'danger' });
        const cancel = () => {
          replace(area, askButton);
          askButton.focus();
        };
        replace(area, confirm, ' ', h('button', { type: 'button', onclick: cancel }, t('cancel')));
        confirm.focus();
      },
    },
    t('deleteAsk'),
  );
  replace(area, askButton);
  return section(t('deleteHeading'), h('p', {}, t('deleteHelp')), area, errors);
}
