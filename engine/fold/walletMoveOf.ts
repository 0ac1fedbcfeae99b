// The wallet move a position event lists in /activity (engine/state/walletMove.ts), null for a trade or a transfer.
// A redemption's size is its payout, as the venue's Data API shows it: a CTF redemption names no share amounts.
import { assert } from '../assert.js';
import { POSITION_EVENT, type PositionEvent } from '../reducers/positionEvent.js';
import { conversionOut } from '../reducers/foldConversion.js';
import { MOVE_KIND, type WalletMove } from '../state/walletMove.js';

export type MoveOfEvent = Pick<WalletMove, 'kind' | 'market' | 'size' | 'usdc'>;

export function walletMoveOf(event: PositionEvent): MoveOfEvent | null {
  switch (event.kind) {
    case POSITION_EVENT.split:
    case POSITION_EVENT.merge: {
      const kind = event.kind === POSITION_EVENT.split ? MOVE_KIND.split : MOVE_KIND.merge;
      // A full set for `amount` collateral: its market the event's, or a set over many markets its first leg's.
      const market = event.markets[0] ?? event.market;
      return market === '' ? null : { kind, market, size: event.amount, usdc: event.amount };
    }
    case POSITION_EVENT.redemption:
      return event.market === ''
        ? null
        : { kind: MOVE_KIND.redemption, market: event.market, size: event.payout, usdc: event.payout };
    case POSITION_EVENT.conversion: {
      // foldConversion's rule: each NO leg gives `amount`, and k-1 sets' worth, less the fee, comes back as cash.
      assert(event.noMarkets.length > 0, 'a conversion converts a NO leg at least');
      return {
        kind: MOVE_KIND.conversion,
        market: event.noMarkets[0]!,
        size: event.amount,
        usdc: (event.noMarkets.length - 1) * conversionOut(event),
      };
    }
    default:
      return null;
  }
}
