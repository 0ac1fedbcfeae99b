// The AMM era: markets that trade on FPMM pools (created by the factory, funded by market makers, traded by
// retail and arbitrageurs, drained by their providers when the era ends), then resolve like any market.
import { addFunding, ammBuy, ammSell, createPool, removeFunding } from './demoAmm.js';
import { UMA_ORACLE } from './demoContext.js';
import { prepareCondition, resolveMarket } from './demoCtf.js';
import { DAY, decidePayouts, pickCategory, scheduleSweep, writeMetadata } from './demoMarketLife.js';
import { createMarket, MARKET_KIND, type DemoMarket } from './demoMarkets.js';
import { binaryMarketText } from './demoMetadata.js';
import { AMM_ERA_END_BLOCK, blockAtOrAfter, blockTs } from './demoTimeline.js';
import { pickOfKind, pickRetail, WALLET_KIND } from './demoWallets.js';
import { scheduleAt, type DemoWorld } from './demoWorld.js';

/** A market that trades on an FPMM pool during the AMM era, then resolves after it. */
export function createAmmMarket(world: DemoWorld, pools: number, trades: number): void {
  const ctx = world.ctx;
  const prng = ctx.prng;
  const category = pickCategory(world);
  const closeTs = blockTs(AMM_ERA_END_BLOCK) + Math.round(prng.logUniform(1, 6) * DAY);
  const seq = world.marketSeq++;
  const market = createMarket({
    seq,
    kind: MARKET_KIND.amm,
    oracle: UMA_ORACLE,
    questionId: '0x' + prng.hex64(),
    collateral: ctx.addresses.usdc,
    negRisk: false,
    event: null,
    questionIndex: 0,
    category,
    openTs: ctx.ts,
    closeTs,
    payouts: decidePayouts(world),
    price: 200 + prng.int(600),
    prng,
  });
  prepareCondition(ctx, market, false);
  const makers = ctx.population.byKind[WALLET_KIND.marketMaker]!;
  const creator = prng.pick(makers);
  const pool = createPool(ctx, market, creator, '0x' + prng.hex40(), 20_000_000_000_000_000n);
  addFunding(ctx, market, creator, Math.round(prng.logUniform(2_000, 20_000)) * 1_000_000, [
    1000 - market.price,
    market.price,
  ]);
  world.marketCounts.amm++;
  const text = binaryMarketText(category, prng, seq, closeTs);
  writeMetadata(
    world,
    market,
    text,
    ['Yes', 'No'],
    { slug: text.slug, title: text.question },
    { marketMakerAddress: pool.address },
  );
  market.open = true;
  world.pools.add(market);

  const eraBlocks = AMM_ERA_END_BLOCK - ctx.block;
  const interval = Math.max(2, Math.floor((eraBlocks * pools) / trades));
  const trade = (): void => {
    if (ctx.block >= AMM_ERA_END_BLOCK) return;
    ammTrade(world, market);
    scheduleAt(world, ctx.block + 1 + prng.int(2 * interval), trade);
  };
  scheduleAt(world, ctx.block + 1 + prng.int(interval), trade);
  // A second liquidity provider joins for a while.
  scheduleAt(world, ctx.block + prng.int(Math.max(1, eraBlocks >> 1)), () => {
    const funder = prng.pick(makers);
    if (ctx.block < AMM_ERA_END_BLOCK)
      addFunding(ctx, market, funder, Math.round(prng.logUniform(500, 5_000)) * 1_000_000, null);
  });
  // At the end of the era every provider takes its liquidity out.
  scheduleAt(world, AMM_ERA_END_BLOCK + prng.int(1_800), () => {
    world.pools.remove(market);
    for (const [funder, shares] of [...pool.lp]) removeFunding(ctx, market, funder, shares);
    market.open = false;
  });
  scheduleAt(world, blockAtOrAfter(closeTs + 3_600 + prng.int(20 * 3_600)), () => {
    resolveMarket(ctx, market);
    scheduleSweep(world, market, 0);
  });
}

function ammTrade(world: DemoWorld, market: DemoMarket): void {
  const ctx = world.ctx;
  const prng = ctx.prng;
  if (prng.chance(0.3)) {
    // A holder sells part of its position back to the pool.
    for (const [wallet, held] of market.holdings) {
      const outcome = held[0] >= held[1] ? 0 : 1;
      if (held[outcome]! < 2_000_000 || !prng.chance(0.3)) continue;
      const pool = market.pool!;
      const price = pool.balances[1 - outcome]! / (pool.balances[0] + pool.balances[1]);
      const returnAmount = Math.floor(held[outcome]! * price * (0.2 + 0.5 * prng.float()));
      if (ammSell(ctx, market, wallet, outcome, returnAmount, held[outcome]!)) return;
    }
  }
  const buyer = prng.chance(0.1)
    ? pickOfKind(ctx.population, WALLET_KIND.arbitrageur, prng)
    : pickRetail(ctx.population, prng);
  const outcome = prng.chance(0.5) ? 0 : 1;
  ammBuy(ctx, market, buyer, outcome, Math.round(prng.logUniform(5, 300) * 1e6));
}
