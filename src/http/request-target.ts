/**
 * What a request must look like before any handler reads it (RFC 9112 §3.2, RFC 9110 §7.2). Yoga builds its URL
 * from `Host` + the target and reads GraphQL parameters after the first `?` of the whole string, while node and
 * our hot path read the target alone: a `Host` holding a path or a query (`h/graphql?query=…`), or a target that
 * is not a plain path (absolute-form, a backslash some parsers read as `/`), would make the two disagree about
 * what was asked. Both are refused with 400 before anything else looks at them, and so is a path whose
 * percent-encoding does not decode, which every handler that reads the path would otherwise meet on its own.
 */

// reg-name (letters, digits, -._~ and sub-delims but not the ones that start a path, query or userinfo),
// IPv4, or a bracketed IPv6 literal; then an optional port.
const HOST = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
// origin-form: an absolute path and an optional query. Visible ASCII only, as clients that do not percent-encode
// `{` or `"` in a GET query are common; but no backslash (read as `/` by WHATWG URL parsers), no fragment, and no
// `//` at the start (read as an authority).
const ORIGIN_FORM = /^\/(?![/\\])[!-~]*$/;
const FORBIDDEN_IN_TARGET = /[\\#]/;
const MAX_TARGET_LENGTH = 16 * 1024;

/** Why a request's target or Host is refused, or undefined when both are plain. */
export function requestTargetProblem(
  target: string | undefined,
  host: string | string[] | undefined,
): string | undefined {
  if (Array.isArray(host) && host.length > 1) return 'A request must carry exactly one Host header.';
  if (typeof host !== 'string' || !HOST.test(host)) return 'The Host header must be a plain host[:port].';
  if (
    target === undefined ||
    target.length > MAX_TARGET_LENGTH ||
    !ORIGIN_FORM.test(target) ||
    FORBIDDEN_IN_TARGET.test(target)
  ) {
    return 'The request target must be an absolute path with an optional query (origin-form).';
  }
  if (!decodablePath(target)) return 'The request target holds a malformed percent-encoding.';
  return undefined;
}

/** Whether the target's path (before any `?`) decodes: no lone `%`, and UTF-8 sequences that are whole. */
function decodablePath(target: string): boolean {
  const end = target.indexOf('?');
  const path = end === -1 ? target : target.slice(0, end);
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether an absolute URL's path is `path`, as `new URL(url).pathname` reads it: a URL whose text holds exactly the
 * path (nearly every request) is recognised without parsing it, which a hook run on every answer should not do;
 * any other is parsed, so a path with escapes is read as yoga reads it.
 */
export function isPathOf(url: string, path: string): boolean {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const end = url.indexOf('?', start);
  if (start !== -1 && url.slice(start, end === -1 ? undefined : end) === path) return true;
  return new URL(url).pathname === path;
}

/**
 * The path of a request target that passed `requestTargetProblem`, as `new URL(target, base).pathname` reads it:
 * the text before `?` as it is, unless it may hold a dot-segment (`/.`, or `%2e` escaped), which the URL parser
 * resolves, or a character it escapes in a path (`"<>\`{}`): only then is it parsed. So the route table finds a
 * request's route without a URL made for it.
 */
export function targetPathname(target: string): string {
  const end = target.indexOf('?');
  const path = end === -1 ? target : target.slice(0, end);
  return /\/\.|%2e|["<>`{}]/i.test(path) ? new URL(path, 'http://localhost').pathname : path;
}
