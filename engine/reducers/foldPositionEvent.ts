// The wallet fold's one dispatcher: applies a position event to the positions it names. Positions come from a
// book (loaded or created by the caller); transferred basis passes through a channel, because the two ends of
// a transfer may be folded by different workers.
import { foldAmmBuy } from './foldAmmBuy.js';
import { foldAmmReceive } from './foldAmmReceive.js';
import { foldAmmSell } from './foldAmmSell.js';
import { foldBookBuy } from './foldBookBuy.js';
import { foldBookSell } from './foldBookSell.js';
import { foldConversion } from './foldConversion.js';
import { foldMerge } from './foldMerge.js';
import { foldRedemption } from './foldRedemption.js';
import { foldRestructure } from './foldRestructure.js';
import { foldSplit } from './foldSplit.js';
import { foldTransferIn } from './foldTransferIn.js';
import { foldTransferOut } from './foldTransferOut.js';
import type { Position } from './position.js';
import { POSITION_EVENT, type PositionEvent } from './positionEvent.js';
import { AssertionFailure } from '../assert.js';

export interface PositionBook<Id = string> {
  /** The wallet's position in the token, created empty if it has none. */
  position(wallet: Id, token: Id): Position;
}

export interface BasisChannel {
  publish(slot: number, basis: number): void;
  receive(slot: number): number;
}

export function foldPositionEvent<Id>(book: PositionBook<Id>, event: PositionEvent<Id>, channel: BasisChannel): void {
  const wallet = event.wallet;
  switch (event.kind) {
    case POSITION_EVENT.bookBuy:
      foldBookBuy(book.position(wallet, event.token), event);
      return;
    case POSITION_EVENT.bookSell:
      foldBookSell(book.position(wallet, event.token), event);
      return;
    case POSITION_EVENT.split:
      foldSplit(
        event.tokens.map((token) => book.position(wallet, token)),
        event,
      );
      return;
    case POSITION_EVENT.merge:
      foldMerge(
        event.tokens.map((token) => book.position(wallet, token)),
        event,
      );
      return;
    case POSITION_EVENT.redemption:
      foldRedemption(
        event.tokens.map((token) => book.position(wallet, token)),
        event,
      );
      return;
    case POSITION_EVENT.ammBuy:
      foldAmmBuy(book.position(wallet, event.token), event);
      return;
    case POSITION_EVENT.ammSell:
      foldAmmSell(book.position(wallet, event.token), event);
      return;
    case POSITION_EVENT.ammReceive:
      foldAmmReceive(book.position(wallet, event.token), event);
      return;
    case POSITION_EVENT.transferOut:
      channel.publish(event.slot, foldTransferOut(book.position(wallet, event.token), event));
      return;
    case POSITION_EVENT.transferIn:
      foldTransferIn(book.position(wallet, event.token), event, channel.receive(event.slot));
      return;
    case POSITION_EVENT.conversion:
      foldConversion(
        event.noTokens.map((token) => book.position(wallet, token)),
        event.yesTokens.map((token) => book.position(wallet, token)),
        event,
      );
      return;
    case POSITION_EVENT.restructure:
      foldRestructure(
        event.burnTokens.map((token) => book.position(wallet, token)),
        event.mintTokens.map((token) => book.position(wallet, token)),
        event,
      );
      return;
    default: {
      const unknown: never = event;
      throw new AssertionFailure(`foldPositionEvent: unknown position event ${JSON.stringify(unknown)}`);
    }
  }
}
