// GET /holders (docs/venue-api.md, Holders): the Data API's shape of a market's biggest holders, per token: every
// wallet holding at least minBalance shares (bought, split or received alike), most shares first.
import Type, { type Static } from 'typebox';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { sumPositions } from '../../engine/valuation/sumPositions.js';
import { ApiError } from '../apiError.js';
import { MICRO } from '../microUnits.js';
import { clampedParam, integerParam } from '../query/queryParams.js';
import { readServedBlock } from '../readServedState.js';
import { VenueHolders } from '../schemas/venueSchemas.js';
import { venueAnswer } from '../venueApi/venueAnswer.js';
import { venueProfile } from '../venueApi/venueProfile.js';
import { MARKET_LIST_PARAM, marketFilter } from '../venueApi/venueQuery.js';
import { defineRoute } from './route.js';

export const venueHoldersRoute = defineRoute({
  pattern: '/holders',
  operationId: 'getVenueHolders',
  tag: 'Data API shapes',
  summary: "The venue's Data API /holders: each token's biggest holders, for the markets listed",
  query: {
    market: { ...MARKET_LIST_PARAM, description: 'condition ids, comma separated (required)' },
    limit: clampedParam('holders a token, 0 to 500 (out of range is clamped), default 20', 0, 500, 20),
    minBalance: integerParam('shares a holder holds at least, default 1', { minimum: 0, default: 1 }),
  },
  answer: Type.Array(VenueHolders),
  open: (ctx) => ctx,
  handle(ctx, request) {
    const { markets } = marketFilter(request.query.market, undefined);
    if (markets === null) throw new ApiError(400, 'market is required: condition ids, comma separated');
    const { limit } = request.query;
    const least = Math.max(request.query.minBalance * MICRO, 1);
    const block = readServedBlock(ctx.state).block;
    const answer: Array<Static<typeof VenueHolders>> = [];
    for (const id of markets) {
      const market = ctx.reads.market(id).market;
      const tokens = market?.tokens;
      if (!market || !tokens) continue;
      const held: Array<Array<{ wallet: string; shares: number }>> = [[], []];
      for (const holder of ctx.state.marketHolders(market.conditionId)) {
        holder.positions.forEach((own, i) => {
          // A wallet holding an outcome on both ledgers (a migrated market) holds the sum.
          const position = sumPositions(own, holder.migrated?.[i] ?? null);
          if (position && i < 2 && position.shares >= least)
            held[i]!.push({ wallet: holder.wallet, shares: position.shares });
        });
      }
      tokens.forEach((token, outcomeIndex) => {
        const asset = tokenIdToDecimal(token);
        const top = held[outcomeIndex]!.sort((a, b) => b.shares - a.shares || (a.wallet < b.wallet ? -1 : 1)).slice(
          0,
          limit,
        );
        answer.push({
          token: asset,
          holders: top.map(({ wallet, shares }) => {
            const profile = venueProfile(ctx, wallet);
            return {
              proxyWallet: wallet,
              asset,
              amount: shares / MICRO,
              outcomeIndex,
              displayUsernamePublic: profile.name !== '',
              ...profile,
            };
          }),
        });
      });
    }
    return venueAnswer(answer, block);
  },
});
