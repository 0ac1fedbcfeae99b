// Events by slug (GET /v1/events/{eventSlug}) and by Gamma id (the Data API shapes' eventId): each event of the
// loaded metadata, its title and its markets' condition ids in metadata order, built once per off-chain revision
// as the market text index is.
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
  /** The event of a Gamma event id (metadata that kept `events[0].id`). */
  findById(revision: number, eventId: number): IndexedEvent | null;
}

interface Built {
  revision: number;
  bySlug: Map<string, IndexedEvent>;
  byId: Map<number, IndexedEvent>;
}

function build(offchain: OffchainStore, revision: number): Built {
  const built: Built = { revision, bySlug: new Map(), byId: new Map() };
  const add = <K>(events: Map<K, IndexedEvent>, key: K, market: MarketMetadata) => {
    let event = events.get(key);
    if (!event) events.set(key, (event = { title: null, conditionIds: [] }));
    event.title ??= market.eventTitle ?? null;
    event.conditionIds.push(market.conditionId);
  };
  for (const { value } of offchain.metadata.getRange({})) {
    const market = decodeValue<MarketMetadata>(value);
    if (market.eventSlug !== null) add(built.bySlug, market.eventSlug, market);
    if (market.eventId !== undefined) add(built.byId, market.eventId, market);
  }
  return built;
}

export function createEventIndex(offchain: OffchainStore): EventIndex {
  let built: Built | null = null;
  const current = (revision: number) => (built?.revision === revision ? built : (built = build(offchain, revision)));
  return {
    find: (revision, eventSlug) => current(revision).bySlug.get(eventSlug) ?? null,
    findById: (revision, eventId) => current(revision).byId.get(eventId) ?? null,
  };
}
