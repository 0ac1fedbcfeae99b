// The 15-minute crypto Up/Down rounds and the Chainlink feeds that settle them: per asset, the feed publishes
// its answer shortly before every round boundary (plus a heartbeat), and a round is listed well before its
// start, trades until its end and resolves Up when the close is at or above the strike.
import { prepareCondition } from './demoCtf.js';
import { UPDOWN_ORACLE } from './demoContext.js';
import { feedValueAt, publishAnswer, SLOT_SECONDS, slotTs, type PriceFeed } from './demoFeeds.js';
import { registerNow, scheduleEnd, writeMetadata } from './demoMarketLife.js';
import { createMarket, MARKET_KIND } from './demoMarkets.js';
import { updownText } from './demoMetadata.js';
import { blockAtOrBefore, DEMO_DAYS, DEMO_END_TS, DEMO_FIRST_BLOCK } from './demoTimeline.js';
import type { DemoWorld } from './demoWorld.js';

/**
 * One 15-minute round of an asset: listed well before its start (so an asset always has an open round), settled by the
 * feed.
 */
function createRound(world: DemoWorld, feed: PriceFeed, slot: number): void {
  const ctx = world.ctx;
  const prng = ctx.prng;
  const startTs = slotTs(slot);
  const endTs = startTs + SLOT_SECONDS;
  const up = feedValueAt(feed, slot + 1) >= feedValueAt(feed, slot);
  const market = createMarket({
    seq: world.marketSeq++,
    kind: MARKET_KIND.updown,
    oracle: UPDOWN_ORACLE,
    questionId: '0x' + prng.hex64(),
    collateral: ctx.addresses.usdc,
    negRisk: false,
    event: null,
    questionIndex: 0,
    category: 'Crypto',
    openTs: ctx.ts,
    closeTs: endTs - 10,
    payouts: up ? [1, 0] : [0, 1],
    price: 500,
    prng,
  });
  market.round = { asset: feed.asset, feed: feed.address, startTs, endTs, up };
  market.makers =
    world.roundMakers.length > 2
      ? [prng.pick(world.roundMakers), prng.pick(world.roundMakers)]
      : world.roundMakers.slice();
  market.takerFeeBps = prng.chance(0.5) ? 100 : 0;
  market.v2FeeBps = 720;
  prepareCondition(ctx, market, registerNow(world));
  world.marketCounts.updown++;
  const text = updownText(feed.asset, startTs);
  writeMetadata(world, market, text, ['Up', 'Down'], { slug: text.slug, title: text.question }, {});
  market.open = true;
  world.rounds.add(market);
  scheduleEnd(world, market, 30 + prng.int(120));
}

/** Per asset: the feed's answers at round boundaries and a heartbeat, and the rounds themselves. */
export function startFeedsAndRounds(world: DemoWorld, roundsPerAssetPerDay: number, heartbeatSlots: number): void {
  const every = Math.max(1, Math.floor(96 / roundsPerAssetPerDay));
  const lastSlot = DEMO_DAYS * 96;
  world.feeds.forEach((feed, assetIndex) => {
    const offset = (assetIndex * 3) % every;
    const isBoundary = (slot: number) => {
      const phase = (((slot - offset) % every) + every) % every;
      return phase === 0 || phase === 1 % every || slot % heartbeatSlots === 0;
    };
    const publishAt = (slot: number): void => {
      if (slot > lastSlot) return;
      if (!isBoundary(slot)) {
        publishAt(slot + 1);
        return;
      }
      // Published 2 to 24 seconds before the boundary, so it is the last answer at or before it.
      const block = blockAtOrBefore(slotTs(slot) - 2 - 2 * world.ctx.prng.int(12));
      if (block < DEMO_FIRST_BLOCK + 1) {
        publishAt(slot + 1);
        return;
      }
      world.scheduler.at(block, () => {
        publishAnswer(world.ctx, feed, feedValueAt(feed, slot));
        publishAt(slot + 1);
      });
    };
    publishAt(1);
    // Rounds start at least an hour in and end before the capture does.
    const firstRound = Math.ceil((4 - offset) / every) * every + offset;
    const leadSeconds = Math.max(1_200, every * SLOT_SECONDS);
    const roundAt = (slot: number): void => {
      if (slotTs(slot) + SLOT_SECONDS > DEMO_END_TS - 60) return;
      world.scheduler.at(Math.max(DEMO_FIRST_BLOCK + 2, blockAtOrBefore(slotTs(slot) - leadSeconds)), () => {
        createRound(world, feed, slot);
        roundAt(slot + every);
      });
    };
    roundAt(firstRound);
  });
}
