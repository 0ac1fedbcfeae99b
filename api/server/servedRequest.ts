// One /v1 request as the pipeline passes it from step to step (admitRequest, answerRequest, respondToRequest): what
// was read of it while uWS's request object lived (it dies when the handler returns), the route it asked for, and
// what each step decided (the key and its limits, the coding, the cache entry).
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { AccessEntry } from '../accessLog.js';
import type { KeyPolicy } from '../limits/createKeyPolicies.js';
import type { RateDecision } from '../limits/sharedKeyCounters.js';
import type { RouteMetrics } from '../metrics/requestMetrics.js';
import type { QueryOf, QuerySpec } from '../query/queryParams.js';
import type { Route } from '../routes/route.js';
import type { CachedAnswer } from '../transport/answerCache.js';
import type { Coding } from '../transport/contentCoding.js';
import { headerBytes } from './requestChecks.js';

/** A route of the table as a serving thread answers it: opened once, its query reader compiled once. */
export interface OpenedRoute {
  route: Route;
  opened: unknown;
  readQuery(search: string): QueryOf<QuerySpec>;
  metrics: RouteMetrics;
  parameterCount: number;
}

export interface ServedRequest {
  res: HttpResponse;
  served: OpenedRoute;
  head: boolean;
  /** performance.now() when the handler began. */
  started: number;
  entry: AccessEntry | null;
  url: string;
  search: string;
  parameters: string[];
  authorization: string;
  acceptEncoding: string;
  ifNoneMatch: string;
  /** The header names' and values' size (refused over 8 KB: 431). */
  headerBytes: number;
  /** Whether the request carries a body (refused: 400). */
  hasBody: boolean;
  /** Set by admission: the state generation answered from, the key's limiter id, policy and minute's decision. */
  generation: string;
  keyId: string;
  policy: KeyPolicy | null;
  decision: RateDecision | null;
  /** Set by answering: the coding the answer goes in, and its cache key (null: not cached). */
  coding: Coding | null;
  cacheKey: string | null;
}

/** An answer to write, with its status. */
export interface Answered {
  status: number;
  answer: CachedAnswer;
}

export function readServedRequest(
  res: HttpResponse,
  req: HttpRequest,
  served: OpenedRoute,
  head: boolean,
  started: number,
  entry: AccessEntry | null,
): ServedRequest {
  const bodyLength = req.getHeader('content-length');
  return {
    res,
    served,
    head,
    started,
    entry,
    url: req.getUrl(),
    search: req.getQuery() ?? '',
    parameters: Array.from({ length: served.parameterCount }, (_, i) => req.getParameter(i) ?? ''),
    authorization: req.getHeader('authorization'),
    acceptEncoding: req.getHeader('accept-encoding'),
    ifNoneMatch: req.getHeader('if-none-match'),
    headerBytes: headerBytes(req),
    hasBody: (bodyLength !== '' && bodyLength !== '0') || req.getHeader('transfer-encoding') !== '',
    generation: '',
    keyId: '',
    policy: null,
    decision: null,
    coding: null,
    cacheKey: null,
  };
}
