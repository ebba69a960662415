// Pieces several pages use: headings, messages, form fields, status badges, a key shown once.
import { h, uid } from './dom.js';
import { language, t, tOf } from './i18n.js';

/** A polite live region: what changed without a reload is also said to screen readers. */
const announcer = h('div', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });

/** @param {string} text */
export function announce(text) {
  if (!announcer.isConnected) document.body.append(announcer);
  announcer.textContent = '';
  setTimeout(() => (announcer.textContent = text), 50);
}

/** An error message, read out at once. @param {unknown} error */
export function alertBox(error) {
  return h('p', { class: 'alert', role: 'alert' }, error instanceof Error ? error.message : String(error));
}

/**
 * A labelled form field. `control` is an input, select or textarea; its id ties it to the label.
 * @param {string} label
 * @param {HTMLElement} control
 * @param {string} [help]
 */
export function field(label, control, help) {
  const id = control.id || uid('field');
  control.id = id;
  let helpElement = null;
  if (help !== undefined) {
    helpElement = h('span', { class: 'help', id: `${id}-help` }, help);
    control.setAttribute('aria-describedby', helpElement.id);
  }
  return h('div', { class: 'field' }, h('label', { for: id }, label), helpElement, control);
}

/** A checkbox with its label after it. @param {string} label @param {HTMLInputElement} box */
export function checkbox(label, box) {
  box.id = box.id || uid('check');
  return h('div', { class: 'check' }, box, h('label', { for: box.id }, label));
}

/**
 * A summary endpoint's name for the reader: the upstream's Thai title, or its subject in English (the API has no
 * English title for them).
 * @param {{ title: string, subject: string }} endpoint
 */
export function summaryTitle(endpoint) {
  return language === 'th' ? endpoint.title : tOf('subjects', endpoint.subject);
}

/** The status of a request for use, coloured by status, labelled in the API's words. @param {string} status @param {string} label */
export function statusBadge(status, label) {
  return h('span', { class: `badge status-${status.toLowerCase()}`, 'data-status': status }, label);
}

/**
 * A secret shown once (a new API key), with a copy button and what to do with it.
 * @param {string} secret
 * @param {2 | 3} [level] its heading's level: 2 where it is the page's only content under the h1, 3 in a section
 */
export function keyOnce(secret, level = 3) {
  const copyState = h('span', { class: 'copy-state', role: 'status' });
  const value = h('input', {
    class: 'secret',
    readonly: true,
    value: secret,
    'aria-label': t('apiKey'),
    spellcheck: 'false',
    autocomplete: 'off',
  });
  const copy = h(
    'button',
    {
      type: 'button',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(secret);
        } catch {
          // No clipboard permission (plain http, an old browser): select it for Ctrl-C instead.
          /** @type {HTMLInputElement} */ (value).select();
          document.execCommand('copy');
        }
        copyState.textContent = t('copied');
      },
    },
    t('copy'),
  );
  return h(
    'div',
    { class: 'key-once', role: 'group', 'aria-labelledby': 'key-once-heading' },
    h(`h${level}`, { id: 'key-once-heading' }, t('keyOnceHeading')),
    h('div', { class: 'key-row' }, value, copy, copyState),
    h('p', {}, t('keyOnceHelp')),
    h('pre', { class: 'code' }, h('code', {}, 'Authorization: Bearer <API key>')),
    h('p', {}, t('keyOnceSecret')),
  );
}

/**
 * A section with a heading of the given level.
 * @param {string} title
 * @param {...import('./dom.js').Child} children
 */
export function section(title, ...children) {
  const id = uid('section');
  return h('section', { 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

/**
 * A button that is disabled while its action runs, with errors shown in `errors`.
 * @param {string} label
 * @param {() => Promise<void>} action
 * @param {HTMLElement} errors
 * @param {Record<string, unknown>} [attributes]
 */
export function actionButton(label, action, errors, attributes = {}) {
  const button = /** @type {HTMLButtonElement} */ (
    h(
      'button',
      {
        type: 'button',
        ...attributes,
        onclick: async () => {
          button.disabled = true;
          errors.replaceChildren();
          try {
            await action();
          } catch (error) {
            errors.append(alertBox(error));
          } finally {
            button.disabled = false;
          }
        },
      },
      label,
    )
  );
  return button;
}

/**
 * A form whose submit runs `action` (no page load; the browser's own validation first).
 * @param {(form: HTMLFormElement) => Promise<void>} action
 * @param {...import('./dom.js').Child} children
 */
export function form(action, ...children) {
  const errors = h('div', { class: 'errors' });
  const element = /** @type {HTMLFormElement} */ (
    h(
      'form',
      {
        novalidate: false,
        onsubmit: async (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          const submit = element.querySelector('button[type=submit]');
          if (submit instanceof HTMLButtonElement) submit.disabled = true;
          errors.replaceChildren();
          try {
            await action(element);
          } catch (error) {
            errors.append(alertBox(error));
          } finally {
            if (submit instanceof HTMLButtonElement) submit.disabled = false;
          }
        },
      },
      ...children,
      errors,
    )
  );
  return element;
}

/**
 * A table with a caption (for screen readers only with `hideCaption`, under a heading that says the same), header
 * cells and rows. With `stack`, each row becomes a block of labelled cells on a phone instead of scrolling sideways.
 * @param {string} caption
 * @param {string[]} heads
 * @param {import('./dom.js').Child[][]} rows
 * @param {{ hideCaption?: boolean, stack?: boolean }} [options]
 */
export function table(caption, heads, rows, options = {}) {
  return h(
    'div',
    { class: options.stack ? 'table-wrap stack' : 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption },
    h(
      'table',
      {},
      h('caption', { class: options.hideCaption ? 'visually-hidden' : null }, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          heads.map((head) => h('th', { scope: 'col' }, head)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((cells) =>
          h(
            'tr',
            {},
            cells.map((cell, index) => h('td', { 'data-label': heads[index] }, cell)),
          ),
        ),
      ),
    ),
  );
}

/** The first characters of a content hash, enough to tell versions apart. @param {string | null} version */
export function shortVersion(version) {
  return version === null ? t('notWatched') : version.slice(0, 10);
}

/**
 * A button that copies a text, saying so in `state` (a status element beside it); where the clipboard is refused
 * (plain http, an old browser) it selects the text of the focused field for Ctrl-C instead.
 * @param {() => string} text
 * @param {HTMLElement} state
 * @param {string} label
 * @param {string} done
 */
export function copyButton(text, state, label, done) {
  return h(
    'button',
    {
      type: 'button',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(text());
          state.textContent = done;
        } catch {
          state.textContent = '';
        }
      },
    },
    label,
  );
}

/**
 * What a dataset whose official title is its code (No. 13) is, in the reader's language: the catalogue's English
 * rendering, or our Thai one.
 * @param {{ code: string, titleEn: string }} dataset
 */
export function descriptiveTitle(dataset) {
  return language === 'th' ? tOf('descriptiveTitles', dataset.code) : dataset.titleEn;
}
