// One fill (docs/design.md 2: one row per OrderFilled, owned by the order's maker, plus AMM pool
// trades) and its stored form. Amounts in micro-units; fee in `feeUnit`.
import { ID_SPACE } from '../log/idDictionary.js';
import { assert } from '../assert.js';

export const SIDE = { buy: 0, sell: 1 } as const;
export const FEE_UNIT = { usd: 0, shares: 1 } as const;
export const ROLE = { taker: 0, maker: 1 } as const;

export interface TradeRow {
  logIndex: number;
  tx: string;
  wallet: string;
  side: number;
  token: string;
  outcomeIndex: number;
  shares: number;
  usd: number;
  fee: number;
  feeUnit: number;
  role: number;
  counterparty: string;
  exchange: number;
}

/** The state ids (createStateIds) a stored row names instead of its texts. */
export interface RowIds {
  wallet: number;
  counterparty: number;
  token: number;
  /** The market's id space: a condition, or the token when no condition explains it. */
  marketSpace: number;
  market: number;
}

/** An id's text, for decoding (the state reader's cached lookup). */
export type IdText = (space: number, id: number) => string;

/** A fill and the ids it is stored with. */
export interface BlockFill {
  row: TradeRow;
  ids: RowIds;
}

/**
 * A block's fills as stored in the fills table (engine/README.md, Data layout): one value per block, so the
 * block's time and each of its transaction hashes are stored once, not once a fill, and a fill costs no key of
 * its own. A 12-byte header (ts, fills, transactions; u32 each), the transaction hashes (32 bytes each, in the
 * order the fills first name them), then one fixed-width row per fill in log-index order:
 *   0 logIndex u32, 4 transaction (its place in the hashes) u16, 6 outcomeIndex i8, 7 side, 8 feeUnit, 9 role,
 *   10 exchange, 11 marketSpace (u8 each), 12 shares, 20 usd, 28 fee (f64 each), 36 wallet, 40 counterparty,
 *   44 token, 48 market (state ids, u32 each).
 */
const HEADER_BYTES = 12;
const TX_BYTES = 32;
const ROW_BYTES = 52;

/** Where a block value's rows start: after its header and its transaction hashes. */
const rowsStart = (bytes: Buffer): number => HEADER_BYTES + bytes.readUInt32BE(8) * TX_BYTES;

/** Whether `at` is where one of the rows of the block's value starts. */
const isRowAt = (bytes: Buffer, at: number): boolean =>
  at >= rowsStart(bytes) &&
  (at - rowsStart(bytes)) % ROW_BYTES === 0 &&
  at < rowsStart(bytes) + bytes.readUInt32BE(4) * ROW_BYTES &&
  at + ROW_BYTES <= bytes.length;

export function encodeBlockFills(ts: number, fills: readonly BlockFill[]): Buffer {
  const txs = new Map<string, number>();
  for (const { row } of fills) if (!txs.has(row.tx)) txs.set(row.tx, txs.size);
  assert(txs.size <= 0xffff, 'trade rows: a block has no more transactions than a row can name');
  const rowsAt = HEADER_BYTES + txs.size * TX_BYTES;
  const bytes = Buffer.alloc(rowsAt + fills.length * ROW_BYTES);
  bytes.writeUInt32BE(ts, 0);
  bytes.writeUInt32BE(fills.length, 4);
  bytes.writeUInt32BE(txs.size, 8);
  for (const [tx, index] of txs) {
    // Hex stops being written at the first character that is not: a short write is a malformed tx.
    const written =
      tx.length === 66 && tx.startsWith('0x')
        ? bytes.write(tx.slice(2), HEADER_BYTES + index * TX_BYTES, TX_BYTES, 'hex')
        : 0;
    assert(written === TX_BYTES, 'trade row: a tx is 32 bytes of hex');
  }
  let previous = -1;
  fills.forEach(({ row, ids }, i) => {
    // Lookups binary-search the rows by log index.
    assert(row.logIndex > previous, 'trade rows: log indexes increase');
    // The fold stores a fill under its condition, or under its token (then the market's id is the token's).
    assert(
      ids.marketSpace === ID_SPACE.condition || (ids.marketSpace === ID_SPACE.token && ids.market === ids.token),
      "trade row: a fill's market is a condition, or its own token",
    );
    // Codes the fold sets from SIDE, FEE_UNIT and ROLE: a byte each, read back as those.
    assert(
      row.side <= SIDE.sell && row.feeUnit <= FEE_UNIT.shares && row.role <= ROLE.maker,
      'trade row: side, fee unit and role are codes',
    );
    previous = row.logIndex;
    const at = rowsAt + i * ROW_BYTES;
    bytes.writeUInt32BE(row.logIndex, at);
    bytes.writeUInt16BE(txs.get(row.tx)!, at + 4);
    bytes.writeInt8(row.outcomeIndex, at + 6);
    [row.side, row.feeUnit, row.role, row.exchange, ids.marketSpace].forEach((code, k) =>
      bytes.writeUInt8(code, at + 7 + k),
    );
    [row.shares, row.usd, row.fee].forEach((amount, k) => bytes.writeDoubleBE(amount, at + 12 + 8 * k));
    [ids.wallet, ids.counterparty, ids.token, ids.market].forEach((id, k) => bytes.writeUInt32BE(id, at + 36 + 4 * k));
  });
  assert(blockFillOffset(bytes, fills.length) === bytes.length, "a block's value ends with its last row");
  return bytes;
}

/** The fills a block's value holds. */
export function blockFillCount(bytes: Buffer): number {
  // Every value of the fills table is encodeBlockFills', which writes its header first.
  assert(bytes.length >= HEADER_BYTES, "a block's fills value holds its header");
  return bytes.readUInt32BE(4);
}

/** Where the block's `index`th fill (in log-index order) starts. */
export function blockFillOffset(bytes: Buffer, index: number): number {
  // The count itself is where the rows end (a scan copies a value up to there).
  assert(index >= 0 && index <= bytes.readUInt32BE(4), 'a fill offset is of a row of the block, or their end');
  return HEADER_BYTES + bytes.readUInt32BE(8) * TX_BYTES + index * ROW_BYTES;
}

/** Where the fill of `logIndex` starts in its block's value, -1 when the block has no such fill. */
export function findBlockFill(bytes: Buffer, logIndex: number): number {
  let low = 0;
  let high = blockFillCount(bytes) - 1;
  const rowsAt = blockFillOffset(bytes, 0);
  // A value as stored, or a scan's copy of one (its buffer may run on past the rows).
  assert(bytes.length >= blockFillOffset(bytes, high + 1), "a block's value holds every row its header counts");
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = bytes.readUInt32BE(rowsAt + middle * ROW_BYTES);
    if (found === logIndex) return rowsAt + middle * ROW_BYTES;
    if (found < logIndex) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

export interface DecodedTradeRow {
  ts: number;
  market: string;
  row: TradeRow;
}

/** The fill whose row starts at `at` in its block's value (findBlockFill, blockFillOffset). */
export function decodeTradeRow(bytes: Buffer, at: number, text: IdText): DecodedTradeRow {
  assert(isRowAt(bytes, at), 'a trade row is decoded where a row starts');
  // encodeBlockFills numbers a row's transaction among the block's hashes.
  assert(bytes.readUInt16BE(at + 4) < bytes.readUInt32BE(8), "a row names one of its block's transactions");
  const tx = HEADER_BYTES + bytes.readUInt16BE(at + 4) * TX_BYTES;
  return {
    ts: bytes.readUInt32BE(0),
    market: text(bytes[at + 11]!, bytes.readUInt32BE(at + 48)),
    row: {
      logIndex: bytes.readUInt32BE(at),
      tx: '0x' + bytes.toString('hex', tx, tx + TX_BYTES),
      wallet: text(ID_SPACE.address, bytes.readUInt32BE(at + 36)),
      side: bytes[at + 7]!,
      token: text(ID_SPACE.token, bytes.readUInt32BE(at + 44)),
      outcomeIndex: bytes.readInt8(at + 6),
      shares: bytes.readDoubleBE(at + 12),
      usd: bytes.readDoubleBE(at + 20),
      fee: bytes.readDoubleBE(at + 28),
      feeUnit: bytes[at + 8]!,
      role: bytes[at + 9]!,
      counterparty: text(ID_SPACE.address, bytes.readUInt32BE(at + 40)),
      exchange: bytes[at + 10]!,
    },
  };
}

/** A stored fill's numbers and ids, no texts: what scans over many fills read (the fills feed, counts, heat). */
export interface FillNumbers {
  ts: number;
  logIndex: number;
  outcomeIndex: number;
  side: number;
  feeUnit: number;
  role: number;
  exchange: number;
  shares: number;
  usd: number;
  fee: number;
  walletId: number;
  marketSpace: number;
  marketId: number;
}

export function decodeFillNumbers(bytes: Buffer, at: number): FillNumbers {
  return decodeFillNumbersInto(bytes, at, {} as FillNumbers);
}

/** The same into an object a scan reuses, so a long scan allocates nothing per fill. */
export function decodeFillNumbersInto(bytes: Buffer, at: number, fill: FillNumbers): FillNumbers {
  assert(isRowAt(bytes, at), "a fill's numbers are decoded where a row starts");
  fill.ts = bytes.readUInt32BE(0);
  fill.logIndex = bytes.readUInt32BE(at);
  fill.outcomeIndex = bytes.readInt8(at + 6);
  fill.side = bytes[at + 7]!;
  fill.feeUnit = bytes[at + 8]!;
  fill.role = bytes[at + 9]!;
  fill.exchange = bytes[at + 10]!;
  fill.marketSpace = bytes[at + 11]!;
  fill.shares = bytes.readDoubleBE(at + 12);
  fill.usd = bytes.readDoubleBE(at + 20);
  fill.fee = bytes.readDoubleBE(at + 28);
  fill.walletId = bytes.readUInt32BE(at + 36);
  fill.marketId = bytes.readUInt32BE(at + 48);
  // A row read at a wrong offset would show it first here: every stored fill's market is a condition or a token.
  assert(
    fill.marketSpace === ID_SPACE.condition || fill.marketSpace === ID_SPACE.token,
    "a stored fill's market is a condition or a token",
  );
  return fill;
}
