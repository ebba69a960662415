// A ready-to-run request for the records as filtered on the page, in curl, JavaScript, Python, Kotlin and Swift,
// with this server's real address; the same query opens in GraphiQL.
import { graphiqlLink, graphqlUrl } from '../api.js';
import { h, replace, uid } from '../dom.js';
import { t } from './messages.js';
import { copyButton, field } from '../ui.js';
import { SNIPPET_LANGUAGES, snippet } from '../request-code.js';
import { recordsQuery } from './snippets.js';
import { downloadPath, recordFilters, recordOrder } from './view.js';

/** Records the snippets ask for: a page, as a first request would. */
const FIRST = 100;

/** @param {import('../pages/dataset.js').Page} page */
export function codePanel(page) {
  const choice = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { name: 'snippet-language' },
      SNIPPET_LANGUAGES.map(([language, name]) => h('option', { value: language }, name)),
    )
  );
  const codeId = uid('snippet');
  const code = h('code', {});
  const pre = h('pre', { class: 'code', tabindex: '0', id: codeId, 'aria-label': t('codeHeading') }, code);
  const intro = h('p', { class: 'wrap' });
  const status = h('span', { class: 'copy-state', role: 'status' });
  const graphiql = h('a', { class: 'button' }, t('openInGraphiql'));
  const redraw = () => {
    const view = page.view();
    const endpoint = graphqlUrl();
    const download = `${location.origin}${downloadPath(page.code, 'csv', view)}`;
    const query = recordsQuery(page.code, FIRST);
    const variables = { where: recordFilters(view), orderBy: recordOrder(view) };
    const language = /** @type {import('../request-code.js').SnippetLanguage} */ (choice.value);
    code.textContent = snippet(language, { url: endpoint, body: JSON.stringify({ query, variables }), key: undefined });
    replace(intro, t('codeIntro', { endpoint, download }));
    graphiql.setAttribute('href', `${graphiqlLink(query)}&variables=${encodeURIComponent(JSON.stringify(variables))}`);
    status.textContent = '';
  };
  choice.addEventListener('change', redraw);
  const element = h(
    'div',
    { class: 'code-panel' },
    intro,
    h('div', { class: 'controls' }, field(t('codeLanguage'), choice)),
    pre,
    h(
      'p',
      { class: 'actions' },
      copyButton(() => code.textContent ?? '', status, t('copy'), t('copied')),
      status,
      graphiql,
    ),
  );
  redraw();
  return { element, redraw };
}
