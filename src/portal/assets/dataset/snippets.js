// Ready-to-run requests for a dataset's records as filtered on its page, in the languages app developers use: the
// real address of this server's GraphQL endpoint, the dataset's code, the page's filters and order as variables.
// Each is copied and run as it is (no key: datasets are public).

/** The languages offered, in the order shown. */
export const LANGUAGES = /** @type {const} */ (['curl', 'JavaScript', 'Python', 'Kotlin', 'Swift']);

/** @typedef {(typeof LANGUAGES)[number]} SnippetLanguage */

/**
 * The GraphQL document the snippets send.
 * @param {string} code
 * @param {number} first
 */
export function recordsQuery(code, first) {
  return `query DatasetRecords($where: [RecordFilter!], $orderBy: [RecordOrder!]) {
  dataset(code: ${code}) {
    records(first: ${first}, where: $where, orderBy: $orderBy) {
      totalCount
      edges { node }
    }
  }
}`;
}

/** @param {string} text */
const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A request in one language.
 * @param {SnippetLanguage} language
 * @param {{ endpoint: string, query: string, variables: Record<string, unknown> }} request
 */
export function snippet(language, { endpoint, query, variables }) {
  const body = JSON.stringify({ query, variables });
  const pretty = JSON.stringify({ query, variables }, null, 2);
  switch (language) {
    case 'curl':
      return [
        `curl -sS ${shellQuote(endpoint)} \\`,
        `  -H 'content-type: application/json' \\`,
        `  --data-raw ${shellQuote(body)}`,
      ].join('\n');
    case 'JavaScript':
      return [
        '// Node.js 18+ or a browser: save as records.mjs, run with `node records.mjs`',
        `const body = ${pretty};`,
        `const response = await fetch(${JSON.stringify(endpoint)}, {`,
        "  method: 'POST',",
        "  headers: { 'content-type': 'application/json' },",
        '  body: JSON.stringify(body),',
        '});',
        'const { data, errors } = await response.json();',
        'if (errors) throw new Error(errors[0].message);',
        'console.log(data.dataset.records.totalCount, data.dataset.records.edges.map((edge) => edge.node));',
      ].join('\n');
    case 'Python':
      return [
        '# Python 3, standard library only: python3 records.py',
        'import json',
        'import urllib.request',
        '',
        `body = json.loads(${pythonString(body)})`,
        'request = urllib.request.Request(',
        `    ${JSON.stringify(endpoint)},`,
        '    data=json.dumps(body).encode("utf-8"),',
        '    headers={"content-type": "application/json"},',
        ')',
        'with urllib.request.urlopen(request) as response:',
        '    answer = json.load(response)',
        'if "errors" in answer:',
        '    raise SystemExit(answer["errors"][0]["message"])',
        'records = answer["data"]["dataset"]["records"]',
        'print(records["totalCount"])',
        'for edge in records["edges"]:',
        '    print(edge["node"])',
      ].join('\n');
    case 'Kotlin':
      return [
        '// Kotlin/JVM 11+, no library: kotlinc records.kt -include-runtime -d records.jar && java -jar records.jar',
        'import java.net.URI',
        'import java.net.http.HttpClient',
        'import java.net.http.HttpRequest',
        'import java.net.http.HttpResponse',
        '',
        'fun main() {',
        `    val body = """${body.replace(/\$/g, () => "${'$'}")}"""`,
        `    val request = HttpRequest.newBuilder(URI.create(${JSON.stringify(endpoint)}))`,
        '        .header("content-type", "application/json")',
        '        .POST(HttpRequest.BodyPublishers.ofString(body))',
        '        .build()',
        '    val response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString())',
        '    println(response.body())',
        '}',
      ].join('\n');
    case 'Swift':
      return [
        '// Swift 5.7+ (macOS 12+, iOS 15+, Linux with FoundationNetworking): swift records.swift',
        'import Foundation',
        '#if canImport(FoundationNetworking)',
        'import FoundationNetworking',
        '#endif',
        '',
        `let body = ##"${body}"##`,
        `var request = URLRequest(url: URL(string: ${JSON.stringify(endpoint)})!)`,
        'request.httpMethod = "POST"',
        'request.setValue("application/json", forHTTPHeaderField: "content-type")',
        'request.httpBody = body.data(using: .utf8)',
        'let (data, _) = try await URLSession.shared.data(for: request)',
        'print(String(decoding: data, as: UTF8.self))',
      ].join('\n');
  }
}

/**
 * A Python string literal of `text`: a raw triple-quoted string when it can be, else an escaped one.
 * @param {string} text
 */
function pythonString(text) {
  return text.includes("'''") || text.endsWith('\\') ? JSON.stringify(text) : `r'''${text}'''`;
}
