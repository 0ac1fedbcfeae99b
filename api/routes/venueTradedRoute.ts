// GET /traded (docs/venue-api.md, Traded): the Data API's count of the markets a wallet traded: conditions it has a
// fill in (book or AMM), whatever it holds now.
import { readServedBlock } from '../readServedState.js';
import { readVenuePositions } from '../venueApi/readVenuePositions.js';
import { VenueTraded } from '../schemas/venueSchemas.js';
import { venueAnswer } from '../venueApi/venueAnswer.js';
import { requiredUser, USER_PARAM } from '../venueApi/venueQuery.js';
import { defineRoute } from './route.js';

export const venueTradedRoute = defineRoute({
  pattern: '/traded',
  operationId: 'getVenueTraded',
  tag: 'Data API shapes',
  summary: "The venue's Data API /traded: how many markets a wallet traded",
  query: { user: USER_PARAM },
  answer: VenueTraded,
  open: (ctx) => ctx,
  handle(ctx, request) {
    const wallet = requiredUser(request.query.user);
    const block = readServedBlock(ctx.state).block;
    const positions = readVenuePositions(ctx, wallet);
    const traded = new Set<string>();
    for (const { market, token, position } of positions)
      if (position.fills > 0) traded.add(market?.conditionId ?? token);
    return venueAnswer({ user: wallet, traded: traded.size }, block);
  },
});
