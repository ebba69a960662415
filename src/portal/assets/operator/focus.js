// Where the focus goes when a part of the operator page is drawn again.

const FOCUSABLE = 'button, input, textarea, select, a[href], [tabindex]';

/**
 * Where the focus is in `container`: the element marked with data-focus-key around it (a card, a notice, a table)
 * and its place among that element's focusable parts. Returns what puts it back on the same part after a redraw, as
 * a refresh (a request arriving, a decision made elsewhere) must not take the focus away from the operator.
 * @param {HTMLElement} container
 * @returns {() => void}
 */
export function rememberFocus(container) {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !container.contains(active)) return () => undefined;
  const marked = active.closest('[data-focus-key]');
  if (!(marked instanceof HTMLElement)) return () => undefined;
  const key = marked.dataset['focusKey'] ?? '';
  const parts = (/** @type {HTMLElement} */ element) =>
    [element, ...element.querySelectorAll(FOCUSABLE)].filter((part) => part.matches(FOCUSABLE));
  const index = parts(marked).indexOf(active);
  return () => {
    const again = [...container.querySelectorAll('[data-focus-key]')].find(
      (element) => element instanceof HTMLElement && element.dataset['focusKey'] === key,
    );
    if (!(again instanceof HTMLElement)) return;
    const part = parts(again)[index] ?? again;
    if (part instanceof HTMLElement) part.focus();
  };
}

/**
 * Moves the focus to an element that is not focusable by itself (a heading, a notice).
 * @param {Element | null | undefined} element
 */
export function focusOn(element) {
  if (!(element instanceof HTMLElement)) return;
  element.tabIndex = -1;
  element.focus();
}
