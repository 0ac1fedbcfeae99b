// The demo venue's markets: binary markets, neg-risk events and their questions, 15-minute crypto rounds and
// AMM-era markets, each with real ids (conditionId and both token ids computed as the CTF does), a price
// process, the makers that quote it and the holdings of every wallet in it. A market's holdings are dropped
// once it is resolved and swept for redemptions, so memory follows the open markets, not the whole history.
import { AssertionFailure } from '../../engine/assert.js';
import { conditionIdOf, outcomeTokenIds } from '../../engine/chain/positionIds.js';
import type { Prng } from './prng.js';

export const MARKET_KIND = { binary: 0, negRisk: 1, updown: 2, amm: 3 } as const;
export type MarketKind = (typeof MARKET_KIND)[keyof typeof MARKET_KIND];

export interface UpDownRound {
  asset: string;
  feed: string;
  startTs: number;
  endTs: number;
  up: boolean;
}

export interface DemoPool {
  address: string;
  /** The pool's outcome-token balances (micro shares). */
  balances: [number, number];
  lpSupply: number;
  /** Collateral collected as fees and not yet withdrawn. */
  feePool: number;
  /** LP shares per funder. */
  lp: Map<number, number>;
  /** 10^18-scaled fee (2% = 2e16). */
  feeWad: bigint;
}

export interface DemoEvent {
  seq: number;
  marketId: string;
  feeBips: number;
  category: string | null;
  slug: string;
  title: string;
  questions: DemoMarket[];
  /** The question whose YES wins. */
  winner: number;
  open: boolean;
}

export interface DemoMarket {
  seq: number;
  kind: MarketKind;
  conditionId: string;
  questionId: string;
  oracle: string;
  /** Token ids (64 hex, no 0x) of outcome 0 and outcome 1. */
  tokens: [string, string];
  negRisk: boolean;
  event: DemoEvent | null;
  questionIndex: number;
  category: string | null;
  /** Outcome 0's price in thousandths (1..999). */
  price: number;
  /** Popularity in (0, 1]: a market is picked with this acceptance probability. */
  weight: number;
  /** Market-maker wallet ids quoting this market. */
  makers: number[];
  /** V1 fee rate (bps) of taker orders; V2 operator fee rate (bps) for takers. */
  takerFeeBps: number;
  v2FeeBps: number;
  openTs: number;
  closeTs: number;
  /** Payout numerators decided at creation; the price drifts toward them. */
  payouts: [number, number];
  open: boolean;
  resolved: boolean;
  /** Prepared before the capture starts: its ConditionPreparation is not in the capture. */
  preexisting: boolean;
  /** wallet id -> [outcome 0 shares, outcome 1 shares] (micro). */
  holdings: Map<number, [number, number]>;
  pool: DemoPool | null;
  round: UpDownRound | null;
  /** Index in the open-market list holding it (for O(1) removal), -1 when in none. */
  listIndex: number;
}

export interface MarketInit {
  seq: number;
  kind: MarketKind;
  oracle: string;
  questionId: string;
  collateral: string;
  negRisk: boolean;
  event: DemoEvent | null;
  questionIndex: number;
  category: string | null;
  openTs: number;
  closeTs: number;
  payouts: [number, number];
  price: number;
  prng: Prng;
}

export function createMarket(init: MarketInit): DemoMarket {
  const conditionId = conditionIdOf(init.oracle, init.questionId, 2);
  return {
    seq: init.seq,
    kind: init.kind,
    conditionId,
    questionId: init.questionId,
    oracle: init.oracle,
    tokens: outcomeTokenIds(conditionId, init.collateral),
    negRisk: init.negRisk,
    event: init.event,
    questionIndex: init.questionIndex,
    category: init.category,
    price: init.price,
    weight: 0.15 + 0.85 * init.prng.float() ** 2,
    makers: [],
    takerFeeBps: 0,
    v2FeeBps: 0,
    openTs: init.openTs,
    closeTs: init.closeTs,
    payouts: init.payouts,
    open: false,
    resolved: false,
    preexisting: false,
    holdings: new Map(),
    pool: null,
    round: null,
    listIndex: -1,
  };
}

export function balanceOf(market: DemoMarket, wallet: number, outcome: number): number {
  const held = market.holdings.get(wallet);
  return held === undefined ? 0 : held[outcome]!;
}

export function addBalance(market: DemoMarket, wallet: number, outcome: number, delta: number): void {
  let held = market.holdings.get(wallet);
  if (held === undefined) {
    held = [0, 0];
    market.holdings.set(wallet, held);
  }
  held[outcome] = held[outcome]! + delta;
  if (held[outcome]! < 0)
    throw new AssertionFailure(
      `demo: wallet ${wallet} went short ${-held[outcome]!} of ${market.conditionId}/${outcome}`,
    );
}

/**
 * Moves the market's price one step: a random walk pulled toward the decided outcome as the close nears,
 * so late trades look informed and settled markets end near 0 or 1.
 */
export function stepPrice(market: DemoMarket, ts: number, prng: Prng): void {
  const span = Math.max(1, market.closeTs - market.openTs);
  const elapsed = Math.min(1, Math.max(0, (ts - market.openTs) / span));
  const target = market.payouts[0] === market.payouts[1] ? 500 : market.payouts[0]! > 0 ? 990 : 10;
  const noise = (prng.float() - 0.5) * 30 * (1 - 0.7 * elapsed);
  const pull = 0.002 + 0.05 * elapsed ** 4;
  let next = market.price + noise + (target - market.price) * pull;
  if (market.round !== null) {
    const round = market.round;
    const progress = Math.min(1, Math.max(0, (ts - round.startTs) / 900));
    const direction = round.up ? 1 : -1;
    next = 500 + direction * (320 * progress + 150 * progress ** 4) + (prng.float() - 0.5) * 160 * (1 - progress);
  }
  market.price = Math.min(995, Math.max(5, next));
}

/**
 * The price (thousandths) of `outcome` for an order now: on the 0.01 tick, or the 0.001 tick near the extremes
 * (as the venue allows), always within 1..999.
 */
export function orderPrice(market: DemoMarket, outcome: number): number {
  const raw = outcome === 0 ? market.price : 1000 - market.price;
  const ticked = raw >= 50 && raw <= 950 ? Math.round(raw / 10) * 10 : Math.round(raw);
  return Math.min(999, Math.max(1, ticked));
}
