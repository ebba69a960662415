// The operator's sign-in form: a token, checked before it is kept, and whether to remember it.
import { h, replace } from '../dom.js';
import { checkbox, field, form, section } from '../ui.js';
import { t } from './messages.js';

/**
 * @param {HTMLElement} container
 * @param {HTMLElement | null} message what ended the last session, if anything did
 * @param {(secret: string, remember: boolean) => Promise<void>} signIn throws what the form shows
 */
export function drawSignIn(container, message, signIn) {
  const token = /** @type {HTMLInputElement} */ (
    h('input', { type: 'password', required: true, autocomplete: 'off', spellcheck: 'false' })
  );
  const remember = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox' }));
  replace(
    container,
    message,
    section(
      t('signIn'),
      form(
        () => signIn(token.value.trim(), remember.checked),
        field(t('operatorToken'), token),
        checkbox(t('rememberMe'), remember),
        h('button', { type: 'submit', class: 'primary' }, t('signIn')),
      ),
    ),
  );
}
