// The files the pages are made of, read once at start-up (a request never names a path on disk): the pages' own
// modules, styles and icon (api/pages/web/, flat) and, from node_modules, the libraries they import through the
// import map and the API reference viewer. Each is served under /assets/ by its name, with an ETag; its gzip is
// made off the event loop at start-up and used once made. A file missing or of no known type stops the server at
// start with one line naming it (an install that went wrong, a file dropped into web/), never on a request.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzip } from 'node:zlib';
import { EnvironmentError } from '../../engine/environmentError.js';
import { answerEtag } from '../transport/sendAnswer.js';

export interface PageAsset {
  type: string;
  body: Buffer;
  etag: string;
  /** Null until made, and for files too small to gain from it. */
  gzip: Buffer | null;
}

/** Served name -> [package, file in the package]. */
export const LIBRARY_FILES: Record<string, [string, string]> = {
  'preact.mjs': ['preact', 'dist/preact.mjs'],
  'preact-hooks.mjs': ['preact', 'hooks/dist/hooks.mjs'],
  'htm.mjs': ['htm', 'dist/htm.mjs'],
  'uPlot.esm.js': ['uplot', 'dist/uPlot.esm.js'],
  'uPlot.min.css': ['uplot', 'dist/uPlot.min.css'],
  'swagger-ui-bundle.js': ['swagger-ui-dist', 'swagger-ui-bundle.js'],
  'swagger-ui.css': ['swagger-ui-dist', 'swagger-ui.css'],
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};
const GZIP_MIN_BYTES = 1024;

/**
 * The sources' web folder, in the package above this file: run from the build in dist/ (cli/build.mjs compiles
 * only TypeScript) too, so an edit is served without a rebuild.
 */
function webDir(): string {
  for (let dir = new URL('.', import.meta.url); dir.pathname !== '/'; dir = new URL('..', dir)) {
    const web = new URL('api/pages/web/', dir);
    if (existsSync(web)) return fileURLToPath(web);
  }
  throw new EnvironmentError(`pages: no api/pages/web above ${fileURLToPath(import.meta.url)}: reinstall tally`);
}

/** A package's folder, found the way Node finds the package (its `exports` may hide package.json). */
function packageDir(name: string): string {
  const require = createRequire(import.meta.url);
  const dir = (require.resolve.paths(name) ?? [])
    .map((modules) => join(modules, name))
    .find((candidate) => existsSync(join(candidate, 'package.json')));
  if (dir === undefined) throw new EnvironmentError(`pages: the package ${name} is not installed (npm install)`);
  return dir;
}

function asset(path: string): PageAsset {
  const type = TYPES[extname(path)];
  if (type === undefined) {
    throw new EnvironmentError(
      `pages: ${path} is not a page asset (.js, .mjs, .css or .svg): move it out of the folder`,
    );
  }
  let body: Buffer;
  try {
    body = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new EnvironmentError(`pages: cannot read ${path} (${code})`);
  }
  return { type, body, etag: answerEtag(body), gzip: null };
}

/** `web`: the folder of the pages' own files (the sources', by default). */
export function readPageAssets(web = webDir()): Map<string, PageAsset> {
  const assets = new Map<string, PageAsset>();
  for (const name of readdirSync(web).sort()) assets.set(name, asset(join(web, name)));
  for (const [name, [pkg, file]] of Object.entries(LIBRARY_FILES)) assets.set(name, asset(join(packageDir(pkg), file)));
  for (const entry of assets.values()) {
    if (entry.body.length < GZIP_MIN_BYTES) continue;
    gzip(entry.body, (error, made) => {
      if (!error) entry.gzip = made;
    });
  }
  return assets;
}
