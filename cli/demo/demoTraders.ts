// The demo venue's traders: what each behaviour kind does when the pacing asks for activity, and how a wish
// ("wallet w buys 40 shares of outcome 0") becomes a consistent book match. Behaviours are sized for the tag
// rules of replay/README.md, Demo venue: market makers quote both sides as makers (splitting first, merging leftovers),
// high-frequency bots trade all day, Up/Down bots live in the crypto rounds, arbitrageurs buy complementary
// outcomes under 1 within a minute, copy traders repeat a leader's fill within 30 s. Wallets only sell what
// they hold (partial-history wallets hold shares from before the capture).
import { AssertionFailure } from '../../engine/assert.js';
import { splitPosition } from './demoCtf.js';
import type { DemoContext } from './demoContext.js';
import { emitMatch, MATCH, SIDE, type BookOrder, type MatchRoute } from './demoExchange.js';
import { balanceOf, orderPrice, stepPrice, type DemoMarket } from './demoMarkets.js';
import { V2_CUTOVER_BLOCK } from './demoTimeline.js';
import { pickOfKind, pickRetail, WALLET_KIND } from './demoWallets.js';
import { pickRegular, pickRound, scheduleAt, type DemoWorld } from './demoWorld.js';

/** Shares move in 0.01-share steps (10,000 micro). */
export const SHARE_STEP = 10_000;
export const MIN_SHARES = 1_000_000;
const BUILDERS = [
  '0x' + '0'.repeat(56) + 'b1d1e001',
  '0x' + '0'.repeat(56) + 'b1d1e002',
  '0x' + '0'.repeat(56) + 'b1d1e003',
];

export interface TradeWish {
  market: DemoMarket;
  taker: number;
  side: 0 | 1;
  outcome: 0 | 1;
  shares: number;
  /** Price override (thousandths of the outcome), e.g. an arbitrage leg's discounted price. */
  price?: number;
  /** Most maker orders to match against. */
  maxMakers?: number;
}

export const roundShares = (shares: number) => Math.max(SHARE_STEP, Math.round(shares / SHARE_STEP) * SHARE_STEP);
const sharesFor = (usd: number, price: number) => roundShares((usd * 1e6 * 1000) / price);

/**
 * The number of maker orders for a match, so that the fill budget is met exactly: never more than the budget
 * allows, and never leaving exactly one fill (no match has a single OrderFilled). 0 = no match possible.
 */
function makerCount(ctx: DemoContext, desired: number, most: number): number {
  const remaining = ctx.fillsTarget - ctx.fills;
  if (remaining < 2 || most < 1) return 0;
  let count = Math.min(desired, most, remaining - 1);
  if (remaining - (count + 1) === 1) {
    if (count + 1 <= most && count + 1 <= remaining - 1) count++;
    else if (count >= 2) count--;
    else return 0;
  }
  return count;
}

function desiredMakers(ctx: DemoContext): number {
  const u = ctx.prng.float();
  return u < 0.58 ? 1 : u < 0.83 ? 2 : u < 0.94 ? 3 : 4;
}

/** A maker wallet for the market, distinct from `taken`. */
function pickMaker(world: DemoWorld, market: DemoMarket, takerKind: number, taken: number[]): number {
  const prng = world.ctx.prng;
  const population = world.ctx.population;
  for (let tries = 0; tries < 8; tries++) {
    const u = prng.float();
    let wallet: number;
    if (market.round !== null) {
      wallet =
        u < 0.6
          ? prng.pick(market.makers)
          : u < 0.9
            ? pickOfKind(population, WALLET_KIND.updownBot, prng)
            : pickRetail(population, prng);
    } else if (u < 0.74) {
      wallet = prng.pick(market.makers);
    } else if (u < 0.84 && takerKind !== WALLET_KIND.highFrequency) {
      wallet = pickOfKind(population, WALLET_KIND.highFrequency, prng);
    } else {
      wallet = pickRetail(population, prng);
    }
    if (!taken.includes(wallet)) return wallet;
  }
  let wallet = pickRetail(population, prng);
  while (taken.includes(wallet))
    wallet = population.byKind[WALLET_KIND.retail]![prng.int(population.byKind[WALLET_KIND.retail]!.length)]!;
  return wallet;
}

function newOrder(
  ctx: DemoContext,
  wallet: number,
  side: 0 | 1,
  outcome: 0 | 1,
  shares: number,
  price: number,
): BookOrder {
  return {
    wallet,
    side,
    outcome,
    shares,
    usdc: Math.round((shares * price) / 1000),
    price,
    feeBps: 0,
    keptBps: 0,
    fee: 0,
    kept: 0,
    hash: '0x' + ctx.ids.next(),
    match: MATCH.complementary,
  };
}

/**
 * Turns a wish into one book match: picks makers, has market makers split first when they sell what they do
 * not hold, sizes every leg (USDC = price x shares, rounded) and emits it. False if nothing was emitted.
 */
export function executeTrade(world: DemoWorld, wish: TradeWish): boolean {
  const ctx = world.ctx;
  const prng = ctx.prng;
  const market = wish.market;
  if (!market.open) return false;
  let shares = roundShares(wish.shares);
  if (wish.side === SIDE.sell) {
    const held = balanceOf(market, wish.taker, wish.outcome);
    shares = Math.min(shares, Math.floor(held / SHARE_STEP) * SHARE_STEP);
    if (shares < SHARE_STEP) return false;
  } else {
    shares = Math.max(shares, MIN_SHARES);
  }
  const count = makerCount(ctx, Math.min(desiredMakers(ctx), wish.maxMakers ?? 4), Math.min(4, shares / SHARE_STEP));
  if (count === 0) return false;
  const price = wish.price ?? orderPrice(market, wish.outcome);
  const other = (1 - wish.outcome) as 0 | 1;

  // Split the taker's shares over the makers in whole steps, each at least one step.
  const steps = shares / SHARE_STEP;
  const parts: number[] = [];
  let left = steps;
  for (let i = 0; i < count - 1; i++) {
    const part = Math.max(
      1,
      Math.min(left - (count - 1 - i), Math.round((steps / count) * (0.4 + 1.2 * prng.float()))),
    );
    parts.push(part * SHARE_STEP);
    left -= part;
  }
  parts.push(left * SHARE_STEP);

  const taker = newOrder(ctx, wish.taker, wish.side, wish.outcome, shares, price);
  taker.usdc = 0;
  const takerKind = ctx.wallets[wish.taker]!.kind;
  const taken = [wish.taker];
  const makers: BookOrder[] = [];
  for (const part of parts) {
    const wallet = pickMaker(world, market, takerKind, taken);
    taken.push(wallet);
    const isMarketMaker = ctx.wallets[wallet]!.kind === WALLET_KIND.marketMaker;
    let maker: BookOrder;
    if (wish.side === SIDE.buy) {
      // The maker either sells the same outcome (COMPLEMENTARY) or buys the other one (MINT).
      let holds = balanceOf(market, wallet, wish.outcome) >= part;
      if (!holds && isMarketMaker && prng.chance(0.6)) {
        splitPosition(ctx, market, wallet, roundShares(Math.max(part * 2, prng.logUniform(200, 5000) * 1e6)));
        holds = true;
      }
      if (holds && prng.chance(isMarketMaker ? 0.85 : 0.5)) {
        maker = newOrder(ctx, wallet, SIDE.sell, wish.outcome, part, price);
        taker.usdc += maker.usdc;
      } else {
        maker = newOrder(ctx, wallet, SIDE.buy, other, part, 1000 - price);
        maker.match = MATCH.mint;
        taker.usdc += part - maker.usdc;
      }
    } else {
      // The maker either buys the same outcome (COMPLEMENTARY) or sells the other one (MERGE).
      if (balanceOf(market, wallet, other) >= part && prng.chance(isMarketMaker ? 0.35 : 0.2)) {
        maker = newOrder(ctx, wallet, SIDE.sell, other, part, 1000 - price);
        maker.match = MATCH.merge;
        taker.usdc += part - maker.usdc;
      } else {
        maker = newOrder(ctx, wallet, SIDE.buy, wish.outcome, part, price);
        taker.usdc += maker.usdc;
      }
    }
    makers.push(maker);
  }
  if (!(taker.usdc > 0))
    throw new AssertionFailure(`demo: a match leaves the taker ${taker.usdc} USDC (price ${price})`);

  const v2 = ctx.block >= V2_CUTOVER_BLOCK;
  let module: string | null = null;
  if (!v2 && prng.chance(0.12)) {
    const a = ctx.addresses;
    module = market.negRisk ? (prng.chance(0.15) ? a.negRiskFeeModuleLegacy : a.negRiskFeeModule) : a.feeModule;
  }
  if (!v2) {
    // Orders run by a fee module are signed at the maximum rate; the operator keeps the market's rate.
    taker.feeBps = module !== null ? 1000 : market.takerFeeBps;
    taker.keptBps = market.takerFeeBps;
    if (module !== null) for (const maker of makers) maker.feeBps = prng.chance(0.5) ? 1000 : 0;
  }
  const route: MatchRoute = {
    v2,
    module,
    builder: v2 && prng.chance(0.2) ? prng.pick(BUILDERS) : '0x' + '0'.repeat(64),
  };
  emitMatch(ctx, market, taker, makers, route);
  stepPrice(market, ctx.ts, prng);
  if (wish.side === SIDE.buy) {
    world.recentBuys.push({ wallet: wish.taker, market, outcome: wish.outcome });
    if (market.negRisk && wish.outcome === 1) world.recentNo.push({ wallet: wish.taker, event: market.event! });
  }
  return true;
}

/** A buy-or-sell decision for a wallet in a market: sell some of what it holds, or buy `usd` worth. */
function buyOrSell(
  world: DemoWorld,
  market: DemoMarket,
  wallet: number,
  sellChance: number,
  usd: number,
  outcome: 0 | 1,
): TradeWish {
  const prng = world.ctx.prng;
  const held = market.holdings.get(wallet);
  if (held !== undefined && (held[0] > 0 || held[1] > 0) && prng.chance(sellChance)) {
    const sellOutcome = held[0] >= held[1] ? 0 : 1;
    const fraction = prng.chance(0.5) ? 1 : 0.3 + 0.6 * prng.float();
    return { market, taker: wallet, side: SIDE.sell, outcome: sellOutcome, shares: held[sellOutcome]! * fraction };
  }
  return { market, taker: wallet, side: SIDE.buy, outcome, shares: sharesFor(usd, orderPrice(market, outcome)) };
}

function favouredOutcome(world: DemoWorld, market: DemoMarket): 0 | 1 {
  const prng = world.ctx.prng;
  if (market.negRisk && prng.chance(0.4)) return 1;
  return prng.chance(0.2 + (0.6 * market.price) / 1000) ? 0 : 1;
}

function retailTrade(world: DemoWorld): boolean {
  const ctx = world.ctx;
  const prng = ctx.prng;
  if (prng.chance(0.3)) {
    // Sell something bought earlier (hold, then exit).
    const recent = world.recentBuys.sample(prng.float());
    if (recent !== undefined && ctx.wallets[recent.wallet]!.kind === WALLET_KIND.retail && recent.market.open) {
      const held = balanceOf(recent.market, recent.wallet, recent.outcome);
      if (held >= SHARE_STEP) {
        return executeTrade(world, {
          market: recent.market,
          taker: recent.wallet,
          side: SIDE.sell,
          outcome: recent.outcome as 0 | 1,
          shares: held * (prng.chance(0.5) ? 1 : 0.5),
        });
      }
    }
  }
  const market = pickRegular(world);
  if (market === undefined) return false;
  const wallet = pickRetail(ctx.population, prng);
  const usd = prng.logUniform(2, 400) * (prng.chance(0.03) ? 20 : 1);
  return executeTrade(world, buyOrSell(world, market, wallet, 0.35, usd, favouredOutcome(world, market)));
}

function highFrequencyTrade(world: DemoWorld): boolean {
  const prng = world.ctx.prng;
  const market = prng.chance(0.12) ? (pickRound(world) ?? pickRegular(world)) : pickRegular(world);
  if (market === undefined) return false;
  const wallet = pickOfKind(world.ctx.population, WALLET_KIND.highFrequency, prng);
  return executeTrade(world, {
    ...buyOrSell(world, market, wallet, 0.55, prng.logUniform(5, 150), favouredOutcome(world, market)),
    maxMakers: 2,
  });
}

function updownTrade(world: DemoWorld): boolean {
  const ctx = world.ctx;
  const prng = ctx.prng;
  const market = pickRound(world);
  if (market === undefined) return retailTrade(world);
  const wallet = prng.chance(0.78)
    ? pickOfKind(ctx.population, WALLET_KIND.updownBot, prng)
    : pickRetail(ctx.population, prng);
  // Bots lean toward the side that will win (they watch the spot price).
  const winner = market.round!.up ? 0 : 1;
  const outcome = (prng.chance(0.6) ? winner : 1 - winner) as 0 | 1;
  return executeTrade(world, buyOrSell(world, market, wallet, 0.2, prng.logUniform(5, 250), outcome));
}

function marketMakerTake(world: DemoWorld): boolean {
  const market = pickRegular(world);
  if (market === undefined || market.makers.length === 0) return false;
  const prng = world.ctx.prng;
  return executeTrade(
    world,
    buyOrSell(world, market, prng.pick(market.makers), 0.5, prng.logUniform(20, 300), favouredOutcome(world, market)),
  );
}

/** Buy both outcomes of a binary market within a minute for a total under 1, or every YES of a neg-risk event. */
function arbitrage(world: DemoWorld): boolean {
  const ctx = world.ctx;
  const prng = ctx.prng;
  const wallet = pickOfKind(ctx.population, WALLET_KIND.arbitrageur, prng);
  const shares = roundShares(prng.logUniform(20, 400) * 1e6);
  if (prng.chance(0.3) && world.negEvents.length > 0) {
    const event = prng.pick(world.negEvents);
    if (!event.open) return false;
    let sum = 0;
    for (const question of event.questions) sum += orderPrice(question, 0);
    const legs = event.questions.map((question) => {
      const scaled = Math.floor((orderPrice(question, 0) * 960) / sum);
      return scaled >= 50 ? Math.floor(scaled / 10) * 10 : Math.max(1, scaled);
    });
    const first = event.questions[0]!;
    if (
      !executeTrade(world, {
        market: first,
        taker: wallet,
        side: SIDE.buy,
        outcome: 0,
        shares,
        price: legs[0]!,
        maxMakers: 2,
      })
    )
      return false;
    ctx.counters.arbitrageLegs++;
    let block = ctx.block;
    for (let i = 1; i < event.questions.length; i++) {
      block += 1 + prng.int(3);
      const question = event.questions[i]!;
      const price = legs[i]!;
      scheduleAt(world, block, () => {
        if (
          executeTrade(world, {
            market: question,
            taker: wallet,
            side: SIDE.buy,
            outcome: 0,
            shares,
            price,
            maxMakers: 2,
          })
        )
          ctx.counters.arbitrageLegs++;
      });
    }
    return true;
  }
  const market = pickRegular(world);
  if (market === undefined || market.negRisk) return false;
  const first = orderPrice(market, 0);
  if (first < 100 || first > 900) return false;
  const second = Math.floor((1000 - first - 10 - 10 * prng.int(3)) / 10) * 10;
  if (!executeTrade(world, { market, taker: wallet, side: SIDE.buy, outcome: 0, shares, price: first, maxMakers: 2 }))
    return false;
  ctx.counters.arbitrageLegs++;
  scheduleAt(world, ctx.block + 2 + prng.int(20), () => {
    if (executeTrade(world, { market, taker: wallet, side: SIDE.buy, outcome: 1, shares, price: second, maxMakers: 2 }))
      ctx.counters.arbitrageLegs++;
  });
  return true;
}

/** A leader trades; each follower repeats it (same token, same side) 2 to 28 seconds later. */
function leaderTrade(world: DemoWorld): boolean {
  const ctx = world.ctx;
  const prng = ctx.prng;
  const leader = ctx.wallets[prng.pick(ctx.population.leaders)]!;
  const market = pickRegular(world);
  if (market === undefined) return false;
  const wish = buyOrSell(world, market, leader.id, 0.25, prng.logUniform(20, 500), favouredOutcome(world, market));
  if (!executeTrade(world, wish)) return false;
  for (const follower of leader.followers) {
    if (!prng.chance(0.85)) continue;
    const shares = wish.side === SIDE.buy ? wish.shares * (0.2 + 1.3 * prng.float()) : Infinity;
    scheduleAt(world, ctx.block + 1 + prng.int(14), () => {
      const copy = { market, taker: follower, side: wish.side, outcome: wish.outcome, shares };
      if (copy.side === SIDE.sell) copy.shares = balanceOf(market, follower, wish.outcome) * (0.5 + 0.5 * prng.float());
      if (executeTrade(world, copy)) ctx.counters.copyTrades++;
    });
  }
  return true;
}

/** A wallet with shares from before the capture sells some of them. */
function partialHistorySell(world: DemoWorld): boolean {
  const prng = world.ctx.prng;
  if (world.partialHoldings.length === 0) return false;
  const holding = prng.pick(world.partialHoldings);
  const held = holding.market.holdings.get(holding.wallet);
  if (held === undefined || !holding.market.open) return false;
  const outcome = held[0] >= held[1] ? 0 : 1;
  if (held[outcome]! < SHARE_STEP) return false;
  const done = executeTrade(world, {
    market: holding.market,
    taker: holding.wallet,
    side: SIDE.sell,
    outcome,
    shares: held[outcome]! * (0.3 + 0.7 * prng.float()),
  });
  if (done) world.ctx.counters.partialHistorySells++;
  return done;
}

/** Share of spontaneous actions per behaviour (the rest is retail). */
const UPDOWN_SHARE = 0.25;
const HIGH_FREQUENCY_SHARE = 0.2;
const ARBITRAGE_SHARE = 0.035;
const LEADER_SHARE = 0.035;
const MARKET_MAKER_TAKE_SHARE = 0.02;
const PARTIAL_HISTORY_SHARE = 0.01;

/** One spontaneous trade by some behaviour. False if nothing was emitted. */
export function tradeOnce(world: DemoWorld): boolean {
  let u = world.ctx.prng.float();
  if ((u -= UPDOWN_SHARE) < 0) return updownTrade(world);
  if ((u -= HIGH_FREQUENCY_SHARE) < 0) return highFrequencyTrade(world);
  if ((u -= ARBITRAGE_SHARE) < 0) return arbitrage(world);
  if ((u -= LEADER_SHARE) < 0) return leaderTrade(world);
  if ((u -= MARKET_MAKER_TAKE_SHARE) < 0) return marketMakerTake(world);
  if ((u -= PARTIAL_HISTORY_SHARE) < 0) return partialHistorySell(world);
  return retailTrade(world);
}

/** The fallback that always finds a match while any market is open (to land the fill count exactly). */
export function retailBuyAnywhere(world: DemoWorld): boolean {
  const ctx = world.ctx;
  const market = pickRegular(world) ?? pickRound(world);
  if (market === undefined) return false;
  return executeTrade(world, {
    market,
    taker: pickRetail(ctx.population, ctx.prng),
    side: SIDE.buy,
    outcome: 0,
    shares: 20 * MIN_SHARES,
  });
}
