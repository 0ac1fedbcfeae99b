// What a route handler sees: the request's parts, read before the handler runs (uWS requests die after). Its own
// module, so routes need not import the server that imports them.

export interface RouteRequest<Query> {
  /** The path's parameters, in the pattern's order. */
  parameters: string[];
  /** The query, checked and converted by the route's declaration (api/query/queryParams.ts). */
  query: Query;
}
