// What every kind of demo market shares over its life: its category and outcome, the makers quoting it, its
// Gamma-shape metadata line, the close of trading, the oracle's resolution and the redemption sweeps after it
// (a market's holdings are dropped after its last sweep).
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { redeemPositions, resolveMarket } from './demoCtf.js';
import type { DemoMarket } from './demoMarkets.js';
import { CATEGORIES, imageUrl, type MarketText } from './demoMetadata.js';
import { blockAtOrAfter, blockAtOrBefore, isoOf, V2_CUTOVER_BLOCK } from './demoTimeline.js';
import { WALLET_KIND } from './demoWallets.js';
import { scheduleAt, type DemoWorld } from './demoWorld.js';

export const DAY = 86_400;

export function pickCategory(world: DemoWorld): string | null {
  const prng = world.ctx.prng;
  return prng.chance(0.12) ? null : prng.pick(CATEGORIES);
}

export function decidePayouts(world: DemoWorld): [number, number] {
  const prng = world.ctx.prng;
  return prng.chance(0.03) ? [1, 1] : prng.chance(0.5) ? [1, 0] : [0, 1];
}

export function pickMakers(world: DemoWorld, count: number): number[] {
  const prng = world.ctx.prng;
  const all = world.ctx.population.byKind[WALLET_KIND.marketMaker]!;
  const makers: number[] = [];
  for (let tries = 0; makers.length < Math.min(count, all.length) && tries < 20; tries++) {
    const wallet = prng.pick(all);
    if (!makers.includes(wallet)) makers.push(wallet);
  }
  return makers;
}

/** The market's Gamma-shape metadata object (docs/venue.md 5.2). */
export function writeMetadata(
  world: DemoWorld,
  market: DemoMarket,
  text: MarketText,
  outcomes: [string, string],
  event: { slug: string; title: string },
  extra: Record<string, unknown>,
): void {
  const object: Record<string, unknown> = {
    id: String(market.seq + 1),
    question: text.question,
    conditionId: market.conditionId,
    questionID: market.questionId,
    slug: text.slug,
    events: [{ id: String(100_000 + (market.event?.seq ?? market.seq)), slug: event.slug, title: event.title }],
    image: imageUrl(event.slug),
    icon: imageUrl(event.slug),
    outcomes: JSON.stringify(outcomes),
    clobTokenIds: JSON.stringify([tokenIdToDecimal(market.tokens[0]), tokenIdToDecimal(market.tokens[1])]),
    negRisk: market.negRisk,
    ...extra,
    startDate: isoOf(market.openTs),
    endDate: isoOf(market.closeTs),
  };
  if (market.category !== null) object.category = market.category;
  world.metadata.push(object);
}

export function registerNow(world: DemoWorld): boolean {
  return world.ctx.block < V2_CUTOVER_BLOCK;
}

/** Closes trading, then resolves and sweeps for redemptions. */
export function scheduleEnd(world: DemoWorld, market: DemoMarket, resolveDelaySeconds: number): void {
  const closeBlock = blockAtOrBefore(market.closeTs);
  scheduleAt(world, closeBlock, () => {
    market.open = false;
    world.regular.remove(market);
    world.rounds.remove(market);
  });
  scheduleAt(world, blockAtOrAfter(market.closeTs + resolveDelaySeconds), () => {
    resolveMarket(world.ctx, market);
    scheduleSweep(world, market, 0);
  });
}

/** Delays between redemption sweeps after resolution: rounds are redeemed within minutes by their bots. */
const ROUND_SWEEPS = [300, 3_600, 6 * 3_600, DAY, 3 * DAY];
const MARKET_SWEEPS = [3_600, 6 * 3_600, DAY, 2 * DAY, 4 * DAY, 7 * DAY];
const SWEEP_MAX_REDEMPTIONS = 40;

export function scheduleSweep(world: DemoWorld, market: DemoMarket, attempt: number): void {
  const delays = market.round !== null ? ROUND_SWEEPS : MARKET_SWEEPS;
  if (attempt >= delays.length) {
    market.holdings = new Map(); // retired: nothing reads it any more
    return;
  }
  scheduleAt(world, world.ctx.block + Math.ceil(delays[attempt]! / 2) + world.ctx.prng.int(300), () =>
    sweep(world, market, attempt),
  );
}

function sweep(world: DemoWorld, market: DemoMarket, attempt: number): void {
  const ctx = world.ctx;
  const prng = ctx.prng;
  const [n0, n1] = market.payouts;
  let redeemed = 0;
  for (const [wallet, held] of market.holdings) {
    if (held[0] <= 0 && held[1] <= 0) {
      market.holdings.delete(wallet);
      continue;
    }
    const owner = ctx.wallets[wallet]!;
    if (owner.neverRedeem) continue;
    let chance = owner.kind === WALLET_KIND.retail ? 0.45 : owner.kind === WALLET_KIND.copyTrader ? 0.6 : 0.9;
    if (held[0] * n0 + held[1] * n1 === 0) chance *= 0.25; // losers seldom bother
    if (!prng.chance(chance)) continue;
    redeemPositions(ctx, market, wallet, held);
    market.holdings.delete(wallet);
    if (++redeemed >= SWEEP_MAX_REDEMPTIONS) break;
  }
  scheduleSweep(world, market, attempt + 1);
}
