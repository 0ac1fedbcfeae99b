// What a route handler sees: the request's parts, read before the handler runs (uWS requests die after). Its own
// module, so routes need not import the server that imports them.
import type { QueryValues } from './queryParams.js';

export interface RouteRequest {
  parameters: string[];
  /** The query, checked against the route's parameter schemas. */
  query: QueryValues;
}
