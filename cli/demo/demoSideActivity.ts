// Activity besides book trades, drawn alongside them: wallet-to-wallet transfers (single and batch), the
// wallets' own splits and merges (on the CTF, or the adapter for neg-risk markets) and neg-risk conversions
// by wallets holding NO of some questions of an event.
import { convertPositions, mergePositions, splitPosition, transferBoth, transferOne } from './demoCtf.js';
import { balanceOf, type DemoEvent } from './demoMarkets.js';
import { MIN_SHARES, roundShares, SHARE_STEP } from './demoTraders.js';
import { pickRetail } from './demoWallets.js';
import { pickRegular, type DemoWorld } from './demoWorld.js';

/** Activity that is not a book trade: transfers, the wallets' own splits and merges, neg-risk conversions. */
export function sideActivity(world: DemoWorld): void {
  const ctx = world.ctx;
  const prng = ctx.prng;
  const u = prng.float();
  if (u < 0.02) {
    const recent = world.recentBuys.sample(prng.float());
    if (recent === undefined || !recent.market.open) return;
    const held = recent.market.holdings.get(recent.wallet);
    if (held === undefined) return;
    const to = pickRetail(ctx.population, prng);
    if (to === recent.wallet) return;
    if (held[0] >= SHARE_STEP && held[1] >= SHARE_STEP && prng.chance(0.5)) {
      transferBoth(ctx, recent.market, recent.wallet, to, [roundShares(held[0] / 2), roundShares(held[1] / 2)]);
    } else if (held[recent.outcome]! >= SHARE_STEP) {
      transferOne(
        ctx,
        recent.market,
        recent.wallet,
        to,
        recent.outcome,
        Math.floor(held[recent.outcome]! / 2 / SHARE_STEP) * SHARE_STEP || SHARE_STEP,
      );
    }
  } else if (u < 0.028) {
    const market = pickRegular(world);
    if (market === undefined) return;
    const wallet = prng.chance(0.5) ? pickRetail(ctx.population, prng) : prng.pick(market.makers);
    splitPosition(ctx, market, wallet, roundShares(prng.logUniform(10, 1000) * 1e6));
  } else if (u < 0.04) {
    const market = pickRegular(world);
    if (market === undefined) return;
    for (const wallet of market.makers) {
      const held = market.holdings.get(wallet);
      if (held !== undefined && held[0] >= MIN_SHARES && held[1] >= MIN_SHARES) {
        mergePositions(
          ctx,
          market,
          wallet,
          roundShares(Math.min(held[0], held[1]) * (0.3 + 0.6 * prng.float())) - SHARE_STEP,
        );
        return;
      }
    }
    // Retail merges too: split a little, later merge what is left of both sides.
    const recent = world.recentBuys.sample(prng.float());
    if (recent === undefined || !recent.market.open) return;
    const held = recent.market.holdings.get(recent.wallet);
    if (held !== undefined && held[0] >= MIN_SHARES && held[1] >= MIN_SHARES) {
      mergePositions(
        ctx,
        recent.market,
        recent.wallet,
        Math.floor(Math.min(held[0], held[1]) / SHARE_STEP) * SHARE_STEP,
      );
    }
  } else if (u < 0.05) {
    convert(world);
  }
}

/** A wallet holding NO of some questions of a neg-risk event converts them (docs/venue.md 4). */
function convert(world: DemoWorld): void {
  const ctx = world.ctx;
  const prng = ctx.prng;
  const recent = world.recentNo.sample(prng.float());
  if (recent === undefined) return;
  const event: DemoEvent = recent.event;
  if (!event.open) return;
  const inSet: boolean[] = [];
  let least = Infinity;
  let count = 0;
  for (const question of event.questions) {
    const held = balanceOf(question, recent.wallet, 1);
    const use = held >= MIN_SHARES && (count === 0 || prng.chance(0.7));
    inSet.push(use);
    if (use) {
      count++;
      least = Math.min(least, held);
    }
  }
  if (count === 0) return;
  const amount = Math.floor((least * (0.4 + 0.6 * prng.float())) / SHARE_STEP) * SHARE_STEP;
  if (amount < SHARE_STEP) return;
  convertPositions(ctx, event, recent.wallet, inSet, amount);
}
