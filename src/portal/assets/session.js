// Keys and operator tokens live in memory and this tab's sessionStorage (gone when the tab closes), or in
// localStorage only when the person asks to be remembered. They never go in a URL, a log or a cookie.

/** @typedef {'client' | 'operator'} Role */

const KEYS = { client: 'portal.clientKey', operator: 'portal.operatorToken' };

/** @param {Role} role @returns {string | undefined} */
export function credential(role) {
  return sessionStorage.getItem(KEYS[role]) ?? localStorage.getItem(KEYS[role]) ?? undefined;
}

/** @param {Role} role @returns {boolean} */
export function remembered(role) {
  return localStorage.getItem(KEYS[role]) !== null;
}

/**
 * @param {Role} role
 * @param {string} secret
 * @param {boolean} remember
 */
export function keep(role, secret, remember) {
  forget(role);
  (remember ? localStorage : sessionStorage).setItem(KEYS[role], secret);
}

/** @param {Role} role */
export function forget(role) {
  sessionStorage.removeItem(KEYS[role]);
  localStorage.removeItem(KEYS[role]);
}
