// The demo's Chainlink price feeds (one aggregator per asset): a seeded random walk sampled at every 15-minute
// boundary, published by AnswerUpdated(current, roundId, updatedAt) in a block shortly before the boundary, so
// a round's strike and close (the feed's last answers at or before its start and end, api/README.md) are
// the walk's values at those boundaries. The values are drawn ahead on demand, so a round knows its outcome
// when it is created. The aggregator also emits NewRound, which tally does not use.
import { KIND } from '../../engine/chain/chainEvent.js';
import type { DemoContext } from './demoContext.js';
import { DEMO_START_TS } from './demoTimeline.js';
import type { Prng } from './prng.js';

/** Feed address (lowercase) -> asset: the last 20 bytes of keccak256("tally-demo-chainlink-<ASSET>"). */
export const DEMO_PRICE_FEEDS: Record<string, string> = {
  '0x92d0c6c06654d4dcd41276956c73d2ea70abc2f1': 'BTC',
  '0x283c137dd950208af5eb1155b3b4456fecc7b911': 'ETH',
  '0xe020f8c3c9c125b001d07e263ad7a3b09a963862': 'SOL',
  '0x631b0477db45383daf4728f8656f7e13dcb748bd': 'XRP',
};

/** NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt). */
const NEW_ROUND_TOPIC = '0x0109fc6f55cf40689f02fbaad7af7fe7bbac8a3d2186600afc7d3e10cac60271';
const TRANSMITTER = '000000000000000000000000a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

const START_USD: Record<string, number> = { BTC: 108_000, ETH: 3_900, SOL: 185, XRP: 2.45 };
/** Standard deviation of one 15-minute step. */
const STEP_SIGMA: Record<string, number> = { BTC: 0.0025, ETH: 0.0035, SOL: 0.005, XRP: 0.005 };

export const SLOT_SECONDS = 900;

export interface PriceFeed {
  asset: string;
  address: string;
  /** Answer (8 decimals) at each 15-minute boundary since the start, drawn ahead as needed. */
  values: number[];
  roundId: number;
  prng: Prng;
}

export function createPriceFeeds(prng: Prng): PriceFeed[] {
  return Object.entries(DEMO_PRICE_FEEDS).map(([address, asset], i) => ({
    asset,
    address,
    values: [Math.round(START_USD[asset]! * 1e8)],
    roundId: 18_000 + i * 1_111,
    prng: prng.fork(i + 1),
  }));
}

/** The answer at boundary `slot` (DEMO_START_TS + 900 x slot). */
export function feedValueAt(feed: PriceFeed, slot: number): number {
  while (feed.values.length <= slot) {
    const last = feed.values[feed.values.length - 1]!;
    // Sum of three uniforms: a cheap, bounded stand-in for a normal step.
    const z = (feed.prng.float() + feed.prng.float() + feed.prng.float() - 1.5) * 2;
    feed.values.push(Math.max(1, Math.round(last * (1 + STEP_SIGMA[feed.asset]! * z))));
  }
  return feed.values[slot]!;
}

export function slotTs(slot: number): number {
  return DEMO_START_TS + slot * SLOT_SECONDS;
}

/** The aggregator publishes `value` now: AnswerUpdated then NewRound. */
export function publishAnswer(ctx: DemoContext, feed: PriceFeed, value: number): void {
  feed.roundId++;
  const roundIdHex = feed.roundId.toString(16).padStart(64, '0');
  ctx.capture.beginTx();
  ctx.capture.log(
    {
      kind: KIND.answerUpdated,
      logIndex: 0,
      txIndex: 0,
      tx: '',
      feed: feed.address,
      current: value,
      roundId: roundIdHex,
      updatedAt: ctx.ts,
    },
    feed.address,
  );
  ctx.capture.other(
    feed.address,
    [NEW_ROUND_TOPIC, '0x' + roundIdHex, '0x' + TRANSMITTER],
    '0x' + ctx.ts.toString(16).padStart(64, '0'),
  );
}
