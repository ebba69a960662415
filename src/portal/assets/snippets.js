// A ready-to-run request in the languages app developers use: curl, JavaScript, Python, Kotlin and Swift, each
// complete (address, headers, body), so that what is copied runs as pasted. The key is shown shortened on the page
// and copied whole: a screen share or a screenshot does not leak it (the page says so once, where it shows them:
// t('snippetKeyHelp')).
import { GRAPHQL_PATH } from './api.js';
import { h, replace, uid } from './dom.js';
import { t } from './i18n.js';

/** @typedef {'curl' | 'javascript' | 'python' | 'kotlin' | 'swift'} SnippetLanguage */

/** @type {[SnippetLanguage, string][]} */
const LANGUAGES = [
  ['curl', 'curl'],
  ['javascript', 'JavaScript'],
  ['python', 'Python'],
  ['kotlin', 'Kotlin'],
  ['swift', 'Swift'],
];

/** The GraphQL endpoint as the browser reaches it: the server's real address, whatever proxy is in front. */
export function graphqlUrl() {
  return new URL(GRAPHQL_PATH, location.origin).href;
}

/** @param {string} text text for a shell's single quotes */
function shellQuoted(text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The request in one language.
 * @param {SnippetLanguage} lang
 * @param {{ url: string, body: string, key: string | undefined }} request
 */
export function snippet(lang, { url, body, key }) {
  const auth = key === undefined ? null : `Bearer ${key}`;
  switch (lang) {
    case 'curl':
      // The body over several lines (JSON allows it between tokens, the shell inside single quotes), to be read.
      return [
        `curl -sS ${shellQuoted(url)} \\`,
        `  -H 'Content-Type: application/json' \\`,
        ...(auth === null ? [] : [`  -H ${shellQuoted(`Authorization: ${auth}`)} \\`]),
        `  --data-raw ${shellQuoted(JSON.stringify(JSON.parse(body), null, 2))}`,
      ].join('\n');
    case 'javascript':
      return [
        '// Node.js 18+ (save as request.mjs) or Deno',
        `const response = await fetch(${JSON.stringify(url)}, {`,
        "  method: 'POST',",
        `  headers: { 'Content-Type': 'application/json'${auth === null ? '' : `, Authorization: ${JSON.stringify(auth)}`} },`,
        `  body: JSON.stringify(${body}),`,
        '});',
        'console.log(JSON.stringify(await response.json(), null, 2));',
      ].join('\n');
    case 'python':
      return [
        '# Python 3, standard library only',
        'import json',
        'import urllib.request',
        '',
        'request = urllib.request.Request(',
        `    ${JSON.stringify(url)},`,
        `    data=${JSON.stringify(body)}.encode("utf-8"),`,
        `    headers={"Content-Type": "application/json"${auth === null ? '' : `, "Authorization": ${JSON.stringify(auth)}`}},`,
        ')',
        'with urllib.request.urlopen(request) as response:',
        '    print(json.dumps(json.load(response), ensure_ascii=False, indent=2))',
      ].join('\n');
    case 'kotlin':
      return [
        '// Kotlin on the JVM 11+ (java.net.http), no library needed',
        'import java.net.URI',
        'import java.net.http.HttpClient',
        'import java.net.http.HttpRequest',
        'import java.net.http.HttpResponse',
        '',
        'fun main() {',
        `    val body = """${body.replaceAll('$', "${'$'}")}"""`,
        `    val request = HttpRequest.newBuilder(URI.create(${JSON.stringify(url)}))`,
        '        .header("Content-Type", "application/json")',
        ...(auth === null ? [] : [`        .header("Authorization", ${JSON.stringify(auth)})`]),
        '        .POST(HttpRequest.BodyPublishers.ofString(body))',
        '        .build()',
        '    val response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString())',
        '    println(response.body())',
        '}',
      ].join('\n');
    case 'swift':
      return [
        '// Swift 5.7+ (macOS 12, iOS 15), Foundation only',
        'import Foundation',
        '#if canImport(FoundationNetworking)',
        'import FoundationNetworking',
        '#endif',
        '',
        `var request = URLRequest(url: URL(string: ${JSON.stringify(url)})!)`,
        'request.httpMethod = "POST"',
        'request.setValue("application/json", forHTTPHeaderField: "Content-Type")',
        ...(auth === null ? [] : [`request.setValue(${JSON.stringify(auth)}, forHTTPHeaderField: "Authorization")`]),
        `request.httpBody = Data(#"${body}"#.utf8)`,
        'let (data, _) = try await URLSession.shared.data(for: request)',
        'print(String(decoding: data, as: UTF8.self))',
      ].join('\n');
  }
}

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
  const buttons = LANGUAGES.map(([lang, name]) =>
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
