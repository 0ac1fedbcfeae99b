// One fill as stored in a market's per-block trade chunk (DESIGN.md section 2: one row per OrderFilled,
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
