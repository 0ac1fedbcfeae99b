// GET /value (docs/venue-api.md, Value): the Data API's shape of what a wallet's held positions are worth now, the
// sum of /positions' currentValue over every held position (no size threshold), in one market list when given.
import Type from 'typebox';
import { MICRO } from '../microUnits.js';
import { readServedBlock } from '../readServedState.js';
import { readVenuePositions } from '../venueApi/readVenuePositions.js';
import { VenueValue } from '../schemas/venueSchemas.js';
import { legValue, outcomeMark } from '../../engine/valuation/marketPrices.js';
import { venueAnswer } from '../venueApi/venueAnswer.js';
import { venueConditionId } from '../venueApi/venueConditionId.js';
import { MARKET_LIST_PARAM, marketFilter, requiredUser, USER_PARAM } from '../venueApi/venueQuery.js';
import { defineRoute } from './route.js';

export const venueValueRoute = defineRoute({
  pattern: '/value',
  operationId: 'getVenueValue',
  tag: 'Data API shapes',
  summary: "The venue's Data API /value: what a wallet's held positions are worth at their outcomes' prices",
  query: { user: USER_PARAM, market: MARKET_LIST_PARAM },
  answer: Type.Array(VenueValue),
  open: (ctx) => ctx,
  handle(ctx, request) {
    const wallet = requiredUser(request.query.user);
    const { markets } = marketFilter(request.query.market, undefined);
    const block = readServedBlock(ctx.state).block;
    const positions = readVenuePositions(ctx, wallet, true);
    let micros = 0;
    for (const { market, outcomeIndex, position } of positions) {
      if (market === null || outcomeIndex < 0) continue;
      if (markets !== null && !markets.has(venueConditionId(market))) continue;
      const mark = outcomeMark(market, outcomeIndex);
      if (mark !== null) micros += legValue(position, mark.price);
    }
    return venueAnswer([{ user: wallet, value: micros / MICRO }], block);
  },
});
