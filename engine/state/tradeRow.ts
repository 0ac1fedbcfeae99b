// One fill as stored in a market's per-block trade chunk (engine/README.md, Chain model: one row per OrderFilled,
// owned by the order's maker, plus AMM pool trades). Amounts in micro-units; fee in `feeUnit`.

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

/** A trade row as stored in a chunk: a fixed array in TradeRow field order. */
export function encodeTradeRow(row: TradeRow): Array<string | number> {
  return [row.logIndex, row.tx, row.wallet, row.side, row.token, row.outcomeIndex, row.shares, row.usd, row.fee, row.feeUnit,
    row.role, row.counterparty, row.exchange];
}

export function decodeTradeRow(values: Array<string | number>): TradeRow {
  const [logIndex, tx, wallet, side, token, outcomeIndex, shares, usd, fee, feeUnit, role, counterparty, exchange] = values;
  return {
    logIndex: logIndex as number, tx: tx as string, wallet: wallet as string, side: side as number, token: token as string,
    outcomeIndex: outcomeIndex as number, shares: shares as number, usd: usd as number, fee: fee as number,
    feeUnit: feeUnit as number, role: role as number, counterparty: counterparty as string, exchange: exchange as number,
  };
}

/** A market's chunk of one block: the block's time, then its rows. */
export type TradeChunk = [ts: number, ...rows: Array<Array<string | number>>];
