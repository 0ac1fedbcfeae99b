// One fill (engine/README.md, Chain model: one row per OrderFilled, owned by the order's maker, plus AMM pool
// trades) and its stored form. Amounts in micro-units; fee in `feeUnit`.
import { ID_SPACE } from '../log/idDictionary.js';

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

/**
 * A fill as stored in the fills table (engine/README.md, Data layout): 88 bytes, fixed width, numbers first,
 * then the tx hash and the ids of wallet, counterparty, token and market. The block is the key's.
 */
const ROW_BYTES = 88;

export function encodeTradeRow(row: TradeRow, ts: number, ids: RowIds): Buffer {
  const bytes = Buffer.alloc(ROW_BYTES);
  bytes.writeUInt32BE(ts, 0);
  bytes.writeUInt32BE(row.logIndex, 4);
  bytes.writeInt8(row.outcomeIndex, 8);
  bytes.writeUInt8(row.side, 9);
  bytes.writeUInt8(row.feeUnit, 10);
  bytes.writeUInt8(row.role, 11);
  bytes.writeUInt8(row.exchange, 12);
  bytes.writeUInt8(ids.marketSpace, 13);
  bytes.writeDoubleBE(row.shares, 16);
  bytes.writeDoubleBE(row.usd, 24);
  bytes.writeDoubleBE(row.fee, 32);
  if (row.tx.length !== 66 || bytes.write(row.tx.slice(2), 40, 32, 'hex') !== 32) throw new Error(`trade row: tx ${row.tx} is not 32 bytes of hex`);
  bytes.writeUInt32BE(ids.wallet, 72);
  bytes.writeUInt32BE(ids.counterparty, 76);
  bytes.writeUInt32BE(ids.token, 80);
  bytes.writeUInt32BE(ids.market, 84);
  return bytes;
}

export interface DecodedTradeRow { ts: number; market: string; row: TradeRow }

export function decodeTradeRow(bytes: Buffer, text: IdText): DecodedTradeRow {
  return {
    ts: bytes.readUInt32BE(0),
    market: text(bytes.readUInt8(13), bytes.readUInt32BE(84)),
    row: {
      logIndex: bytes.readUInt32BE(4), tx: '0x' + bytes.toString('hex', 40, 72), wallet: text(ID_SPACE.address, bytes.readUInt32BE(72)),
      side: bytes.readUInt8(9), token: text(ID_SPACE.token, bytes.readUInt32BE(80)), outcomeIndex: bytes.readInt8(8),
      shares: bytes.readDoubleBE(16), usd: bytes.readDoubleBE(24), fee: bytes.readDoubleBE(32), feeUnit: bytes.readUInt8(10),
      role: bytes.readUInt8(11), counterparty: text(ID_SPACE.address, bytes.readUInt32BE(76)), exchange: bytes.readUInt8(12),
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

export function decodeFillNumbers(bytes: Buffer): FillNumbers {
  return decodeFillNumbersInto(bytes, {} as FillNumbers);
}

/** The same into an object a scan reuses, so a long scan allocates nothing per fill. */
export function decodeFillNumbersInto(bytes: Buffer, fill: FillNumbers): FillNumbers {
  fill.ts = bytes.readUInt32BE(0);
  fill.logIndex = bytes.readUInt32BE(4);
  fill.outcomeIndex = bytes.readInt8(8);
  fill.side = bytes[9]!;
  fill.feeUnit = bytes[10]!;
  fill.role = bytes[11]!;
  fill.exchange = bytes[12]!;
  fill.shares = bytes.readDoubleBE(16);
  fill.usd = bytes.readDoubleBE(24);
  fill.fee = bytes.readDoubleBE(32);
  fill.walletId = bytes.readUInt32BE(72);
  fill.marketSpace = bytes[13]!;
  fill.marketId = bytes.readUInt32BE(84);
  return fill;
}
