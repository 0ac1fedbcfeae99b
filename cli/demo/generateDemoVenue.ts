// The demo venue (replay/README.md, Demo venue): a seeded simulator that writes, into one directory,
// - capture.ndjson: the venue's raw chain logs, encoded as its contracts emit them, at their Polygon addresses;
// - markets.json: the markets' public metadata (Gamma shape);
// - profiles.json: public profiles of some wallets;
// - demo.json: what was generated (the summary returned here).
// One knob, `fills`, is the exact number of OrderFilled logs; everything else scales with it. Same seed and
// fills give byte-identical files. The loop walks the blocks in order: scheduled work first (markets opening,
// closing and resolving, feeds, follow-up trades), then, on the pacing blocks, trades until the fill count
// reaches the activity curve's target for that block.
import { AssertionFailure } from '../../engine/assert.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KIND } from '../../engine/chain/chainEvent.js';
import { POLYGON_ADDRESSES } from '../../engine/chain/venueAddresses.js';
import { DemoCapture, type OnDemoLog } from './demoCapture.js';
import { createCounters, type DemoContext, type DemoCounters } from './demoContext.js';
import { createPriceFeeds, DEMO_PRICE_FEEDS } from './demoFeeds.js';
import { demoScale, startLifecycle } from './demoLifecycle.js';
import { JsonArrayWriter, profileFor } from './demoMetadata.js';
import { DemoScheduler } from './demoScheduler.js';
import { startProtocolV2Era, type ProtocolV2Counts } from './demoProtocolV2.js';
import {
  activityShare,
  AMM_ERA_END_BLOCK,
  blockTs,
  DEMO_DAYS,
  DEMO_FIRST_BLOCK,
  DEMO_LAST_BLOCK,
  V2_CUTOVER_BLOCK,
} from './demoTimeline.js';
import { sideActivity } from './demoSideActivity.js';
import { retailBuyAnywhere, tradeOnce } from './demoTraders.js';
import { createWalletPopulation, WALLET_KIND, WALLET_KIND_NAMES } from './demoWallets.js';
import { MarketList, RecentRing, type DemoWorld, type MarketCounts } from './demoWorld.js';
import { HexIds, Prng } from './prng.js';

export { DEMO_PRICE_FEEDS } from './demoFeeds.js';

export interface DemoOptions {
  outDir: string;
  /** The number of OrderFilled logs to write (default 200,000). */
  fills?: number;
  seed?: number;
  /** Test hook: called for every log written, with the event given to the encoder (null for other logs). */
  onLog?: OnDemoLog;
  /**
   * Adds the 2026 second ledger (demoProtocolV2.ts): Protocol V2 markets, combos, ExchangeV3 fills. `tally demo`
   * turns it on; off, the venue is the first ledger alone, as the golden answers were recorded on.
   */
  protocolV2?: boolean;
}

export interface DemoWalletSummary {
  count: number;
  /** Wallets of the kind with at least one fill. */
  active: number;
  fills: number;
  makerFills: number;
}

export interface DemoSummary {
  seed: number;
  fills: number;
  lines: number;
  bytes: number;
  /** Logs per event kind (KIND names), plus logs of events tally does not use. */
  events: Record<string, number>;
  otherLogs: number;
  wallets: Record<string, DemoWalletSummary>;
  /** Addresses of every non-retail wallet by kind, and of the copy traders' leaders and partial-history wallets. */
  walletAddresses: Record<string, string[]>;
  neverRedeemWallets: number;
  markets: MarketCounts;
  activity: DemoCounters;
  firstBlock: number;
  lastBlock: number;
  firstTs: number;
  lastTs: number;
  v2CutoverBlock: number;
  v2CutoverTs: number;
  ammEraEndBlock: number;
  ammEraEndTs: number;
  /** Chainlink feed address -> asset (configure these as the venue's price feeds). */
  priceFeeds: Record<string, string>;
  profiles: number;
  /** The 2026 second ledger's counts and wallets, null when it was left out. */
  protocolV2: ProtocolV2Counts | null;
}

const KIND_NAMES: string[] = [];
for (const [name, code] of Object.entries(KIND)) KIND_NAMES[code] = name;

/** Generates the demo venue into options.outDir. */
export async function generateDemoVenue(options: DemoOptions): Promise<DemoSummary> {
  const fills = options.fills ?? 200_000;
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(fills) || fills < 2)
    throw new RangeError(`demo fills must be an integer >= 2, got ${fills}`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`demo seed must be an integer, got ${seed}`);
  mkdirSync(options.outDir, { recursive: true });

  const root = new Prng(seed);
  const population = createWalletPopulation(fills, DEMO_DAYS, root.fork(1));
  const capture = new DemoCapture(join(options.outDir, 'capture.ndjson'), root.fork(2), options.onLog);
  const ctx: DemoContext = {
    capture,
    prng: root.fork(3),
    ids: new HexIds(root.fork(6)),
    addresses: { ...POLYGON_ADDRESSES, priceFeeds: { ...DEMO_PRICE_FEEDS } },
    population,
    wallets: population.wallets,
    block: DEMO_FIRST_BLOCK,
    ts: blockTs(DEMO_FIRST_BLOCK),
    fills: 0,
    fillsTarget: fills,
    counters: createCounters(),
  };
  const makers = population.byKind[WALLET_KIND.marketMaker]!;
  const world: DemoWorld = {
    ctx,
    scheduler: new DemoScheduler(),
    regular: new MarketList(),
    rounds: new MarketList(),
    pools: new MarketList(),
    negEvents: [],
    feeds: createPriceFeeds(root.fork(4)),
    recentBuys: new RecentRing(4_096),
    recentNo: new RecentRing(1_024),
    partialHoldings: [],
    roundMakers: makers.slice(0, Math.max(1, Math.ceil(makers.length / 2))),
    metadata: new JsonArrayWriter(join(options.outDir, 'markets.json')),
    marketSeq: 0,
    eventSeq: 0,
    marketCounts: { binary: 0, preexisting: 0, negRiskEvents: 0, negRiskQuestions: 0, updown: 0, amm: 0 },
  };
  startLifecycle(world, demoScale(fills));
  const protocolV2 = options.protocolV2 ? startProtocolV2Era(world, seed, fills) : null;
  try {
    await run(world);
  } catch (error) {
    capture.abort();
    world.metadata.close();
    throw error;
  }
  await capture.close();
  world.metadata.close();

  const profiles = writeProfiles(world, join(options.outDir, 'profiles.json'), root.fork(5));
  const summary = summarize(world, seed, profiles, protocolV2);
  writeFileSync(join(options.outDir, 'demo.json'), JSON.stringify(summary, null, 2) + '\n');
  return summary;
}

/** Pacing blocks come about every `gap` blocks, carrying ~8 fills each (one or more per block at scale). */
async function run(world: DemoWorld): Promise<void> {
  const ctx = world.ctx;
  const prng = ctx.prng;
  const scheduler = world.scheduler;
  const gap = Math.max(1, Math.round(((DEMO_LAST_BLOCK - DEMO_FIRST_BLOCK) * 8) / ctx.fillsTarget));
  let nextActive = Math.min(DEMO_LAST_BLOCK, DEMO_FIRST_BLOCK + 1_800 + prng.int(gap));
  for (;;) {
    const block = Math.min(nextActive, scheduler.peekBlock());
    if (block > DEMO_LAST_BLOCK) break;
    ctx.block = block;
    ctx.ts = blockTs(block);
    ctx.capture.beginBlock(block, ctx.ts);
    while (scheduler.peekBlock() <= block) scheduler.pop()();
    if (block !== nextActive) {
      if (ctx.capture.saturated) await ctx.capture.drain();
      continue;
    }
    const target =
      block >= DEMO_LAST_BLOCK
        ? ctx.fillsTarget
        : Math.min(ctx.fillsTarget, Math.floor(ctx.fillsTarget * activityShare(block)));
    let idle = 0;
    while (ctx.fills < target && idle < 50) {
      const before = ctx.fills;
      if (!tradeOnce(world) && ++idle >= 20) retailBuyAnywhere(world);
      if (ctx.fills !== before) idle = 0;
      sideActivity(world);
    }
    nextActive = block >= DEMO_LAST_BLOCK ? Infinity : Math.min(DEMO_LAST_BLOCK, block + 1 + prng.int(2 * gap - 1));
    if (ctx.capture.saturated) await ctx.capture.drain();
  }
  if (ctx.fills !== ctx.fillsTarget) {
    throw new AssertionFailure(
      `demo: wrote ${ctx.fills} fills, asked for ${ctx.fillsTarget} (no open market to trade at the end?)`,
    );
  }
}

function writeProfiles(world: DemoWorld, path: string, prng: Prng): number {
  const writer = new JsonArrayWriter(path);
  for (const wallet of world.ctx.wallets) {
    const share = wallet.kind === WALLET_KIND.retail ? (wallet.leader ? 1 : 0.25) : 0.6;
    if (prng.chance(share)) writer.push(profileFor(wallet.address, prng));
  }
  writer.close();
  return writer.length;
}

function summarize(world: DemoWorld, seed: number, profiles: number, protocolV2: ProtocolV2Counts | null): DemoSummary {
  const ctx = world.ctx;
  const capture = ctx.capture;
  const events: Record<string, number> = {};
  // Kind codes have gaps (the second ledger's start at 40).
  for (const [code, name] of KIND_NAMES.entries()) if (name !== undefined) events[name] = capture.kindCounts[code]!;
  const wallets: Record<string, DemoWalletSummary> = {};
  const walletAddresses: Record<string, string[]> = {};
  WALLET_KIND_NAMES.forEach((name, kind) => {
    const ids = ctx.population.byKind[kind]!;
    const summary: DemoWalletSummary = { count: ids.length, active: 0, fills: 0, makerFills: 0 };
    for (const id of ids) {
      const wallet = ctx.wallets[id]!;
      if (wallet.fills > 0) summary.active++;
      summary.fills += wallet.fills;
      summary.makerFills += wallet.makerFills;
    }
    wallets[name] = summary;
    if (kind !== WALLET_KIND.retail) walletAddresses[name] = ids.map((id) => ctx.wallets[id]!.address);
  });
  walletAddresses.leader = ctx.population.leaders.map((id) => ctx.wallets[id]!.address);
  walletAddresses.partialHistory = ctx.population.partialHistory.map((id) => ctx.wallets[id]!.address);
  return {
    seed,
    fills: ctx.fills,
    lines: capture.lines,
    bytes: capture.bytes,
    events,
    otherLogs: capture.otherLogs,
    wallets,
    walletAddresses,
    neverRedeemWallets: ctx.wallets.filter((wallet) => wallet.neverRedeem).length,
    markets: world.marketCounts,
    activity: ctx.counters,
    firstBlock: capture.firstBlock,
    lastBlock: capture.lastBlock,
    firstTs: capture.firstTs,
    lastTs: capture.lastTs,
    v2CutoverBlock: V2_CUTOVER_BLOCK,
    v2CutoverTs: blockTs(V2_CUTOVER_BLOCK),
    ammEraEndBlock: AMM_ERA_END_BLOCK,
    ammEraEndTs: blockTs(AMM_ERA_END_BLOCK),
    priceFeeds: { ...DEMO_PRICE_FEEDS },
    profiles,
    protocolV2,
  };
}
