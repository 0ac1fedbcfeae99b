// The Protocol V2 stack's contracts (docs/design.md 10): all venue contracts, so none is ever a wallet; the fold adds
// them to its venue set and the decoder routes their events.
import type { VenueAddresses } from './venueAddresses.js';

export function protocolV2Contracts(addresses: VenueAddresses): string[] {
  return [
    addresses.positionManager,
    addresses.binaryModule,
    addresses.negRiskModule,
    addresses.combinatorialModule,
    addresses.exchangeV3,
    addresses.v2Router,
    addresses.autoRedeemer,
  ];
}
