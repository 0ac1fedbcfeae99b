// The HTML of the pages. One shell serves the board, wallet and market pages: its app module reads the path and
// draws the page. Another serves the API reference. Libraries resolve through the import map (no bundler, no build
// step). Every module is preloaded, so the browser fetches them all at once instead of import by import.
import { createHash } from 'node:crypto';
import { BOARD_CATEGORIES } from '../../engine/rollup/boardCategories.js';
import { BOARD_SORTS } from '../board/boardRankings.js';
import { BOARD_PERIODS } from '../board/boardWindow.js';

const IMPORT_MAP = JSON.stringify({
  imports: {
    preact: '/assets/preact.mjs',
    'preact/hooks': '/assets/preact-hooks.mjs',
    htm: '/assets/htm.mjs',
    uplot: '/assets/uPlot.esm.js',
  },
});

/**
 * What the pages may load: their own server's files and answers, nothing from elsewhere (a market's image URL
 * included). The import map is the one inline script, allowed by its hash; styles may be set inline (uPlot and
 * the API viewer set them), images may be data: URLs (the viewer's icons).
 */
export const PAGE_POLICY = [
  "default-src 'self'",
  `script-src 'self' 'sha256-${createHash('sha256').update(IMPORT_MAP).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The import map comes before every module and preload: one added after a module load started is refused. */
function head(title: string, styles: string[], preloads: string[], importMap: boolean): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    '<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">',
    ...styles.map((name) => `<link rel="stylesheet" href="/assets/${name}">`),
    ...(importMap ? [`<script type="importmap">${IMPORT_MAP}</script>`] : []),
    ...preloads.map((name) => `<link rel="modulepreload" href="/assets/${name}">`),
  ].join('\n');
}

/**
 * What the pages choose from, as the server knows it (api/pages/web/serverChoices.js reads it): a data block, not
 * a script, so the policy needs no exception for it. `<` is escaped so no text can close the element.
 */
const CHOICES = JSON.stringify({ categories: BOARD_CATEGORIES, periods: BOARD_PERIODS, sorts: BOARD_SORTS }).replaceAll(
  '<',
  '\\u003c',
);

/** The board, wallet and market pages: `modules` are the app's own (every .js in api/pages/web but docs.js). */
export function appShell(modules: string[]): Buffer {
  return Buffer.from(
    [
      head(
        'tally',
        ['tally.css', 'uPlot.min.css'],
        ['preact.mjs', 'preact-hooks.mjs', 'htm.mjs', 'uPlot.esm.js', ...modules],
        true,
      ),
      '<script type="module" src="/assets/main.js"></script>',
      `<script type="application/json" id="server-choices">${CHOICES}</script>`,
      '</head>',
      '<body><div id="app"></div></body>',
      '</html>',
      '',
    ].join('\n'),
  );
}

/** /docs: the API reference, drawn from /v1/openapi.json by Swagger UI. */
export function docsShell(): Buffer {
  return Buffer.from(
    [
      head('tally API reference', ['tally.css', 'swagger-ui.css'], ['docs.js', 'api.js'], false),
      '<script src="/assets/swagger-ui-bundle.js" defer></script>',
      '<script type="module" src="/assets/docs.js"></script>',
      '</head>',
      '<body><header class="bar"><a class="brand" href="/">tally</a><nav><a href="/">Board</a></nav></header>',
      '<div id="app"></div></body>',
      '</html>',
      '',
    ].join('\n'),
  );
}
