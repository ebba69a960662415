import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GRAPHIQL_DEFAULT_QUERY, GRAPHIQL_TABS } from './graphiql-examples.js';

/**
 * GraphiQL's tab bar keeps a stale offset in each pre-loaded tab's inline transform (left by the reordering
 * animation when the tabs mount) and hides it with `.graphiql-tab:not(:focus-within) { transform: none }`. Pressing
 * a tab focuses it, the offset applies, the tab jumps away from under the pointer, and the click lands on the bar:
 * every pre-loaded tab needed two clicks in Chromium. Keeping tabs in place always makes one click enough; the cost
 * is that a tab being dragged to another place does not follow the pointer (it still moves when dropped).
 */
const ONE_CLICK_TABS = '<style>.graphiql-tab { transform: none !important; }</style>';

/** An SVG icon of a few hundred bytes in place of yoga's default, a 150 KB base64 .ico inlined in the page. */
const FAVICON =
  'data:image/svg+xml,' +
  encodeURIComponent(
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='6' fill='#e535ab'/>" +
      "<path d='M8 24V13M16 24V8M24 24V17' stroke='#fff' stroke-width='4' stroke-linecap='round'/></svg>",
  );

/**
 * GraphiQL's page as this server serves it: its title, default query and tabs (graphiql-examples.ts), a small icon.
 * The renderer inlines GraphiQL's scripts and styles (about 9 MB), so the page works with no internet. The build
 * renders it once into dist/ (scripts/graphiql-page-build.ts); a server running from source renders it here, once.
 */
export function renderGraphiQLPage(): string {
  return renderGraphiQL({
    title: 'thai-edu-graphql: สถิติการศึกษา',
    favicon: FAVICON,
    defaultQuery: GRAPHIQL_DEFAULT_QUERY,
    defaultTabs: GRAPHIQL_TABS,
  }).replace('</head>', `${ONE_CLICK_TABS}</head>`);
}
