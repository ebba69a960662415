// Before the account: the forms to register and to sign in with a key, the new key shown once after registering,
// and an account that could not be read, with a way to try again.
import { h, replace } from '../dom.js';
import { formatDateTime } from '../i18n.js';
import { alertBox, checkbox, field, form, keyOnce, section } from '../ui.js';
import { requestSnippets } from '../snippets.js';
import { VIEWER_QUERY } from './documents.js';
import { t } from './messages.js';

/** @typedef {import('./state.js').Notice} Notice */
/**
 * Each throws what its form shows.
 * @typedef {{
 *   register: (name: string, contactEmail: string, remember: boolean) => Promise<void>,
 *   signIn: (secret: string, remember: boolean) => Promise<void>,
 * }} SignInActions
 */

/**
 * @param {Notice | undefined} notice
 * @returns {HTMLElement | null}
 */
function noticeOf(notice) {
  if (notice === undefined) return null;
  if (notice.kind === 'keyRefused') return h('p', { class: 'alert', role: 'alert' }, t('keyRefused'));
  return h('p', { class: 'notice', role: 'status' }, t('deleted', { at: formatDateTime(notice.at) }));
}

/**
 * @param {HTMLElement} container
 * @param {Notice | undefined} notice what ended the last session, if anything did
 * @param {SignInActions} actions
 */
export function drawSignedOut(container, notice, actions) {
  const input = (/** @type {Record<string, string | number | boolean>} */ attributes) =>
    /** @type {HTMLInputElement} */ (h('input', attributes));
  const name = input({ name: 'name', required: true, maxlength: 200, autocomplete: 'organization' });
  const email = input({ name: 'email', type: 'email', required: true, autocomplete: 'email' });
  const key = input({ name: 'key', type: 'password', required: true, autocomplete: 'off', spellcheck: 'false' });
  const rememberRegistered = input({ type: 'checkbox' });
  const rememberSignIn = input({ type: 'checkbox' });
  replace(
    container,
    noticeOf(notice),
    h(
      'div',
      { class: 'columns' },
      section(
        t('registerHeading'),
        form(
          () => actions.register(name.value, email.value, rememberRegistered.checked),
          field(t('appName'), name),
          field(t('contactEmail'), email),
          checkbox(t('rememberMe'), rememberRegistered),
          h('button', { type: 'submit', class: 'primary' }, t('register')),
        ),
      ),
      section(
        t('signInHeading'),
        form(
          () => actions.signIn(key.value.trim(), rememberSignIn.checked),
          field(t('apiKey'), key),
          checkbox(t('rememberMe'), rememberSignIn),
          h('button', { type: 'submit' }, t('signIn')),
        ),
      ),
    ),
  );
}

/**
 * The key a registration gave, shown once, with a request to try it; the focus on going on.
 * @param {HTMLElement} container
 * @param {string} apiKey
 * @param {() => void} goOn
 */
export function drawRegistered(container, apiKey, goOn) {
  const next = h('button', { type: 'button', class: 'primary', onclick: goOn }, t('continue'));
  replace(
    container,
    keyOnce(apiKey, 2),
    requestSnippets({ label: t('tryKey'), query: VIEWER_QUERY, key: () => apiKey }),
    h('p', { class: 'help' }, t('snippetKeyHelp')),
    h('p', {}, next),
  );
  next.focus();
}

/**
 * @param {HTMLElement} container
 * @param {unknown} error why the account could not be read
 * @param {{ retry: () => void, signOut: () => void }} actions
 */
export function drawFailed(container, error, actions) {
  replace(
    container,
    alertBox(error),
    h(
      'p',
      { class: 'actions' },
      h('button', { type: 'button', class: 'primary', onclick: actions.retry }, t('retry')),
      ' ',
      h('button', { type: 'button', onclick: actions.signOut }, t('signOut')),
    ),
  );
}
