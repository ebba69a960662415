// "Cite this": the dataset's citation in the reader's language and the other, and as BibTeX, each with a copy button.
// The texts come from the server (/portal/datasets/<CODE>/citation.json), which writes them in the one place that
// writes citations (src/harvest/citation.ts): the English text is the page's JSON-LD `citation`, word for word.
import { NetworkError } from '../api.js';
import { h, replace } from '../dom.js';
import { language } from '../i18n.js';
import { datasetPath } from '../routes.js';
import { alertBox, copyButton } from '../ui.js';
import { t } from './messages.js';

/** @typedef {{ text: string, textTh: string, bibtex: string }} Citation */

/**
 * Where a dataset's citation is served.
 * @param {string} code
 */
export function citationPath(code) {
  return `${datasetPath(code)}/citation.json`;
}

/** @param {string} code */
export function citeBox(code) {
  const element = h('div', { class: 'cite-box' }, h('p', { role: 'status' }, t('loading')));
  const load = async () => {
    /** @type {Citation} */
    let citation;
    try {
      let response;
      try {
        response = await fetch(citationPath(code), { headers: { accept: 'application/json' } });
      } catch {
        throw new NetworkError();
      }
      if (!response.ok) throw new Error(t('citeFailed'));
      /** @type {unknown} */
      const body = await response.json();
      citation = /** @type {Citation} */ (body);
    } catch (error) {
      replace(element, alertBox(error), h('button', { type: 'button', onclick: () => void load() }, t('retry')));
      return;
    }
    const [first, second] = language === 'th' ? [citation.textTh, citation.text] : [citation.text, citation.textTh];
    replace(
      element,
      h('p', { class: 'help' }, t('citeHelp')),
      citationBlock(t('citeText'), first, language),
      citationBlock(t('citeTextOther'), second, language === 'th' ? 'en' : 'th'),
      citationBlock(t('citeBibtex'), citation.bibtex, 'en', true),
    );
  };
  void load();
  return element;
}

/**
 * A labelled citation text and its copy button.
 * @param {string} label
 * @param {string} text
 * @param {string} lang
 * @param {boolean} [code] shown as code (BibTeX)
 */
function citationBlock(label, text, lang, code = false) {
  const state = h('span', { class: 'copy-state', role: 'status' });
  return h(
    'div',
    { class: 'citation' },
    h('h3', {}, label),
    // BibTeX wraps rather than scrolls (portal.css): it is read whole without a scrollbar.
    code ? h('pre', { lang }, h('code', {}, text)) : h('p', { lang, class: 'citation-text' }, text),
    h(
      'p',
      {},
      copyButton(() => text, state, `${t('copy')}: ${label}`, t('copied')),
      state,
    ),
  );
}
