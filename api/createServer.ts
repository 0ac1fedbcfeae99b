// The HTTP front (uWebSockets.js): /v1 routes over the memory-mapped state. Every answer is JSON; every error
// is { "error": text } (api/errorTexts.ts). Per key: 600 requests a minute and 4 in flight (2 streams), 429 with
// Retry-After beyond. The native binary must load: the JS fallback is refused, not tolerated.
import uWS from 'uWebSockets.js';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { ApiError } from './apiError.js';
import { bearerChallenge, ERROR, inFlightError, rateLimitError } from './errorTexts.js';
import { acceptsGzip } from './acceptsGzip.js';
import { createInFlightLimiter } from './limits/createInFlightLimiter.js';
import { createRateLimiter } from './limits/createRateLimiter.js';
import type { RouteContext } from './routeContext.js';
import { closedPositionsRoute } from './routes/closedPositionsRoute.js';
import { healthRoute } from './routes/healthRoute.js';
import { walletPositionsRoute } from './routes/walletPositionsRoute.js';
import { walletTradesRoute } from './routes/walletTradesRoute.js';
import { marketTradersRoute } from './routes/marketTradersRoute.js';
import { topTradersRoute } from './routes/topTradersRoute.js';
import { holderLinesRoute } from './routes/holderLinesRoute.js';
import { tradeCountsRoute } from './routes/tradeCountsRoute.js';
import { marketTradesRoute } from './routes/marketTradesRoute.js';
import { fillsFeedRoute } from './routes/fillsFeedRoute.js';
import { createEventHeatRoute } from './routes/eventHeatRoute.js';
import { walletStatsRoute } from './routes/walletStatsRoute.js';
import { walletProfilesRoute } from './routes/walletProfilesRoute.js';
import { walletTagsRoute } from './routes/walletTagsRoute.js';
import { createCryptoStrikesRoute } from './routes/cryptoStrikesRoute.js';
import { createRoundIndex } from './strikes/roundIndex.js';
import { walletCategoriesRoute } from './routes/walletCategoriesRoute.js';
import { createLeaderboardRoute } from './routes/leaderboardRoute.js';
import { createBoardRankings } from './board/boardRankings.js';
import { sendStream, StreamedAnswer } from './sendStream.js';
import { answerEtag, encodeAnswer, sendAnswer, sendError, sendNotModified } from './sendAnswer.js';
import { createAnswerCache } from './answerCache.js';
import { createKeyCheck } from './createKeyCheck.js';
import { listenError } from './listenError.js';
import { openApiDocument, type RouteDoc } from './openApiDocument.js';
import { routeDocs } from './routeDocs.js';
import { compileQuery, type QueryValues } from './query/queryParams.js';

export interface Server {
  port: number;
  close(): void;
}

const MAX_URL_CHARS = 16_384;
const MAX_HEADER_BYTES = 8192;
/** uSockets' LIBUS_LISTEN_EXCLUSIVE_PORT. */
const LISTEN_EXCLUSIVE_PORT = 1;

/** Runs a uWS handler's body. Nothing may escape a uWS handler: an exception there ends the process. */
function guard(res: HttpResponse, run: () => void): void {
  try {
    run();
  } catch (error) {
    console.error(error);
    try {
      sendError(res, 500, ERROR.internal);
    } catch {
      // The answer was already written (a finished response refuses further writes): nothing more to send.
    }
  }
}

/** The request's header names and values, summed (uWS itself accepts far larger headers). */
function headerBytes(req: HttpRequest): number {
  let bytes = 0;
  req.forEach((name, value) => { bytes += name.length + value.length + 4; });
  return bytes;
}

function assertNativeUws(): void {
  const loaded = (process.report.getReport() as { sharedObjects?: string[] }).sharedObjects ?? [];
  if (!loaded.some((path) => path.includes('uws_'))) {
    throw new Error('uWebSockets.js native binary did not load (JS fallback in use); refusing to serve');
  }
}

function unauthorized(res: HttpResponse, req: HttpRequest): void {
  sendError(res, 401, ERROR.unauthorized, { 'www-authenticate': bearerChallenge(req.getHeader('authorization') !== '') });
}

/** If-None-Match (RFC 9110 13.1.2): `*` or a list of entity tags, weak ones compared weakly. */
function matchesEtag(header: string, etag: string): boolean {
  if (header === '') return false;
  return header.split(',').some((entry) => {
    const tag = entry.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

function bearerKey(req: HttpRequest): string {
  const header = req.getHeader('authorization');
  return header.startsWith('Bearer ') ? header.slice(7).trim() : '';
}

/** What a route handler sees: the request's parts, read before the handler runs (uWS requests die after). */
export interface RouteRequest {
  parameters: string[];
  /** The query, checked against the route's parameter schemas. */
  query: QueryValues;
}

export interface RouteDefinition {
  pattern: string;
  /** Bulk answers count against the per-key stream limit. */
  stream?: boolean;
  /** False for answers that change between folded blocks (health's source head); others are cached per block. */
  cached?: boolean;
  /** Answers carry an ETag and a request whose If-None-Match names it gets 304 (the tags run, spec 4.10). */
  etag?: boolean;
  doc: RouteDoc;
  handle(request: RouteRequest): unknown;
}

export function createServer(ctx: RouteContext, options: { host: string; port: number; now?: () => number }): Promise<Server> {
  assertNativeUws();
  const now = options.now ?? Date.now;
  const app: TemplatedApp = uWS.App();
  const rate = createRateLimiter();
  // Only the API benchmark lifts the per-key limits: its 32 connections share one key, and the load would stop
  // at 600 requests.
  const rateLimited = process.env.TALLY_BENCH_NO_RATE_LIMIT !== '1';
  const inFlight = createInFlightLimiter();
  const inFlightText = inFlightError(inFlight.maxRequests, inFlight.maxStreams);
  const answers = createAnswerCache();
  const checkKey = createKeyCheck(ctx.offchain);
  const limitText = String(rate.limit);
  const unlimited = { allowed: true, remaining: rate.limit, retryAfterSeconds: 0 };
  /** The off-chain revision as of now (the key check goes stale when it moves). */
  const refreshedRevision = () => {
    ctx.reads.refresh();
    return ctx.reads.offchainRevision();
  };

  const serve = (route: RouteDefinition, parameterCount: number) => (res: HttpResponse, req: HttpRequest) =>
    guard(res, () => handle(route, parameterCount, res, req));

  const handle = (route: RouteDefinition, parameterCount: number, res: HttpResponse, req: HttpRequest) => {
    const url = req.getUrl();
    const query = req.getQuery() ?? '';
    if (url.length + query.length > MAX_URL_CHARS) return sendError(res, 414, ERROR.urlTooLong);
    if (headerBytes(req) > MAX_HEADER_BYTES) return sendError(res, 431, ERROR.headersTooLarge);
    if (req.getHeader('content-length') !== '' && req.getHeader('content-length') !== '0') return sendError(res, 400, ERROR.bodyNotAccepted);
    if (req.getHeader('transfer-encoding') !== '') return sendError(res, 400, ERROR.bodyNotAccepted);
    const generation = ctx.reads.refresh();
    const keyId = checkKey(bearerKey(req), ctx.reads.offchainRevision());
    if (keyId === null) return unauthorized(res, req);
    // Concurrency first: a request refused for it does not count against the minute.
    const stream = route.stream ?? false;
    if (rateLimited && !inFlight.enter(keyId, stream)) return sendError(res, 429, inFlightText, { 'retry-after': '1' });
    const decision = rateLimited ? rate.take(keyId, now()) : unlimited;
    if (!decision.allowed) {
      inFlight.leave(keyId, stream);
      return sendError(res, 429, rateLimitError(decision.retryAfterSeconds), { 'retry-after': String(decision.retryAfterSeconds) });
    }
    const gzipAccepted = acceptsGzip(req.getHeader('accept-encoding'));
    const cacheKey = route.cached === false ? null : `${url}?${query}`;
    let answer = cacheKey === null ? undefined : answers.get(generation, cacheKey);
    let status = 200;
    let streamed: StreamedAnswer | null = null;
    if (!answer) {
      const parameters = Array.from({ length: parameterCount }, (_, i) => req.getParameter(i) ?? '');
      try {
        const result = route.handle({ parameters, query: queryOf.get(route)!(query) });
        if (result instanceof StreamedAnswer) streamed = result;
        else {
          answer = encodeAnswer(result);
          if (route.etag) answer.etag = answerEtag(answer.json);
          if (cacheKey !== null) answers.set(generation, cacheKey, answer);
        }
      } catch (error) {
        if (error instanceof ApiError) status = error.status;
        else {
          console.error(error);
          status = 500;
        }
        answer = encodeAnswer({ error: status === 500 ? ERROR.internal : (error as Error).message });
      }
    }
    const headers: Record<string, string> | null = status === 200 ? { 'x-ratelimit-limit': limitText, 'x-ratelimit-remaining': String(decision.remaining) } : null;
    if (headers !== null && answer?.etag !== undefined) {
      headers.etag = answer.etag;
      if (matchesEtag(req.getHeader('if-none-match'), answer.etag)) {
        if (rateLimited) inFlight.leave(keyId, stream);
        return sendNotModified(res, headers);
      }
    }
    // The slot goes back exactly once, whether the answer is written now, later, or an exception intervenes.
    let held = rateLimited;
    const done = () => {
      if (held) inFlight.leave(keyId, stream);
      held = false;
    };
    if (streamed !== null) {
      try {
        return sendStream(res, headers!, streamed, gzipAccepted, done);
      } catch (error) {
        done();
        throw error;
      }
    }
    const cached = answer!;
    try {
      const written = sendAnswer(res, status, headers, cached, gzipAccepted, () => ({
        done,
        madeGzip: status === 200 && cacheKey !== null ? (gzip) => answers.setGzip(generation, cacheKey, cached, gzip) : undefined,
      }));
      if (written) done();
    } catch (error) {
      done();
      throw error;
    }
  };

  const routes: RouteDefinition[] = [
    { pattern: '/v1/wallets/tags', etag: true, doc: routeDocs.walletTags, handle: () => walletTagsRoute(ctx) },
    { pattern: '/v1/health', cached: false, doc: routeDocs.health, handle: () => healthRoute(ctx) },
    { pattern: '/v1/wallets/:wallet/positions', doc: routeDocs.walletPositions, handle: (request) => walletPositionsRoute(ctx, request) },
    { pattern: '/v1/wallets/:wallet/closed-positions', doc: routeDocs.closedPositions, handle: (request) => closedPositionsRoute(ctx, request) },
    { pattern: '/v1/wallets/:wallet/trades', doc: routeDocs.walletTrades, handle: (request) => walletTradesRoute(ctx, request) },
    { pattern: '/v1/markets/:conditionId/traders', doc: routeDocs.marketTraders, handle: (request) => marketTradersRoute(ctx, request) },
    { pattern: '/v1/markets/:conditionId/top-traders', doc: routeDocs.topTraders, handle: (request) => topTradersRoute(ctx, request) },
    { pattern: '/v1/markets/:conditionId/holder-lines', doc: routeDocs.holderLines, handle: (request) => holderLinesRoute(ctx, request) },
    { pattern: '/v1/markets/:conditionId/trade-counts', doc: routeDocs.tradeCounts, handle: (request) => tradeCountsRoute(ctx, request) },
    { pattern: '/v1/markets/:conditionId/trades', doc: routeDocs.marketTrades, handle: (request) => marketTradesRoute(ctx, request) },
    { pattern: '/v1/fills', stream: true, cached: false, doc: routeDocs.fillsFeed, handle: (request) => fillsFeedRoute(ctx, request) },
    { pattern: '/v1/events/heat', doc: routeDocs.eventHeat, handle: createEventHeatRoute(ctx) },
    { pattern: '/v1/wallets/:wallet/stats', doc: routeDocs.walletStats, handle: (request) => walletStatsRoute(ctx, request) },
    { pattern: '/v1/wallets/:wallet/categories', doc: routeDocs.walletCategories, handle: (request) => walletCategoriesRoute(ctx, request) },
    { pattern: '/v1/wallets/profiles', doc: routeDocs.walletProfiles, handle: (request) => walletProfilesRoute(ctx, request) },
    { pattern: '/v1/crypto/strikes', doc: routeDocs.cryptoStrikes, handle: createCryptoStrikesRoute(ctx, createRoundIndex(ctx.offchain)) },
    { pattern: '/v1/leaderboard', doc: routeDocs.leaderboard, handle: createLeaderboardRoute(ctx, createBoardRankings(ctx.state)) },
  ];
  const document = openApiDocument(routes, ctx.version);
  routes.push({ pattern: '/v1/openapi.json', doc: routeDocs.openApi, handle: () => document });
  const queryOf = new Map(routes.map((route) => [route, compileQuery(route.doc.query)]));
  for (const route of routes) app.get(route.pattern, serve(route, (route.pattern.match(/:/g) ?? []).length));
  // Anything else: the size limits first, then 405 for other methods, 401 without a valid key (what exists is
  // not shown to anyone without one), else 404.
  app.any('/*', (res, req) => guard(res, () => {
    if (req.getUrl().length + (req.getQuery() ?? '').length > MAX_URL_CHARS) return sendError(res, 414, ERROR.urlTooLong);
    if (headerBytes(req) > MAX_HEADER_BYTES) return sendError(res, 431, ERROR.headersTooLarge);
    if (req.getMethod() !== 'get') return sendError(res, 405, ERROR.methodNotAllowed, { allow: 'GET' });
    if (checkKey(bearerKey(req), refreshedRevision()) === null) return unauthorized(res, req);
    sendError(res, 404, ERROR.notFound);
  }));
  return new Promise((resolve, reject) => {
    // Exclusive: without it uWS sets SO_REUSEPORT, and a second server on a port in use shares its traffic
    // instead of failing. (The typings lack this overload.)
    const listen = app.listen as unknown as (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => void;
    listen.call(app, options.host, options.port, LISTEN_EXCLUSIVE_PORT, (socket) => {
      if (!socket) return void listenError(options.host, options.port).then(reject);
      resolve({
        port: uWS.us_socket_local_port(socket),
        // close() exists at run time but not in the typings (toolchain.md).
        close: () => (app as unknown as { close(): void }).close(),
      });
    });
  });
}
