// The pages' answers (issue 25): the shells at /, /wallet/{wallet}, /market/{conditionId} and /docs, and their
// files at /assets/{name}. None needs a key: they hold no data, and every figure a page shows comes from the /v1
// answers the page asks for with the key kept in the browser. Files are revalidated (no-cache, ETag, 304), so a
// new version is seen at once; a gzip goes to a client that accepts it once it is made.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { acceptsGzip } from '../transport/contentCoding.js';
import { ERROR } from '../errorTexts.js';
import { matchesEtag } from '../transport/matchesEtag.js';
import { answerEtag, sendError, sendFile, sendNotModified, type Headers } from '../transport/sendAnswer.js';
import { LIBRARY_FILES, readPageAssets, type PageAsset } from './pageAssets.js';
import { appShell, docsShell, PAGE_POLICY } from './pageShell.js';

export const PAGE_PATHS = { app: ['/', '/wallet/:wallet', '/market/:conditionId'], docs: ['/docs'] };

export interface Pages {
  /** Writes the shell of `kind`; returns the status. */
  page(kind: 'app' | 'docs', res: HttpResponse, req: HttpRequest, head: boolean): number;
  /** Writes the file the request names; returns the status. */
  asset(res: HttpResponse, req: HttpRequest, head: boolean): number;
}

function shellAsset(body: Buffer): PageAsset {
  return { type: 'text/html; charset=utf-8', body, etag: answerEtag(body), gzip: null };
}

function send(res: HttpResponse, req: HttpRequest, file: PageAsset, extra: Headers, head: boolean): number {
  const headers: Headers = {
    etag: file.etag,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    ...extra,
  };
  if (matchesEtag(req.getHeader('if-none-match'), file.etag)) {
    sendNotModified(res, headers);
    return 304;
  }
  const gzipped = file.gzip !== null && acceptsGzip(req.getHeader('accept-encoding'));
  sendFile(res, file.type, headers, gzipped ? file.gzip! : file.body, gzipped, head);
  return 200;
}

export function createPages(): Pages {
  const assets = readPageAssets();
  const modules = [...assets.keys()].filter(
    (name) => name.endsWith('.js') && name !== 'docs.js' && !Object.hasOwn(LIBRARY_FILES, name),
  );
  const shells = { app: shellAsset(appShell(modules)), docs: shellAsset(docsShell()) };
  const policy = { 'content-security-policy': PAGE_POLICY, 'referrer-policy': 'no-referrer' };
  return {
    page: (kind, res, req, head) => send(res, req, shells[kind], policy, head),
    asset(res, req, head) {
      const file = assets.get(req.getParameter(0) ?? '');
      if (file === undefined) {
        sendError(res, 404, ERROR.notFound, null, head);
        return 404;
      }
      return send(res, req, file, {}, head);
    },
  };
}
