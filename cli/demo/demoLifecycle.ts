// The demo venue's schedule: how many markets of each kind a fill budget calls for, the standard binary markets
// and neg-risk events (created in a steady stream that keeps the open count level), and the start of the
// feeds, rounds and AMM era.
import { encodeAbiParameters, keccak256 } from 'viem';
import { negRiskQuestionId } from '../../engine/chain/positionIds.js';
import { createAmmMarket } from './demoAmmEra.js';
import { NEG_RISK_OPERATOR, UMA_ORACLE } from './demoContext.js';
import { asciiHex, prepareCondition, prepareNegRiskEvent, resolveMarket } from './demoCtf.js';
import {
  DAY,
  decidePayouts,
  pickCategory,
  pickMakers,
  registerNow,
  scheduleEnd,
  scheduleSweep,
  writeMetadata,
} from './demoMarketLife.js';
import { createMarket, MARKET_KIND, type DemoEvent } from './demoMarkets.js';
import { binaryMarketText, negRiskEventText } from './demoMetadata.js';
import { startFeedsAndRounds } from './demoRounds.js';
import {
  AMM_ERA_END_BLOCK,
  blockAtOrAfter,
  blockAtOrBefore,
  DEMO_END_TS,
  DEMO_FIRST_BLOCK,
  DEMO_START_TS,
} from './demoTimeline.js';
import { scheduleAt, type DemoWorld } from './demoWorld.js';

const clamp = (value: number, low: number, high: number) => Math.max(low, Math.min(high, Math.round(value)));

/** How many markets of each kind are open at once, and how often rounds run, for a fill budget. */
export interface DemoScale {
  openBinary: number;
  openNegRisk: number;
  preexisting: number;
  roundsPerAssetPerDay: number;
  pools: number;
  ammTrades: number;
  /** Feed heartbeat between round boundaries, in 15-minute slots. */
  heartbeatSlots: number;
}

export function demoScale(fills: number): DemoScale {
  const openBinary = clamp(fills / 4_000, 10, 4_000);
  return {
    openBinary,
    openNegRisk: clamp(fills / 25_000, 2, 800),
    preexisting: clamp(openBinary * 0.08, 2, 200),
    roundsPerAssetPerDay: clamp(fills / 40_000, 2, 96),
    pools: clamp(fills / 20_000, 3, 200),
    ammTrades: clamp(fills * 0.01, 60, 200_000),
    heartbeatSlots: fills < 1_000_000 ? 16 : 4,
  };
}

/** Mean market lifetime in days (log-uniform 2..25). */
const MEAN_LIFETIME_DAYS = 23 / Math.log(12.5);

/** A standard binary market: created now (or, if preexisting, before the capture with no logs here). */
function createBinary(world: DemoWorld, preexisting: boolean): void {
  const ctx = world.ctx;
  const prng = ctx.prng;
  const category = pickCategory(world);
  const openTs = preexisting ? DEMO_START_TS - Math.round(prng.logUniform(1, 30) * DAY) : ctx.ts;
  // A preexisting market stays open long enough for its old holders to sell in the capture.
  const closeTs = Math.max(ctx.ts + (preexisting ? 10 : 1) * DAY, openTs + Math.round(prng.logUniform(2, 25) * DAY));
  const seq = world.marketSeq++;
  const market = createMarket({
    seq,
    kind: MARKET_KIND.binary,
    oracle: UMA_ORACLE,
    questionId: '0x' + prng.hex64(),
    collateral: ctx.addresses.usdc,
    negRisk: false,
    event: null,
    questionIndex: 0,
    category,
    openTs,
    closeTs,
    payouts: decidePayouts(world),
    price: 150 + prng.int(700),
    prng,
  });
  market.makers = pickMakers(world, 2 + prng.int(2));
  market.takerFeeBps = prng.chance(0.3) ? prng.pick([100, 200, 300, 500, 1000]) : 0;
  market.v2FeeBps = prng.chance(0.5) ? prng.pick([100, 300, 500, 720]) : 0;
  market.preexisting = preexisting;
  const text = binaryMarketText(category, prng, seq, closeTs);
  if (preexisting) {
    world.marketCounts.preexisting++;
    // Shares bought before the capture: only their sale is in it.
    for (const wallet of ctx.population.partialHistory) {
      if (!prng.chance(0.6)) continue;
      const outcome = prng.int(2);
      const held = market.holdings.get(wallet) ?? [0, 0];
      held[outcome] = held[outcome]! + Math.round(prng.logUniform(20, 800)) * 1_000_000;
      market.holdings.set(wallet, held);
      world.partialHoldings.push({ wallet, market });
    }
  } else {
    prepareCondition(ctx, market, registerNow(world));
  }
  world.marketCounts.binary++;
  writeMetadata(world, market, text, ['Yes', 'No'], { slug: text.slug, title: text.question }, {});
  market.open = true;
  world.regular.add(market);
  scheduleEnd(world, market, 3_600 + prng.int(30 * 3_600));
}

/** keccak256(abi.encode(oracle, feeBips, metadata)) with the low byte cleared (docs/venue.md 4). */
function negRiskMarketId(feeBips: number, metadata: string): string {
  const encoded = encodeAbiParameters(
    [{ type: 'address' }, { type: 'uint256' }, { type: 'bytes' }],
    [NEG_RISK_OPERATOR, BigInt(feeBips), metadata as `0x${string}`],
  );
  return keccak256(encoded).slice(0, 64) + '00';
}

function createNegRiskEvent(world: DemoWorld): void {
  const ctx = world.ctx;
  const prng = ctx.prng;
  const adapter = ctx.addresses.negRiskAdapter;
  const category = prng.chance(0.15)
    ? null
    : prng.pick(['Politics', 'Sports', 'Economics', 'Weather', 'Tech', 'Culture']);
  const count = 3 + prng.int(6);
  const seq = world.eventSeq++;
  const closeTs = ctx.ts + Math.round(prng.logUniform(2, 25) * DAY);
  const text = negRiskEventText(category, prng, seq, count, closeTs);
  const metadata = asciiHex(text.slug);
  const feeBips = prng.chance(0.2) ? prng.pick([50, 100, 200]) : 0;
  const event: DemoEvent = {
    seq,
    marketId: negRiskMarketId(feeBips, metadata),
    feeBips,
    category,
    slug: text.slug,
    title: text.title,
    questions: [],
    winner: prng.int(count),
    open: true,
  };
  // Prices: a random split of 1 over the questions, the winner not always the favourite.
  const weights = Array.from({ length: count }, () => prng.float() ** 2 + 0.05);
  const total = weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < count; i++) {
    const questionId = negRiskQuestionId(event.marketId, i);
    const market = createMarket({
      seq: world.marketSeq++,
      kind: MARKET_KIND.negRisk,
      oracle: adapter,
      questionId,
      collateral: ctx.addresses.wrappedCollateral,
      negRisk: true,
      event,
      questionIndex: i,
      category,
      openTs: ctx.ts,
      closeTs,
      payouts: i === event.winner ? [1, 0] : [0, 1],
      price: Math.max(5, Math.min(950, Math.round((1000 * weights[i]!) / total))),
      prng,
    });
    market.makers = pickMakers(world, 2 + prng.int(2));
    market.takerFeeBps = prng.chance(0.2) ? prng.pick([100, 200]) : 0;
    market.v2FeeBps = prng.chance(0.5) ? prng.pick([100, 300]) : 0;
    event.questions.push(market);
  }
  prepareNegRiskEvent(ctx, event, metadata, registerNow(world));
  world.marketCounts.negRiskEvents++;
  world.marketCounts.negRiskQuestions += count;
  for (const market of event.questions) {
    const question = text.questions[market.questionIndex]!;
    writeMetadata(
      world,
      market,
      question,
      ['Yes', 'No'],
      { slug: text.slug, title: text.title },
      {
        negRiskMarketID: event.marketId,
        groupItemTitle: question.groupItemTitle,
        groupItemThreshold: String(market.questionIndex),
      },
    );
    market.open = true;
    world.regular.add(market);
  }
  world.negEvents.push(event);
  const closeBlock = blockAtOrBefore(closeTs);
  scheduleAt(world, closeBlock, () => {
    event.open = false;
    const index = world.negEvents.indexOf(event);
    if (index >= 0) world.negEvents.splice(index, 1);
    for (const market of event.questions) {
      market.open = false;
      world.regular.remove(market);
    }
  });
  // The operator reports each question in turn, a few blocks apart.
  let resolveBlock = blockAtOrAfter(closeTs + 3_600 + prng.int(20 * 3_600));
  for (const market of event.questions) {
    scheduleAt(world, resolveBlock, () => {
      resolveMarket(ctx, market);
      scheduleSweep(world, market, 0);
    });
    resolveBlock += 1 + prng.int(5);
  }
}

/** Schedules the whole venue: feeds and rounds, the AMM era, binary markets and neg-risk events. */
export function startLifecycle(world: DemoWorld, scale: DemoScale): void {
  const ctx = world.ctx;
  const prng = ctx.prng;
  startFeedsAndRounds(world, scale.roundsPerAssetPerDay, scale.heartbeatSlots);

  // Preexisting and initial markets in the first hour, then a steady stream that keeps the open count level.
  const first = DEMO_FIRST_BLOCK + 1;
  world.scheduler.at(first, () => {
    for (let i = 0; i < scale.preexisting; i++) createBinary(world, true);
  });
  for (let i = 0; i < scale.openBinary; i++)
    world.scheduler.at(first + 1 + prng.int(1_800), () => createBinary(world, false));
  for (let i = 0; i < scale.openNegRisk; i++)
    world.scheduler.at(first + 1 + prng.int(1_800), () => createNegRiskEvent(world));
  const binaryEvery = Math.max(1, Math.round((MEAN_LIFETIME_DAYS * DAY) / 2 / scale.openBinary));
  const negRiskEvery = Math.max(1, Math.round((MEAN_LIFETIME_DAYS * DAY) / 2 / scale.openNegRisk));
  const lastCreation = blockAtOrBefore(DEMO_END_TS - 2 * DAY);
  const binaryStream = (): void => {
    createBinary(world, false);
    const next = ctx.block + 1 + prng.int(2 * binaryEvery);
    if (next < lastCreation) world.scheduler.at(next, binaryStream);
  };
  const negRiskStream = (): void => {
    createNegRiskEvent(world);
    const next = ctx.block + 1 + prng.int(2 * negRiskEvery);
    if (next < lastCreation) world.scheduler.at(next, negRiskStream);
  };
  world.scheduler.at(first + 1_800 + prng.int(binaryEvery), binaryStream);
  world.scheduler.at(first + 1_800 + prng.int(negRiskEvery), negRiskStream);

  const ammSpread = Math.max(1, Math.floor((AMM_ERA_END_BLOCK - first) * 0.3));
  for (let i = 0; i < scale.pools; i++)
    world.scheduler.at(first + 10 + prng.int(ammSpread), () => createAmmMarket(world, scale.pools, scale.ammTrades));
}
