// Builds the page with DOM calls only. Text is always a text node, never parsed as markup: a client's name, a
// purpose or an operator's note cannot become an element or a script, whatever it contains.

/** @typedef {import('./dom-types').Child} Child */

/**
 * An element: `h('button', { type: 'button', onclick: f, class: 'primary' }, 'Save')`.
 * Properties starting with "on" become listeners; `null`, `undefined` and `false` attributes are left out.
 * @param {string} tag
 * @param {Record<string, string | number | boolean | null | undefined | Function>} [attributes]
 * @param {...Child} children
 * @returns {HTMLElement}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    } else if (typeof value === 'function') {
      throw new TypeError(`${name} is not an event`);
    } else if (name === 'value' && 'value' in element) {
      /** @type {HTMLInputElement} */ (element).value = String(value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

/**
 * @param {Element} parent
 * @param {Child[]} children
 */
export function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.append(typeof child === 'number' ? String(child) : child);
  }
}

/**
 * Replaces what `parent` holds.
 * @param {Element} parent
 * @param {...Child} children
 */
export function replace(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

const SVG = 'http://www.w3.org/2000/svg';

/**
 * An SVG element, attributes as for `h`.
 * @param {string} tag
 * @param {Record<string, string | number>} [attributes]
 * @param {...Element} children
 * @returns {SVGElement}
 */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return /** @type {SVGElement} */ (element);
}

let ids = 0;
/** A document-unique id for label/field pairs. @param {string} prefix */
export function uid(prefix) {
  ids += 1;
  return `${prefix}-${ids}`;
}
