// LMDB keys. Strings whose byte order is the order the routes read in: a wallet's positions under its address,
// a market's wallets under its condition id, trade chunks by zero-padded block so ranges run in block order.

const BLOCK_WIDTH = 10;

export function blockKey(block: number): string {
  return block.toString().padStart(BLOCK_WIDTH, '0');
}

/** wallet (0x + 40 hex) + token (64 hex). */
export function positionKey(wallet: string, token: string): string {
  return wallet + token;
}

/** condition id + wallet: the wallets that ever held a position in the market. */
export function marketWalletKey(conditionId: string, wallet: string): string {
  return conditionId + wallet;
}

/** A market's trade rows of one block (market = condition id, or the token id for an unknown token). */
export function marketTradesKey(market: string, block: number): string {
  return market + ':' + blockKey(block);
}

/** A wallet's trade references of one block. */
export function walletTradesKey(wallet: string, block: number): string {
  return wallet + ':' + blockKey(block);
}

/** A feed answer by asset and update time. */
export function feedAnswerKey(asset: string, updatedAt: number, roundId: string): string {
  return asset + ':' + blockKey(updatedAt) + ':' + roundId;
}
