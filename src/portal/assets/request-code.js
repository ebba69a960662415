// A ready-to-run request in the languages app developers use: curl, JavaScript, Python, Kotlin and Swift, each
// complete (address, headers, body), so that what is copied runs as pasted. Written once, without the DOM, for the
// developer page's requests (snippets.js) and a dataset page's code panel (dataset/code-panel.js).

/** @typedef {'curl' | 'javascript' | 'python' | 'kotlin' | 'swift'} SnippetLanguage */

/** The languages offered, in the order shown, each with its name. @type {readonly [SnippetLanguage, string][]} */
export const SNIPPET_LANGUAGES = [
  ['curl', 'curl'],
  ['javascript', 'JavaScript'],
  ['python', 'Python'],
  ['kotlin', 'Kotlin'],
  ['swift', 'Swift'],
];

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
        // Kotlin's templates start at `$`; a function, since `$'` in a replacement string means something of its own.
        `    val body = """${body.replaceAll('$', () => "${'$'}")}"""`,
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
        `request.httpBody = Data(${swiftRawString(body)}.utf8)`,
        'let (data, _) = try await URLSession.shared.data(for: request)',
        'print(String(decoding: data, as: UTF8.self))',
      ].join('\n');
  }
}

/**
 * A Swift raw string literal of `text`, with as many #s as it takes that no `"#…` inside it ends the literal: a
 * filter's value is data anyone may have written.
 * @param {string} text
 */
function swiftRawString(text) {
  let hashes = '#';
  while (text.includes(`"${hashes}`)) hashes += '#';
  return `${hashes}"${text}"${hashes}`;
}
