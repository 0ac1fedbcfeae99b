// The HTTP front (uWebSockets.js): /v1 routes over the memory-mapped state, and /metrics. Every answer is JSON;
// every error is { "error": text } (api/errorTexts.ts). Per key (config.json may change the figures): 600 requests
// a minute and 4 in flight (2 streams), 429 with Retry-After beyond. GET and HEAD on every route, OPTIONS answered
// as a CORS preflight. Each request is counted for /metrics and, with an access log, logged once answered. The
// native binary must load: the JS fallback is refused, not tolerated.
import { EnvironmentError } from '../../engine/environmentError.js';
import uWS from 'uWebSockets.js';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { ApiError } from '../apiError.js';
import { bearerChallenge, ERROR, rateLimitError } from '../errorTexts.js';
import { acceptsGzip, answerCoding, type Coding } from '../transport/contentCoding.js';
import { createKeyPolicies, type KeyPolicy } from '../limits/createKeyPolicies.js';
import type { SharedCountersMemory } from '../limits/sharedKeyCounters.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../limits/loadRateLimits.js';
import type { RouteContext } from '../routeContext.js';
import { closedPositionsRoute } from '../routes/closedPositionsRoute.js';
import { readFoldLag } from '../readFoldLag.js';
import { healthRoute } from '../routes/healthRoute.js';
import { readyRoute } from '../routes/readyRoute.js';
import { DEFAULT_READINESS, type ReadinessLimits } from '../loadReadiness.js';
import { catchingUpText, catchUpRetryAfter } from '../readCatchUp.js';
import { walletPositionsRoute } from '../routes/walletPositionsRoute.js';
import { walletTradesRoute } from '../routes/walletTradesRoute.js';
import { marketRoute } from '../routes/marketRoute.js';
import { createMarketSearchRoute } from '../routes/marketSearchRoute.js';
import { createEventRoute } from '../routes/eventRoute.js';
import { createMarketTextIndex } from '../search/marketTextIndex.js';
import { createEventIndex } from '../search/eventIndex.js';
import { marketTradersRoute } from '../routes/marketTradersRoute.js';
import { topTradersRoute } from '../routes/topTradersRoute.js';
import { holderLinesRoute } from '../routes/holderLinesRoute.js';
import { tradeCountsRoute } from '../routes/tradeCountsRoute.js';
import { marketTradesRoute } from '../routes/marketTradesRoute.js';
import { fillsFeedRoute } from '../routes/fillsFeedRoute.js';
import { createEventHeatRoute } from '../routes/eventHeatRoute.js';
import { walletStatsRoute } from '../routes/walletStatsRoute.js';
import { walletProfilesRoute } from '../routes/walletProfilesRoute.js';
import { walletTagsRoute } from '../routes/walletTagsRoute.js';
import { createCryptoStrikesRoute } from '../routes/cryptoStrikesRoute.js';
import { createRoundIndex } from '../strikes/roundIndex.js';
import { walletCategoriesRoute } from '../routes/walletCategoriesRoute.js';
import { createLeaderboardRoute } from '../routes/leaderboardRoute.js';
import { createBoardRankings } from '../board/boardRankings.js';
import {
  answerEtag,
  encodeAnswer,
  sendAnswer,
  sendError,
  sendCompressedLater,
  sendNotModified,
  sendText,
  type Headers,
} from '../transport/sendAnswer.js';
import { createAnswerCache, type CachedAnswer } from '../transport/answerCache.js';
import { createHeavyWork, HeavyQueueFull } from '../heavy/createHeavyWork.js';
import type { HeavyTask } from '../heavy/heavyTask.js';
import { sumsResults } from '../board/boardWindow.js';
import { createKeyCheck } from '../createKeyCheck.js';
import { listenError } from '../listenError.js';
import { openApiDocument, type RouteDoc } from '../openapi/openApiDocument.js';
import { routeDocs } from '../openapi/routeDocs.js';
import { compileQuery } from '../query/queryParams.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { ALLOWED_METHODS, sendPreflight } from '../transport/cors.js';
import { accessLogLine, keyPrefix, openAccessEntry, type AccessEntry, type AccessLog } from '../accessLog.js';
import { isLoopbackPeer } from '../isLoopbackPeer.js';
import { createPages, PAGE_PATHS } from '../pages/pageAnswers.js';
import { matchesEtag } from '../transport/matchesEtag.js';
import { noteConnectionClose } from '../transport/connectionClose.js';
import { createServerMetrics } from '../metrics/createServerMetrics.js';
import { EXPOSITION_CONTENT_TYPE } from '../metrics/exposition.js';
import type { RouteMetrics } from '../metrics/requestMetrics.js';

export interface Server {
  port: number;
  close(): void;
}

export interface ServerOptions {
  host: string;
  port: number;
  now?: () => number;
  /** The per-key limits (config.json's rateLimits); spec 8's by default. */
  rateLimits?: RateLimits;
  /** Where the access log's lines go; none without it. */
  accessLog?: AccessLog;
  /** When the server counts as ready for traffic (config.json's readiness); DEFAULT_READINESS by default. */
  readiness?: ReadinessLimits;
  /**
   * For one of several threads serving the port (cli/servingThreads.ts): the counters they share, and a listen
   * that shares the port (SO_REUSEPORT) instead of holding it alone.
   */
  thread?: ServingThreadMemory;
}

/** What the threads serving one port share: the per-key counters and the request metrics' counters. */
export interface ServingThreadMemory {
  counters: SharedCountersMemory;
  metrics: SharedArrayBuffer;
}

const MAX_URL_CHARS = 16_384;
const MAX_HEADER_BYTES = 8192;
/** uSockets' LIBUS_LISTEN_EXCLUSIVE_PORT. */
const LISTEN_EXCLUSIVE_PORT = 1;
/** uSockets' default: SO_REUSEPORT, the kernel spreading the port's connections over its listeners. */
const LISTEN_SHARED_PORT = 0;

/** An answerer's return when the answer is written later (a heavy answer, a compression): its completion records it. */
const LATER = 0;
const RETRY_IN_ONE_SECOND = { 'retry-after': '1' };

/** A request's answerer: writes the answer, or starts it, and returns its status (or LATER). */
type Answerer = (res: HttpResponse, req: HttpRequest, entry: AccessEntry | null, started: number) => number;

/** A valid key as the server keeps it (once per key and off-chain revision). */
interface KeyGrant {
  /** The limiters' id of the key: a hash, never the key. */
  id: string;
  /** For the access log. */
  prefix: string;
  /** null: the key's requests are not limited. */
  policy: KeyPolicy | null;
}

/**
 * An exception that escaped an answerer: logged, and a 500 when nothing was written yet. Nothing may escape a uWS
 * handler: an exception there ends the process.
 */
function answerFailure(res: HttpResponse, error: unknown): number {
  console.error(error);
  try {
    sendError(res, 500, ERROR.internal);
  } catch {
    // The answer was already written (a finished response refuses further writes): nothing more to send.
  }
  return 500;
}

/** An error answer; returns its status. */
function refuse(res: HttpResponse, status: number, text: string, headers: Headers | null, head: boolean): number {
  sendError(res, status, text, headers, head);
  return status;
}

/** The request's header names and values, summed (uWS itself accepts far larger headers). */
function headerBytes(req: HttpRequest): number {
  let bytes = 0;
  req.forEach((name, value) => {
    bytes += name.length + value.length + 4;
  });
  return bytes;
}

function assertNativeUws(): void {
  const loaded = (process.report.getReport() as { sharedObjects?: string[] }).sharedObjects ?? [];
  if (!loaded.some((path) => path.includes('uws_'))) {
    throw new EnvironmentError('uWebSockets.js native binary did not load (JS fallback in use); refusing to serve');
  }
}

function unauthorized(res: HttpResponse, req: HttpRequest, head: boolean): number {
  const challenge = bearerChallenge(req.getHeader('authorization') !== '');
  return refuse(res, 401, ERROR.unauthorized, { 'www-authenticate': challenge }, head);
}

/** 414 or 431 when the URL or the headers are over their limits (checked before the key, on every path), else 0. */
function sizeRefusal(res: HttpResponse, req: HttpRequest, url: string, query: string, head: boolean): number {
  if (url.length + query.length > MAX_URL_CHARS) return refuse(res, 414, ERROR.urlTooLong, null, head);
  if (headerBytes(req) > MAX_HEADER_BYTES) return refuse(res, 431, ERROR.headersTooLarge, null, head);
  return 0;
}

/**
 * Drops the `uWebSockets: 20` header the library writes on every answer (it names the server's software to
 * anyone). The addon's undocumented `_cfg('silent')` sets its loop's noMark (uWebSockets.js src/addon.cpp, uWS_cfg;
 * uWebSockets src/HttpResponse.h, writeMark); it holds for the whole loop. test/api/httpDetails.test.ts checks it.
 */
function silenceLibraryMark(): void {
  const cfg = (uWS as unknown as { _cfg?: (key: string) => void })._cfg;
  if (typeof cfg === 'function') cfg('silent');
}

/** The key of `Authorization: Bearer KEY`; the scheme's letter case does not matter (RFC 9110 11.1). */
function bearerKey(req: HttpRequest): string {
  const header = req.getHeader('authorization');
  const scheme = header.slice(0, 7);
  return scheme === 'Bearer ' || scheme.toLowerCase() === 'bearer ' ? header.slice(7).trim() : '';
}

export interface RouteDefinition {
  pattern: string;
  /** Bulk answers count against the per-key stream limit. */
  stream?: boolean;
  /** Gzipped whenever the client takes gzip, whatever the size, and never in another coding (spec 4.9). */
  gzipOnly?: boolean;
  /** False for answers that change between folded blocks (health's source head); others are cached per block. */
  cached?: boolean;
  /** Answers carry an ETag and a request whose If-None-Match names it gets 304 (the tags run, spec 4.10). */
  etag?: boolean;
  /** Answered without a key, and so without per-key limits (the OpenAPI document). */
  keyless?: boolean;
  /** Answered while the state is catching up (health, the OpenAPI document); the others answer 503 (readCatchUp.ts). */
  whileCatchingUp?: boolean;
  /** True for a request that reads the whole board or a page of fills: the heavy-work thread answers it (api/heavy). */
  heavy?(request: RouteRequest): boolean;
  doc: RouteDoc;
  handle(request: RouteRequest): unknown;
}

export function createServer(ctx: RouteContext, options: ServerOptions): Promise<Server> {
  assertNativeUws();
  silenceLibraryMark();
  const now = options.now ?? Date.now;
  const app: TemplatedApp = uWS.App();
  const policyOf = createKeyPolicies(options.rateLimits ?? DEFAULT_RATE_LIMITS, options.thread?.counters);
  const checkKey = createKeyCheck<KeyGrant>(ctx.offchain, (key, id) => ({
    id,
    prefix: keyPrefix(key),
    policy: policyOf(key),
  }));
  const answers = createAnswerCache();
  const readiness = options.readiness ?? DEFAULT_READINESS;
  const heavyWork = createHeavyWork({ dataRoot: ctx.paths.root, version: ctx.version });
  const metrics = createServerMetrics(ctx, options.thread?.metrics);
  const accessLog = options.accessLog ?? null;
  /** The off-chain revision as of now (the key check goes stale when it moves). */
  const refreshedRevision = () => {
    ctx.reads.refresh();
    return ctx.reads.offchainRevision();
  };

  /** Counts an answered request, and logs it when asked to. */
  const record = (route: RouteMetrics, status: number, started: number, entry: AccessEntry | null) => {
    const milliseconds = performance.now() - started;
    route.observe(status, milliseconds / 1000);
    if (entry !== null) accessLog!(accessLogLine(entry, status, milliseconds));
  };

  /** A uWS handler, made once per route and method: times the answerer, records what it answered. */
  const handler = (route: RouteMetrics, answer: Answerer) => (res: HttpResponse, req: HttpRequest) => {
    const started = performance.now();
    noteConnectionClose(res, req);
    const entry = accessLog === null ? null : openAccessEntry(res, req);
    let status: number;
    try {
      status = answer(res, req, entry, started);
    } catch (error) {
      status = answerFailure(res, error);
    }
    if (status !== LATER) record(route, status, started, entry);
  };

  /** Records a request answered later exactly once: its slot goes back, and it is counted (and logged). */
  const recordLater = (
    policy: KeyPolicy | null,
    keyId: string,
    stream: boolean,
    routeMetrics: RouteMetrics,
    started: number,
    entry: AccessEntry | null,
  ) => {
    let pending = true;
    return (status: number) => {
      if (!pending) return;
      pending = false;
      policy?.leave(keyId, stream);
      record(routeMetrics, status, started, entry);
    };
  };

  /**
   * A heavy request, answered when the heavy-work thread is done: cached like any answer when it was read at the
   * generation this thread serves; 503 when that thread's queue is full.
   */
  const answerHeavy = (
    res: HttpResponse,
    task: HeavyTask,
    later: {
      cacheKey: string | null;
      generation: string;
      head: boolean;
      headers: Headers;
      compressAlways: boolean;
      finish: (status: number) => void;
    },
  ): void => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
      later.finish(200);
    });
    heavyWork.run(task).then(
      (result) => {
        if (aborted) return;
        const ok = result.status === 200;
        const answer: CachedAnswer = {
          json: Buffer.from(result.json.buffer, result.json.byteOffset, result.json.byteLength),
          compressAlways: ok && later.compressAlways,
        };
        const { compressed } = result;
        if (compressed !== null && task.coding !== null) {
          answer[task.coding] = Buffer.from(compressed.buffer, compressed.byteOffset, compressed.byteLength);
        }
        if (ok && later.cacheKey !== null && result.generation === later.generation)
          answers.set(later.generation, later.cacheKey, answer);
        const headers = ok ? later.headers : null;
        const done = () => later.finish(result.status);
        if (sendAnswer(res, result.status, headers, answer, task.coding, later.head)) done();
        else sendCompressedLater(res, result.status, headers, answer, task.coding!, { done });
      },
      (error: unknown) => {
        if (aborted) return;
        const busy = error instanceof HeavyQueueFull;
        if (!busy) console.error(error);
        const status = busy ? 503 : 500;
        sendError(res, status, busy ? ERROR.heavyBusy : ERROR.internal, busy ? RETRY_IN_ONE_SECOND : null, later.head);
        later.finish(status);
      },
    );
  };

  /** Where a compression of a cached answer goes once made: into the cache beside it (none for uncached routes). */
  const cacheMade = (generation: string, cacheKey: string | null, answer: CachedAnswer) =>
    cacheKey === null
      ? undefined
      : (coding: Coding, bytes: Buffer) => answers.setCompressed(generation, cacheKey, answer, coding, bytes);

  const handle = (
    route: RouteDefinition,
    routeMetrics: RouteMetrics,
    parameterCount: number,
    head: boolean,
    res: HttpResponse,
    req: HttpRequest,
    entry: AccessEntry | null,
    started: number,
  ): number => {
    const url = req.getUrl();
    const query = req.getQuery() ?? '';
    const tooLarge = sizeRefusal(res, req, url, query, head);
    if (tooLarge !== 0) return tooLarge;
    const bodyLength = req.getHeader('content-length');
    if ((bodyLength !== '' && bodyLength !== '0') || req.getHeader('transfer-encoding') !== '') {
      return refuse(res, 400, ERROR.bodyNotAccepted, null, head);
    }
    const generation = ctx.reads.refresh();
    let keyId = '';
    let policy: KeyPolicy | null = null;
    if (!route.keyless) {
      const grant = checkKey(bearerKey(req), ctx.reads.offchainRevision());
      if (grant === null) return unauthorized(res, req, head);
      keyId = grant.id;
      policy = grant.policy;
      if (entry !== null) entry.key = grant.prefix;
    }
    // Until a backfill's hand-off the owner-first tables are stale: no answer from a torn state, and no slot taken.
    if (!route.whileCatchingUp && ctx.reads.backfilling()) {
      const catchUp = metrics.catchUp();
      return refuse(res, 503, catchingUpText(catchUp), { 'retry-after': catchUpRetryAfter(catchUp) }, head);
    }
    // Concurrency first: a request refused for it does not count against the minute.
    const stream = route.stream ?? false;
    const nowMs = now();
    if (policy !== null && !policy.enter(keyId, stream, nowMs)) {
      return refuse(res, 429, policy.inFlightText, RETRY_IN_ONE_SECOND, head);
    }
    const decision = policy === null ? null : policy.take(keyId, nowMs);
    if (decision !== null && !decision.allowed) {
      policy!.leave(keyId, stream);
      const retry = { 'retry-after': String(decision.retryAfterSeconds) };
      return refuse(res, 429, rateLimitError(policy!.limits.perMinute, decision.retryAfterSeconds), retry, head);
    }
    const accepted = req.getHeader('accept-encoding');
    // The fills feed is gzipped when the client takes gzip (spec 4.9); other answers in the coding it prefers.
    const coding: Coding | null = route.gzipOnly ? (acceptsGzip(accepted) ? 'gzip' : null) : answerCoding(accepted);
    const cacheKey = route.cached === false ? null : `${url}?${query}`;
    let answer = cacheKey === null ? undefined : answers.get(generation, cacheKey);
    if (cacheKey !== null) metrics.cacheLookup(answer !== undefined);
    let status = 200;
    const rateHeaders = (): Headers =>
      decision === null
        ? {}
        : { 'x-ratelimit-limit': policy!.limitText, 'x-ratelimit-remaining': String(decision.remaining) };
    if (!answer) {
      const parameters = Array.from({ length: parameterCount }, (_, i) => req.getParameter(i) ?? '');
      try {
        const request: RouteRequest = { parameters, query: queryOf.get(route)!(query) };
        if (route.heavy?.(request)) {
          answerHeavy(
            res,
            { pattern: route.pattern, parameters, query, coding },
            {
              cacheKey,
              generation,
              head,
              headers: rateHeaders(),
              compressAlways: route.gzipOnly === true,
              finish: recordLater(policy, keyId, stream, routeMetrics, started, entry),
            },
          );
          return LATER;
        }
        answer = encodeAnswer(route.handle(request));
        if (route.etag) answer.etag = answerEtag(answer.json);
        if (cacheKey !== null) answers.set(generation, cacheKey, answer);
      } catch (error) {
        if (error instanceof ApiError) status = error.status;
        else {
          console.error(error);
          status = 500;
        }
        answer = encodeAnswer({ error: status === 500 ? ERROR.internal : (error as Error).message });
      }
    }
    const headers: Headers | null = status !== 200 ? null : rateHeaders();
    // Written now, unless a large compression must be made; the slot goes back once written (or on an exception).
    let written = true;
    try {
      if (headers !== null && answer?.etag !== undefined) headers.etag = answer.etag;
      if (headers !== null && answer?.etag !== undefined && matchesEtag(req.getHeader('if-none-match'), answer.etag)) {
        status = 304;
        sendNotModified(res, headers);
      } else {
        written = sendAnswer(res, status, headers, answer!, coding, head, cacheMade(generation, cacheKey, answer!));
      }
    } finally {
      if (written) policy?.leave(keyId, stream);
    }
    if (written) return status;
    // Written later (a compression made off the event loop): the slot goes back and the request is recorded exactly
    // once, when the answer is written, the client goes away, or an exception intervenes.
    const finish = recordLater(policy, keyId, stream, routeMetrics, started, entry);
    const done = () => finish(status);
    try {
      sendCompressedLater(res, status, headers, answer!, coding!, {
        done,
        made: cacheMade(generation, cacheKey, answer!),
      });
    } catch (error) {
      status = answerFailure(res, error);
      done();
    }
    return LATER;
  };

  const routes: RouteDefinition[] = [
    { pattern: '/v1/wallets/tags', etag: true, doc: routeDocs.walletTags, handle: () => walletTagsRoute(ctx) },
    {
      pattern: '/v1/health',
      cached: false,
      whileCatchingUp: true,
      doc: routeDocs.health,
      handle: () => {
        const lag = readFoldLag(ctx);
        return healthRoute(ctx, lag, metrics.catchUp(lag), readiness);
      },
    },
    {
      pattern: '/v1/ready',
      cached: false,
      whileCatchingUp: true,
      doc: routeDocs.ready,
      handle: () => {
        const lag = readFoldLag(ctx);
        return readyRoute(lag, metrics.catchUp(lag), readiness);
      },
    },
    {
      pattern: '/v1/wallets/:wallet/positions',
      doc: routeDocs.walletPositions,
      handle: (request) => walletPositionsRoute(ctx, request),
    },
    {
      pattern: '/v1/wallets/:wallet/closed-positions',
      doc: routeDocs.closedPositions,
      handle: (request) => closedPositionsRoute(ctx, request),
    },
    {
      pattern: '/v1/wallets/:wallet/trades',
      doc: routeDocs.walletTrades,
      handle: (request) => walletTradesRoute(ctx, request),
    },
    {
      pattern: '/v1/markets',
      doc: routeDocs.marketSearch,
      handle: createMarketSearchRoute(ctx, createMarketTextIndex(ctx.offchain)),
    },
    { pattern: '/v1/markets/:conditionId', doc: routeDocs.market, handle: (request) => marketRoute(ctx, request) },
    {
      pattern: '/v1/markets/:conditionId/traders',
      doc: routeDocs.marketTraders,
      handle: (request) => marketTradersRoute(ctx, request),
    },
    {
      pattern: '/v1/markets/:conditionId/top-traders',
      doc: routeDocs.topTraders,
      handle: (request) => topTradersRoute(ctx, request),
    },
    {
      pattern: '/v1/markets/:conditionId/holder-lines',
      doc: routeDocs.holderLines,
      handle: (request) => holderLinesRoute(ctx, request),
    },
    {
      pattern: '/v1/markets/:conditionId/trade-counts',
      doc: routeDocs.tradeCounts,
      handle: (request) => tradeCountsRoute(ctx, request),
    },
    {
      pattern: '/v1/markets/:conditionId/trades',
      doc: routeDocs.marketTrades,
      handle: (request) => marketTradesRoute(ctx, request),
    },
    {
      pattern: '/v1/fills',
      stream: true,
      gzipOnly: true,
      cached: false,
      // Every page reads up to 50,000 fills: on the heavy-work thread, never ahead of another key's cheap request.
      heavy: () => true,
      doc: routeDocs.fillsFeed,
      handle: (request) => fillsFeedRoute(ctx, request),
    },
    { pattern: '/v1/events/heat', doc: routeDocs.eventHeat, handle: createEventHeatRoute(ctx) },
    {
      pattern: '/v1/events/:eventSlug',
      doc: routeDocs.event,
      handle: createEventRoute(ctx, createEventIndex(ctx.offchain)),
    },
    {
      pattern: '/v1/wallets/:wallet/stats',
      doc: routeDocs.walletStats,
      handle: (request) => walletStatsRoute(ctx, request),
    },
    {
      pattern: '/v1/wallets/:wallet/categories',
      doc: routeDocs.walletCategories,
      handle: (request) => walletCategoriesRoute(ctx, request),
    },
    {
      pattern: '/v1/wallets/profiles',
      doc: routeDocs.walletProfiles,
      handle: (request) => walletProfilesRoute(ctx, request),
    },
    {
      pattern: '/v1/crypto/strikes',
      doc: routeDocs.cryptoStrikes,
      handle: createCryptoStrikesRoute(ctx, createRoundIndex(ctx.offchain)),
    },
    {
      pattern: '/v1/leaderboard',
      heavy: (request) => sumsResults(request.query),
      doc: routeDocs.leaderboard,
      handle: createLeaderboardRoute(ctx, createBoardRankings(ctx.state)),
    },
  ];
  const document = openApiDocument(routes, ctx.version, options.rateLimits ?? DEFAULT_RATE_LIMITS);
  routes.push({
    pattern: '/v1/openapi.json',
    keyless: true,
    whileCatchingUp: true,
    doc: routeDocs.openApi,
    handle: () => document,
  });
  const queryOf = new Map(routes.map((route) => [route, compileQuery(route.doc.query)]));
  for (const route of routes) {
    const routeMetrics = metrics.route(route.pattern);
    const parameterCount = (route.pattern.match(/:/g) ?? []).length;
    app.get(
      route.pattern,
      handler(routeMetrics, (res, req, entry, started) =>
        handle(route, routeMetrics, parameterCount, false, res, req, entry, started),
      ),
    );
    app.head(
      route.pattern,
      handler(routeMetrics, (res, req, entry, started) =>
        handle(route, routeMetrics, parameterCount, true, res, req, entry, started),
      ),
    );
  }

  // /metrics: without a key from this machine (not forwarded), with one from elsewhere; not counted against it.
  const answerMetrics =
    (head: boolean): Answerer =>
    (res, req, entry) => {
      const tooLarge = sizeRefusal(res, req, req.getUrl(), req.getQuery() ?? '', head);
      if (tooLarge !== 0) return tooLarge;
      if (!isLoopbackPeer(res, req)) {
        const grant = checkKey(bearerKey(req), refreshedRevision());
        if (grant === null) return unauthorized(res, req, head);
        if (entry !== null) entry.key = grant.prefix;
      }
      const gzipAccepted = acceptsGzip(req.getHeader('accept-encoding'));
      sendText(res, EXPOSITION_CONTENT_TYPE, Buffer.from(metrics.render()), head, gzipAccepted);
      return 200;
    };
  const metricsRoute = metrics.route('/metrics');
  app.get('/metrics', handler(metricsRoute, answerMetrics(false)));
  app.head('/metrics', handler(metricsRoute, answerMetrics(true)));

  // The pages and their files: no key (they hold no data; api/pages/pageAnswers.ts).
  const pages = createPages();
  const pagesRoute = metrics.route('pages');
  const pageAnswerer =
    (answer: (res: HttpResponse, req: HttpRequest, head: boolean) => number, head: boolean): Answerer =>
    (res, req) =>
      sizeRefusal(res, req, req.getUrl(), req.getQuery() ?? '', head) || answer(res, req, head);
  for (const [kind, paths] of Object.entries(PAGE_PATHS) as Array<['app' | 'docs', string[]]>) {
    for (const path of paths) {
      const answer = (res: HttpResponse, req: HttpRequest, head: boolean) => pages.page(kind, res, req, head);
      app.get(path, handler(pagesRoute, pageAnswerer(answer, false)));
      app.head(path, handler(pagesRoute, pageAnswerer(answer, true)));
    }
  }
  app.get('/assets/:name', handler(pagesRoute, pageAnswerer(pages.asset, false)));
  app.head('/assets/:name', handler(pagesRoute, pageAnswerer(pages.asset, true)));

  // Anything else: the size limits first; OPTIONS answered as a preflight; 405 for methods other than GET and
  // HEAD; 401 without a valid key (what exists is not shown to anyone without one), else 404.
  app.any(
    '/*',
    handler(metrics.route('other'), (res, req, entry) => {
      const method = req.getMethod();
      const head = method === 'head';
      const tooLarge = sizeRefusal(res, req, req.getUrl(), req.getQuery() ?? '', head);
      if (tooLarge !== 0) return tooLarge;
      if (method === 'options') {
        sendPreflight(res);
        return 204;
      }
      if (method !== 'get' && !head) return refuse(res, 405, ERROR.methodNotAllowed, { allow: ALLOWED_METHODS }, false);
      const grant = checkKey(bearerKey(req), refreshedRevision());
      if (grant === null) return unauthorized(res, req, head);
      if (entry !== null) entry.key = grant.prefix;
      return refuse(res, 404, ERROR.notFound, null, head);
    }),
  );
  return new Promise((resolve, reject) => {
    // Exclusive: without it uWS sets SO_REUSEPORT, and a second server on a port in use shares its traffic
    // instead of failing. Threads serving one port share it on purpose, once the port was found free
    // (cli/servingThreads.ts). (The typings lack this overload.)
    const listen = app.listen as unknown as (
      host: string,
      port: number,
      options: number,
      cb: (socket: us_listen_socket | false) => void,
    ) => void;
    const listenOptions = options.thread ? LISTEN_SHARED_PORT : LISTEN_EXCLUSIVE_PORT;
    listen.call(app, options.host, options.port, listenOptions, (socket) => {
      if (!socket) {
        metrics.close();
        return void listenError(options.host, options.port).then(reject);
      }
      resolve({
        port: uWS.us_socket_local_port(socket),
        // close() exists at run time but not in the typings (docs/toolchain.md).
        close: () => {
          metrics.close();
          void heavyWork.close();
          (app as unknown as { close(): void }).close();
        },
      });
    });
  });
}
