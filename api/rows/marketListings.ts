// The markets a search or an event lists: of the condition ids given (as the metadata names them), those the log
// prepared, each with its market object, fill count and whether it resolved, most fills first (then by id).
import type { Static } from 'typebox';
import type { MarketListing } from '../schemas/answerSchemas.js';
import type { RouteContext } from '../routeContext.js';
import { publicConditionId } from '../../engine/valuation/publicConditionId.js';

export function marketListings(ctx: RouteContext, conditionIds: string[]): Array<Static<typeof MarketListing>> {
  const listed = conditionIds
    .map((id) => ctx.reads.market(id))
    .filter((entry) => entry.market !== null)
    .map(({ market, view }) => ({
      conditionId: publicConditionId(market!),
      market: view,
      fills: market!.fills,
      resolved: market!.payoutDenominator > 0 && market!.payoutNumerators !== null,
    }));
  return listed.sort((a, b) => b.fills - a.fills || (a.conditionId < b.conditionId ? -1 : 1));
}
