// GET /v1/events/{eventSlug}: an event of the loaded metadata, its title and its indexed markets, most fills first
// (the rows a market search answers). The slug is matched exactly, percent-decoded; 404 `event not indexed` when no
// indexed market carries it. The board's busiest events are shown by these titles.
import { EventAnswer } from '../schemas/answerSchemas.js';
import { ApiError } from '../apiError.js';
import { readServedBlock } from '../readServedState.js';
import { createEventIndex } from '../search/eventIndex.js';
import { marketListings } from '../rows/marketListings.js';
import { ERROR } from '../errorTexts.js';
import { defineRoute } from './route.js';

/** The path's slug, percent-decoded; null when its escapes are malformed (no event has such a slug). */
function slugParam(parameters: string[]): string | null {
  try {
    return decodeURIComponent(parameters[0] ?? '');
  } catch {
    return null;
  }
}

export const eventRoute = defineRoute({
  pattern: '/v1/events/:eventSlug',
  operationId: 'getEvent',
  errors: { 404: 'event not indexed: no indexed market carries this event slug' },
  tag: 'Markets',
  summary: 'An event by its slug (exact, percent-decoded): its title and its indexed markets, most fills first',
  answer: EventAnswer,
  query: {},
  open: (ctx) => ({ ctx, index: createEventIndex(ctx.offchain) }),
  handle({ ctx, index }, request) {
    const eventSlug = slugParam(request.parameters);
    const event = eventSlug === null ? null : index.find(ctx.reads.offchainRevision(), eventSlug);
    const markets = marketListings(ctx, event?.conditionIds ?? []);
    if (markets.length === 0) throw new ApiError(404, ERROR.eventNotIndexed);
    return { eventSlug: eventSlug!, title: event!.title, block: readServedBlock(ctx.state).block, markets };
  },
});
