// Trade (spec 2.4): one fill as an answer row, amounts in USD and shares, the fee in its own unit.
import { EXCHANGE_LABEL, type ExchangeCode } from '../../engine/chain/chainEvent.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import type { StoredFill } from '../../engine/state/storedFill.js';
import { FEE_UNIT, ROLE, SIDE } from '../../engine/state/tradeRow.js';
import { MICRO } from '../microUnits.js';

export interface TradeView {
  ts: number;
  block: number;
  logIndex: number;
  tx: string;
  wallet: string;
  side: 'BUY' | 'SELL';
  asset: string;
  conditionId: string | null;
  outcomeIndex: number;
  price: number;
  size: number;
  usd: number;
  fee: number;
  feeUnit: 'usd' | 'shares';
  role: 'taker' | 'maker';
  counterparty: string;
  exchange: string;
}

/**
 * `conditionId` is the id answers show for the fill's market (publicConditionId); a fill stored under a token id
 * (no condition explains the token) has none.
 */
export function tradeView({ row, ts, block }: StoredFill, conditionId: string | null): TradeView {
  return {
    ts,
    block,
    logIndex: row.logIndex,
    tx: row.tx,
    wallet: row.wallet,
    side: row.side === SIDE.buy ? 'BUY' : 'SELL',
    asset: tokenIdToDecimal(row.token),
    conditionId,
    outcomeIndex: row.outcomeIndex,
    price: row.shares > 0 ? row.usd / row.shares : 0,
    size: row.shares / MICRO,
    usd: row.usd / MICRO,
    fee: row.fee / MICRO,
    feeUnit: row.feeUnit === FEE_UNIT.shares ? 'shares' : 'usd',
    role: row.role === ROLE.taker ? 'taker' : 'maker',
    counterparty: row.counterparty,
    exchange: EXCHANGE_LABEL[row.exchange as ExchangeCode] ?? String(row.exchange),
  };
}

/** A trade cursor "ts,block,logIndex" (spec 4.2, 4.8). */
export function tradeCursor(view: { ts: number; block: number; logIndex: number }): string {
  return `${view.ts},${view.block},${view.logIndex}`;
}

/** A trade cursor's form, `ts,block,logIndex`, as a pattern's text (the OpenAPI document shows it). */
export const TRADE_CURSOR_PATTERN = '^\\d{1,12},\\d{1,12},\\d{1,9}$';

export function parseTradeCursor(text: string): { ts: number; block: number; logIndex: number } | null {
  const match = /^(\d{1,12}),(\d{1,12}),(\d{1,9})$/.exec(text);
  return match ? { ts: Number(match[1]), block: Number(match[2]), logIndex: Number(match[3]) } : null;
}
