// LMDB keys. Strings whose byte order is the order the routes read in: a wallet's positions under its address,
// a market's wallets under its condition id, fills by zero-padded block and log index so ranges run in chain order.

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

const LOG_INDEX_WIDTH = 6;
const BUCKET_WIDTH = 8;

/** A fill in the fills table: its block, then its log index, so the table runs in chain order. */
export function fillKey(block: number, logIndex: number): string {
  return blockKey(block) + logIndex.toString().padStart(LOG_INDEX_WIDTH, '0');
}

/** One bucket of a wallet's or a market's fill list (see createFillLists). */
export function fillListKey(owner: string, bucket: number): string {
  return owner + ':' + bucket.toString().padStart(BUCKET_WIDTH, '0');
}

/** A feed answer by asset and update time. */
export function feedAnswerKey(asset: string, updatedAt: number, roundId: string): string {
  return asset + ':' + blockKey(updatedAt) + ':' + roundId;
}
