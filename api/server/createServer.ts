// The HTTP front (uWebSockets.js): the route table's /v1 routes over the memory-mapped state, /metrics and the pages.
// Every answer is JSON; every error is { "error": text } (api/errorTexts.ts). Per key (config.json may change the
// figures): 600 requests a minute and 4 in flight (2 streams), 429 with Retry-After beyond. GET and HEAD on every
// route, OPTIONS answered as a CORS preflight. A /v1 request goes through three steps, one request object between
// them: admitRequest (sizes, key, limits), answerRequest (cache, query, handler or heavy-work thread),
// respondToRequest (headers, coding, 304). Each request is counted for /metrics and, with an access log, logged
// once answered. The native binary must load: the JS fallback is refused, not tolerated.
import uWS from 'uWebSockets.js';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { ERROR } from '../errorTexts.js';
import { acceptsGzip } from '../transport/contentCoding.js';
import { createKeyPolicies } from '../limits/createKeyPolicies.js';
import type { SharedCountersMemory } from '../limits/sharedKeyCounters.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../limits/loadRateLimits.js';
import type { RouteContext } from '../routeContext.js';
import { DEFAULT_READINESS, type ReadinessLimits } from '../loadReadiness.js';
import { sendText } from '../transport/sendAnswer.js';
import { createAnswerCache } from '../transport/answerCache.js';
import { createHeavyWork } from '../heavy/createHeavyWork.js';
import { createKeyCheck } from '../createKeyCheck.js';
import { listenError } from '../listenError.js';
import { openApiDocument } from '../openapi/openApiDocument.js';
import { openApiRoute } from '../openapi/openApiRoute.js';
import { compileQuery } from '../query/queryParams.js';
import { ROUTES } from '../routes/routeTable.js';
import type { Route, ServingParts } from '../routes/route.js';
import { ALLOWED_METHODS, sendPreflight } from '../transport/cors.js';
import { keyPrefix, type AccessLog } from '../accessLog.js';
import { isLoopbackPeer } from '../isLoopbackPeer.js';
import { createPages, PAGE_PATHS } from '../pages/pageAnswers.js';
import { createServerMetrics } from '../metrics/createServerMetrics.js';
import { EXPOSITION_CONTENT_TYPE } from '../metrics/exposition.js';
import type { RouteMetrics } from '../metrics/requestMetrics.js';
import { createAdmission, type KeyGrant } from './admitRequest.js';
import { createAnswering } from './answerRequest.js';
import { assertNativeUws, silenceLibraryMark } from './nativeUws.js';
import { assert } from '../../engine/assert.js';
import { bearerKey, refuse, requestSizeRefusal, unauthorized } from './requestChecks.js';
import { createRequestRecorder, LATER, type Answerer } from './requestRecorder.js';
import { createResponder } from './respondToRequest.js';
import { readServedRequest, type OpenedRoute } from './servedRequest.js';

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

/** uSockets' LIBUS_LISTEN_EXCLUSIVE_PORT. */
const LISTEN_EXCLUSIVE_PORT = 1;
/** uSockets' default: SO_REUSEPORT, the kernel spreading the port's connections over its listeners. */
const LISTEN_SHARED_PORT = 0;

/** The route of `claimers` whose parameters the query names, else `served`. */
function claimingRoute(search: string | undefined, served: OpenedRoute, claimers: OpenedRoute[]): OpenedRoute {
  if (!search) return served;
  const names = new Set(new URLSearchParams(search).keys());
  return claimers.find(({ route }) => route.claimedBy!.some((name) => names.has(name))) ?? served;
}

export function createServer(ctx: RouteContext, options: ServerOptions): Promise<Server> {
  assertNativeUws();
  silenceLibraryMark();
  const app: TemplatedApp = uWS.App();
  const rateLimits = options.rateLimits ?? DEFAULT_RATE_LIMITS;
  const readiness = options.readiness ?? DEFAULT_READINESS;
  const policyOf = createKeyPolicies(rateLimits, options.thread?.counters);
  const checkKey = createKeyCheck<KeyGrant>(ctx.offchain, (key, id) => ({
    id,
    prefix: keyPrefix(key),
    policy: policyOf(key),
  }));
  const answers = createAnswerCache();
  const heavyWork = createHeavyWork({ dataRoot: ctx.paths.root, version: ctx.version, readiness });
  const metrics = createServerMetrics(ctx, options.thread?.metrics);
  const recorder = createRequestRecorder(options.accessLog ?? null);
  const serving: ServingParts = { catchUp: (lag) => metrics.catchUp(lag), readiness };
  const admit = createAdmission({ ctx, checkKey, catchUp: () => metrics.catchUp(), now: options.now ?? Date.now });
  const answer = createAnswering({ answers, metrics, heavyWork, recorder });
  const respond = createResponder(answers, recorder);
  /** The off-chain revision as of now (the key check goes stale when it moves). */
  const refreshedRevision = () => {
    ctx.reads.refresh();
    return ctx.reads.offchainRevision();
  };

  const routes: readonly Route[] = [...ROUTES, openApiRoute(openApiDocument(ROUTES, ctx.version, rateLimits))];
  // Counted by pattern: a route claimed by its parameters is counted with the other route of its path.
  const routeMetrics = new Map<string, RouteMetrics>();
  for (const { pattern } of routes) if (!routeMetrics.has(pattern)) routeMetrics.set(pattern, metrics.route(pattern));
  const servedRoutes = routes.map(
    (route): OpenedRoute => ({
      route,
      opened: route.open(ctx, serving),
      readQuery: compileQuery(route.query),
      metrics: routeMetrics.get(route.pattern)!,
      parameterCount: (route.pattern.match(/:/g) ?? []).length,
    }),
  );
  for (const served of servedRoutes) {
    if (served.route.claimedBy !== undefined) continue;
    // A route claiming this pattern by its parameters answers the requests that name one of them (Route.claimedBy).
    const claimers = servedRoutes.filter(
      (other) => other.route.claimedBy !== undefined && other.route.pattern === served.route.pattern,
    );
    const pick =
      claimers.length === 0 ? () => served : (req: HttpRequest) => claimingRoute(req.getQuery(), served, claimers);
    const answerer =
      (head: boolean): Answerer =>
      (res, req, entry, started) => {
        const request = readServedRequest(res, req, pick(req), head, started, entry);
        const refused = admit(request);
        if (refused !== null) return refused;
        const answered = answer(request);
        return answered === LATER ? LATER : respond(request, answered);
      };
    app.get(served.route.pattern, recorder.handler(served.metrics, answerer(false)));
    app.head(served.route.pattern, recorder.handler(served.metrics, answerer(true)));
  }
  // Each claiming route shares its pattern with a route of its own kind, which registered it.
  assert(
    servedRoutes.every(
      ({ route }) =>
        route.claimedBy === undefined ||
        servedRoutes.some((other) => other.route.claimedBy === undefined && other.route.pattern === route.pattern),
    ),
    'a route claimed by its parameters shares its pattern with another',
  );

  // /metrics: without a key from this machine (not forwarded), with one from elsewhere; not counted against it.
  const answerMetrics =
    (head: boolean): Answerer =>
    (res, req, entry) => {
      const tooLarge = requestSizeRefusal(res, req, head);
      if (tooLarge !== 0) return tooLarge;
      if (!isLoopbackPeer(res, req)) {
        const authorization = req.getHeader('authorization');
        const grant = checkKey(bearerKey(authorization), refreshedRevision());
        if (grant === null) return unauthorized(res, authorization, head);
        if (entry !== null) entry.key = grant.prefix;
      }
      const gzipAccepted = acceptsGzip(req.getHeader('accept-encoding'));
      sendText(res, EXPOSITION_CONTENT_TYPE, Buffer.from(metrics.render()), head, gzipAccepted);
      return 200;
    };
  const metricsRoute = metrics.route('/metrics');
  app.get('/metrics', recorder.handler(metricsRoute, answerMetrics(false)));
  app.head('/metrics', recorder.handler(metricsRoute, answerMetrics(true)));

  // The pages and their files: no key (they hold no data; api/pages/pageAnswers.ts).
  const pages = createPages();
  const pagesRoute = metrics.route('pages');
  const pageAnswerer =
    (page: (res: HttpResponse, req: HttpRequest, head: boolean) => number, head: boolean): Answerer =>
    (res, req) =>
      requestSizeRefusal(res, req, head) || page(res, req, head);
  for (const [kind, paths] of Object.entries(PAGE_PATHS) as Array<['app' | 'docs', string[]]>) {
    for (const path of paths) {
      const page = (res: HttpResponse, req: HttpRequest, head: boolean) => pages.page(kind, res, req, head);
      app.get(path, recorder.handler(pagesRoute, pageAnswerer(page, false)));
      app.head(path, recorder.handler(pagesRoute, pageAnswerer(page, true)));
    }
  }
  app.get('/assets/:name', recorder.handler(pagesRoute, pageAnswerer(pages.asset, false)));
  app.head('/assets/:name', recorder.handler(pagesRoute, pageAnswerer(pages.asset, true)));

  // Anything else: the size limits first; OPTIONS answered as a preflight; 405 for methods other than GET and
  // HEAD; 401 without a valid key (what exists is not shown to anyone without one), else 404.
  app.any(
    '/*',
    recorder.handler(metrics.route('other'), (res, req, entry) => {
      const method = req.getMethod();
      const head = method === 'head';
      const tooLarge = requestSizeRefusal(res, req, head);
      if (tooLarge !== 0) return tooLarge;
      if (method === 'options') {
        sendPreflight(res);
        return 204;
      }
      if (method !== 'get' && !head) return refuse(res, 405, ERROR.methodNotAllowed, { allow: ALLOWED_METHODS }, false);
      const authorization = req.getHeader('authorization');
      const grant = checkKey(bearerKey(authorization), refreshedRevision());
      if (grant === null) return unauthorized(res, authorization, head);
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
