// What the derive step remembers within one transaction: the maker fills of the match in progress (the taker
// row's counterparty is the first of them) and every fill by order hash (a fee module's refund in the same
// transaction lowers that fill's fee), and the V2 redemptions made for the AutoRedeemer.
import type { BookBuy, BookSell } from '../reducers/positionEvent.js';
import type { TradeRow } from '../state/tradeRow.js';
import { assert } from '../assert.js';

export interface PendingFill {
  event: BookBuy | BookSell;
  row: TradeRow;
}

export interface TxContext {
  tx: string;
  makers: string[];
  fills: Map<string, PendingFill>;
  /** Protocol V2 redemptions made for the AutoRedeemer, by position id: its Redemption event names the holder. */
  autoRedeemed: Map<string, number>;
}

export function createTxContext(): TxContext {
  return { tx: '', makers: [], fills: new Map(), autoRedeemed: new Map() };
}

/** Resets the context when the log moves to another transaction. */
export function enterTx(context: TxContext, tx: string): void {
  if (context.tx === tx) return;
  // A transaction hash as the log keeps it (0x + 32 bytes): '' is only the context before a block's first event.
  assert(tx.length === 66, 'an event names its transaction by its hash');
  context.tx = tx;
  context.makers.length = 0;
  // Clearing a map allocates a new table even when it is empty: most transactions leave both empty.
  if (context.fills.size > 0) context.fills.clear();
  if (context.autoRedeemed.size > 0) context.autoRedeemed.clear();
}
