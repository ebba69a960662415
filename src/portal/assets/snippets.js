// A ready-to-run request in the languages app developers use (request-code.js), drawn on the developer page with
// a copy button. The key is shown shortened on the page and copied whole: a screen share or a screenshot does not
// leak it (the page says so once, where it shows them: t('snippetKeyHelp')).
import { graphqlUrl } from './api.js';
import { h, replace, uid } from './dom.js';
import { t } from './i18n.js';
import { SNIPPET_LANGUAGES, snippet } from './request-code.js';

/** @typedef {import('./request-code.js').SnippetLanguage} SnippetLanguage */

/** A key as the page shows it: its prefix and first characters, enough to tell keys apart. @param {string} key */
export function shortKey(key) {
  return `${key.slice(0, 9)}…`;
}

/**
 * A request for `query` in each language, one shown at a time, with a copy button that copies it whole.
 * @param {{ label: string, query: string, variables?: Record<string, unknown>, key?: () => string | undefined }} options
 *   `key` is read each time the code is drawn or copied, so a rotated key is the one copied
 */
export function requestSnippets({ label, query, variables = {}, key = () => undefined }) {
  const url = graphqlUrl();
  const body = JSON.stringify({ query, variables });
  const code = h('code', {});
  const copyState = h('span', { class: 'copy-state', role: 'status' });
  /** @type {SnippetLanguage} */
  let current = 'curl';
  const groupId = uid('snippet');
  const buttons = SNIPPET_LANGUAGES.map(([lang, name]) =>
    h(
      'button',
      {
        type: 'button',
        class: 'snippet-tab',
        'data-lang': lang,
        'aria-pressed': lang === current ? 'true' : 'false',
        onclick: () => show(lang),
      },
      name,
    ),
  );
  const show = (/** @type {SnippetLanguage} */ lang) => {
    current = lang;
    for (const button of buttons) button.setAttribute('aria-pressed', String(button.dataset['lang'] === lang));
    // Shown with the key shortened; copied with the whole key.
    const secret = key();
    replace(code, snippet(lang, { url, body, key: secret === undefined ? undefined : shortKey(secret) }));
    copyState.textContent = '';
  };
  const copy = h(
    'button',
    {
      type: 'button',
      class: 'copy-snippet',
      onclick: async () => {
        show(current);
        const secret = key();
        try {
          await navigator.clipboard.writeText(snippet(current, { url, body, key: secret }));
          copyState.textContent = secret === undefined ? t('copied') : t('copiedWithKey');
        } catch {
          copyState.textContent = t('copyFailed');
        }
      },
    },
    t('copyCode'),
  );
  show(current);
  return h(
    'div',
    { class: 'snippets', role: 'group', 'aria-labelledby': groupId },
    h('p', { class: 'snippets-label', id: groupId }, label),
    h('div', { class: 'snippet-tabs', role: 'group', 'aria-label': t('snippetLanguage') }, buttons),
    h('pre', { class: 'code', tabindex: '0' }, code),
    h('div', { class: 'snippet-actions' }, copy, copyState),
  );
}
