// Events by slug (GET /v1/events/{eventSlug}): each event slug of the loaded metadata, its title and its markets'
// condition ids in metadata order, built once per off-chain revision as the market text index is.
import { decodeValue } from '../../engine/state/stateCodec.js';
import type { MarketMetadata } from '../../engine/offchain/marketMetadata.js';
import type { OffchainStore } from '../../engine/offchain/openOffchainStore.js';

export interface IndexedEvent {
  /** The first title a market of the event carries; null when none does. */
  title: string | null;
  conditionIds: string[];
}

export interface EventIndex {
  find(revision: number, eventSlug: string): IndexedEvent | null;
}

function build(offchain: OffchainStore): Map<string, IndexedEvent> {
  const events = new Map<string, IndexedEvent>();
  for (const { value } of offchain.metadata.getRange({})) {
    const market = decodeValue<MarketMetadata>(value);
    if (market.eventSlug === null) continue;
    let event = events.get(market.eventSlug);
    if (!event) events.set(market.eventSlug, (event = { title: null, conditionIds: [] }));
    event.title ??= market.eventTitle ?? null;
    event.conditionIds.push(market.conditionId);
  }
  return events;
}

export function createEventIndex(offchain: OffchainStore): EventIndex {
  let built: { revision: number; events: Map<string, IndexedEvent> } | null = null;
  return {
    find(revision, eventSlug) {
      if (built?.revision !== revision) built = { revision, events: build(offchain) };
      return built.events.get(eventSlug) ?? null;
    },
  };
}
