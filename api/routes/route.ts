// What a route is, in one file of its own (docs/recipes.md, Add a route): its pattern, what the OpenAPI document
// says of it, its query parameters (with their ranges and defaults), its answer's schema, how the server treats it
// (cached, streamed, heavy...) and its handler, whose return type the compiler checks against the answer's schema.
// The route table (routeTable.ts) lists them; the serving threads and the heavy-work thread answer from it.
import type { Static, TSchema } from 'typebox';
import type { QueryOf, QuerySpec } from '../query/queryParams.js';
import type { RouteRequest } from '../query/routeRequest.js';
import type { CatchUp } from '../readCatchUp.js';
import type { FoldLag } from '../readFoldLag.js';
import type { ReadinessLimits } from '../loadReadiness.js';
import type { RouteContext } from '../routeContext.js';
import type { HeadedAnswer } from '../transport/headedAnswer.js';
import type { JsonBody } from '../transport/jsonBody.js';

/**
 * What a handler may return: the answer, or its JSON written already (a JsonBody of the same answer), either with
 * headers of its own (a HeadedAnswer).
 */
export type RouteAnswer<A extends TSchema> = Static<A> | JsonBody<Static<A>> | HeadedAnswer<Static<A>>;

/** What a serving thread has beside the state: its samples of the fold's rate and its readiness limits. */
export interface ServingParts {
  catchUp(lag?: FoldLag): CatchUp;
  readiness: ReadinessLimits;
}

export interface Route<Q extends QuerySpec = QuerySpec, A extends TSchema = TSchema, S = unknown> {
  pattern: string;
  /** The method name generated clients give the operation. */
  operationId: string;
  tag: string;
  summary: string;
  /** The route's own error statuses, with their texts (the ones every route shares are the document's). */
  errors?: Record<number, string>;
  query: Q;
  answer: A;
  /** Bulk answers count against the per-key stream limit. */
  stream?: boolean;
  /** Gzipped whenever the client takes gzip, whatever the size, and never in another coding (spec 4.9). */
  gzipOnly?: boolean;
  /** False for answers that change between folded blocks (health's source head); others are cached per block. */
  cached?: boolean;
  /** Answers carry an ETag and a request whose If-None-Match names it gets 304 (the tags run, spec 4.10). */
  etag?: boolean;
  /**
   * Query parameters that make this route answer its pattern in place of the table's other route of that pattern
   * (the Data API's leaderboard, which shares /v1/leaderboard with tally's): a request naming any of them is this
   * route's, the others are the other's. The OpenAPI document describes it inside the other's operation.
   */
  claimedBy?: readonly string[];
  /** Answered without a key, and so without per-key limits (the OpenAPI document). */
  keyless?: boolean;
  /** Answered while the state is catching up (health, the OpenAPI document); the others answer 503 (readCatchUp.ts). */
  whileCatchingUp?: boolean;
  /**
   * True for a request that reads the whole board or a page of fills: the heavy-work thread answers it (api/heavy),
   * having opened the route with its own context.
   */
  heavy?(query: NoInfer<QueryOf<Q>>): boolean;
  /** What the handler reads beside the request, made once per thread (the context, an index of the metadata). */
  open(ctx: RouteContext, serving: ServingParts): S;
  handle(opened: NoInfer<S>, request: RouteRequest<NoInfer<QueryOf<Q>>>): RouteAnswer<NoInfer<A>>;
}

/**
 * A route, its handler checked against its declaration: the query it reads is the one declared, and it returns
 * the answer's schema. (The identity: the type parameters are what it is for.)
 */
export function defineRoute<Q extends QuerySpec, A extends TSchema, S>(route: Route<Q, A, S>): Route<Q, A, S> {
  return route;
}
