// The markets a Data API request names, by `market` (condition ids) or `eventId` (Gamma event ids, through the
// loaded metadata's events): null when it names none, which the route reads as every market it may.
import type { EventIndex } from '../search/eventIndex.js';
import type { RouteContext } from '../routeContext.js';

export function namedMarkets(
  ctx: RouteContext,
  events: EventIndex,
  filter: { markets: Set<string> | null; events: Set<number> | null },
): Set<string> | null {
  if (filter.markets !== null) return filter.markets;
  if (filter.events === null) return null;
  const named = new Set<string>();
  for (const id of filter.events) {
    for (const conditionId of events.findById(ctx.reads.offchainRevision(), id)?.conditionIds ?? []) {
      named.add(conditionId.padEnd(66, '0'));
    }
  }
  return named;
}
