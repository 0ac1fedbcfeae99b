// What the derive step reads and writes: the market registry (state kept by the fold's main thread) and the
// sink that receives position events for the wallet fold and trade rows for the fills table.
import type { VenueAddresses } from '../chain/venueAddresses.js';
import type { PositionEvent } from '../reducers/positionEvent.js';
import type { MarketRegistry } from '../state/marketRegistry.js';
import type { TradeRow } from '../state/tradeRow.js';

/** Why an event produced nothing although it was the venue's: counted, shown by ingest and health. */
export type SkipReason =
  | 'plumbing'
  | 'unknownCondition'
  | 'unresolvedRedemption'
  | 'unknownPool'
  | 'unknownNegRiskMarket'
  | 'unmatchedRefund'
  | 'tokenMismatch'
  | 'emptyFill'
  | 'nonBinaryCondition'
  | 'unsupportedV2Position';

export interface DeriveSink {
  positionEvent(event: PositionEvent): void;
  /** A trade row into the chunk of `market` (a condition id, or the token id when the token is unknown). */
  trade(market: string, row: TradeRow): void;
  skip(reason: SkipReason): void;
  /** A fresh slot for the basis of one wallet-to-wallet transfer. */
  nextSlot(): number;
}

export interface DeriveContext {
  addresses: VenueAddresses;
  registry: MarketRegistry;
  sink: DeriveSink;
  /** Venue contracts whose CTF events and transfers are plumbing (AMM pools join as the factory creates them). */
  isVenueContract(address: string): boolean;
  addVenueContract(address: string): void;
}

export interface BlockClock {
  block: number;
  ts: number;
}
