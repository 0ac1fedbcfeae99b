// One fill (engine/README.md, Chain model: one row per OrderFilled, owned by the order's maker, plus AMM pool
// trades) and its stored form. Amounts in micro-units; fee in `feeUnit`.

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

/**
 * A fill as stored in the fills table (engine/README.md, Data layout): fixed width, numbers first, then the
 * ids as raw bytes. The block is the key's; the market is the condition id, or the token id of a token no
 * condition explains.
 */
const ROW_BYTES = 176;
const MARKET_IS_TOKEN = 1;

function putHex(row: Buffer, offset: number, hex: string, bytes: number): void {
  const digits = hex.length === bytes * 2 ? hex : hex.slice(2);
  if (row.write(digits, offset, bytes, 'hex') !== bytes || digits.length !== bytes * 2) {
    throw new Error(`trade row: ${hex} is not ${bytes} bytes of hex`);
  }
}

export function encodeTradeRow(row: TradeRow, ts: number, market: string): Buffer {
  const bytes = Buffer.alloc(ROW_BYTES);
  bytes.writeUInt32BE(ts, 0);
  bytes.writeUInt32BE(row.logIndex, 4);
  bytes.writeInt8(row.outcomeIndex, 8);
  bytes.writeUInt8(row.side, 9);
  bytes.writeUInt8(row.feeUnit, 10);
  bytes.writeUInt8(row.role, 11);
  bytes.writeUInt8(row.exchange, 12);
  bytes.writeUInt8(market.startsWith('0x') ? 0 : MARKET_IS_TOKEN, 13);
  bytes.writeDoubleBE(row.shares, 16);
  bytes.writeDoubleBE(row.usd, 24);
  bytes.writeDoubleBE(row.fee, 32);
  putHex(bytes, 40, row.tx, 32);
  putHex(bytes, 72, row.wallet, 20);
  putHex(bytes, 92, row.counterparty, 20);
  putHex(bytes, 112, row.token, 32);
  putHex(bytes, 144, market, 32);
  return bytes;
}

export interface DecodedTradeRow { ts: number; market: string; row: TradeRow }

export function decodeTradeRow(bytes: Buffer): DecodedTradeRow {
  const hex = (offset: number, length: number) => bytes.toString('hex', offset, offset + length);
  const market = hex(144, 32);
  return {
    ts: bytes.readUInt32BE(0),
    market: bytes.readUInt8(13) === MARKET_IS_TOKEN ? market : '0x' + market,
    row: {
      logIndex: bytes.readUInt32BE(4), tx: '0x' + hex(40, 32), wallet: '0x' + hex(72, 20), side: bytes.readUInt8(9),
      token: hex(112, 32), outcomeIndex: bytes.readInt8(8), shares: bytes.readDoubleBE(16), usd: bytes.readDoubleBE(24),
      fee: bytes.readDoubleBE(32), feeUnit: bytes.readUInt8(10), role: bytes.readUInt8(11),
      counterparty: '0x' + hex(92, 20), exchange: bytes.readUInt8(12),
    },
  };
}
