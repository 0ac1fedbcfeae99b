// GET /v1/events/{eventSlug}: an event of the loaded metadata, its title and its indexed markets, most fills first
// (the rows a market search answers). The slug is matched exactly, percent-decoded; 404 `event not indexed` when no
// indexed market carries it. The board's busiest events are shown by these titles.
import type { Static } from 'typebox';
import type { EventAnswer } from '../schemas/answerSchemas.js';
import { ApiError } from '../apiError.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import type { EventIndex } from '../search/eventIndex.js';
import { marketListings } from '../rows/marketListings.js';
import { ERROR } from '../errorTexts.js';

/** The path's slug, percent-decoded; null when its escapes are malformed (no event has such a slug). */
function slugParam(request: RouteRequest): string | null {
  try {
    return decodeURIComponent(request.parameters[0] ?? '');
  } catch {
    return null;
  }
}

export function createEventRoute(ctx: RouteContext, index: EventIndex) {
  return (request: RouteRequest): Static<typeof EventAnswer> => {
    const eventSlug = slugParam(request);
    const event = eventSlug === null ? null : index.find(ctx.reads.offchainRevision(), eventSlug);
    const markets = marketListings(ctx, event?.conditionIds ?? []);
    if (markets.length === 0) throw new ApiError(404, ERROR.eventNotIndexed);
    return { eventSlug: eventSlug!, title: event!.title, block: readServedBlock(ctx.state).block, markets };
  };
}
