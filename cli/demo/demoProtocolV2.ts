// The demo's 2026 second ledger (docs/design.md 10, docs/venue-v2.md): native Protocol V2 markets on the binary module
// and one migrated CTF market, combos of their legs traded RFQ-style on ExchangeV3 (a mint match: the exchange splits
// pUSD on the module, the requester buys YES at p, the maker NO at 1 - p), then results (one voided 50/50), early
// losses, redemptions through the Router and the AutoRedeemer, compress, wrap and unwrap. The era draws from a
// random stream of its own and trades with wallets of its own, so the first ledger's trading is the same with or
// without it; its logs go through the same capture, scheduled like any other demo work.
import { KIND, type ChainEvent } from '../../engine/chain/chainEvent.js';
import { outcomeTokenIds } from '../../engine/chain/positionIds.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { v2IdWord } from '../../engine/chain/v2ChainEvent.js';
import {
  binaryMigrationConditionId,
  canonicalLegs,
  comboConditionId,
  RESULT_DENOMINATOR,
  v2PositionId,
} from '../../engine/chain/v2PositionIds.js';
import { ZERO_ADDRESS } from '../../engine/chain/venueAddresses.js';
import { comboResolution, type LegResult } from '../../engine/state/comboResolution.js';
import { UMA_ORACLE, ZERO_BYTES32 } from './demoContext.js';
import { logConditionPreparation, logCtfSplit, logTransferBatch } from './demoLogs.js';
import { DAY } from './demoMarketLife.js';
import { binaryMarketText, CATEGORIES, imageUrl } from './demoMetadata.js';
import { blockAtFraction, blockAtOrAfter, blockTs, DEMO_LAST_BLOCK, DEMO_START_TS, isoOf } from './demoTimeline.js';
import { feedValueAt, slotTs, type PriceFeed } from './demoFeeds.js';
import { roundQuestionId } from '../../engine/chain/roundQuestionId.js';
import { scheduleAt, type DemoWorld } from './demoWorld.js';
import { Prng } from './prng.js';

const M = 1_000_000;
const DEMO_FEE_RECEIVER_V3 = '0x3a3bd7bb9528e159577f7c2e685cc81a765002e2';
const RESULT_ORACLE = '0x2f5e3684cb1f318ec51b00edba38d79ac2c0aa9d';
/** The feed's boundaries are 15 minutes apart: a round is one step. */
const SLOT_SECONDS = 900;
const ROUND_SECONDS = 900;

/** What the era generated (demo.json `protocolV2`). */
export interface ProtocolV2Counts {
  markets: number;
  migratedMarkets: number;
  combos: number;
  fills: number;
  redemptions: number;
  autoRedemptions: number;
  compresses: number;
  wraps: number;
  unwraps: number;
  wallets: string[];
}

interface EraMarket {
  /** The bytes31 condition id, 0x + 62 hex. */
  condition: string;
  tokens: [string, string];
  /** [yes, no] of 1,000,000 once resolved. */
  result: [number, number] | null;
  resolvedBlock: number;
}

interface EraCombo {
  condition: string;
  tokens: [string, string];
  legs: string[];
}

/** The era's state: its stream, wallets, markets, combos and who holds what. */
interface Era {
  world: DemoWorld;
  prng: Prng;
  requesters: string[];
  makers: string[];
  markets: Map<string, EraMarket>;
  combos: EraCombo[];
  prepared: Set<string>;
  holdings: Map<string, Map<string, number>>;
  counts: ProtocolV2Counts;
}

/** Starts the era at a third of the timeline; its work is scheduled from there on. */
export function startProtocolV2Era(world: DemoWorld, seed: number, fills: number): ProtocolV2Counts {
  const prng = new Prng((seed ^ 0x7e2026) | 0);
  const wallets = Math.min(120, Math.max(8, Math.round(fills / 2000)));
  const addresses = Array.from({ length: wallets }, () => '0x' + prng.hex40());
  const era: Era = {
    world,
    prng,
    makers: addresses.slice(0, Math.max(2, Math.round(wallets / 8))),
    requesters: addresses.slice(Math.max(2, Math.round(wallets / 8))),
    markets: new Map(),
    combos: [],
    prepared: new Set(),
    holdings: new Map(),
    counts: {
      markets: 0,
      migratedMarkets: 0,
      combos: 0,
      fills: 0,
      redemptions: 0,
      autoRedemptions: 0,
      compresses: 0,
      wraps: 0,
      unwraps: 0,
      wallets: addresses,
    },
  };
  // Enough markets that combos of two or three legs seldom repeat: a few hundred combos at 200,000 fills.
  const markets = Math.min(60, Math.max(4, Math.round(fills / 8_000)));
  const combos = Math.min(800, Math.max(6, Math.round(fills / 350)));
  const first = blockAtFraction(0.3);
  const last = blockAtFraction(0.75);
  for (let i = 0; i < markets; i++)
    scheduleAt(world, first + Math.floor(((last - first) * i) / (2 * markets)), () => openMarket(era, i === 0));
  scheduleAt(world, first + 600, () => migrateCtfMarket(era));
  // Protocol V2 Up/Down rounds every six hours, BTC and ETH in turn, each with its reported prices.
  for (let slot = Math.ceil((blockTs(first) - DEMO_START_TS) / SLOT_SECONDS), i = 0; ; slot += 24, i++) {
    const startTs = slotTs(slot);
    if (startTs + 3_600 > blockTs(DEMO_LAST_BLOCK)) break;
    const feed = world.feeds.find((f) => f.asset === (i % 2 === 0 ? 'BTC' : 'ETH'))!;
    scheduleAt(world, blockAtOrAfter(startTs), () => openRound(era, feed, slot));
  }
  for (let i = 0; i < combos; i++)
    scheduleAt(world, first + 3_600 + Math.floor(((last - first) * i) / combos), () => createCombo(era));
  return era.counts;
}

function log(era: Era, address: string, event: Record<string, unknown>): void {
  const full = { logIndex: 0, txIndex: 0, tx: '', ...event } as unknown as ChainEvent;
  if (Number(event.kind) >= KIND.v2TransferSingle) (full as unknown as { emitter: string }).emitter = address;
  era.world.ctx.capture.log(full, address);
}

function move(era: Era, operator: string, from: string, to: string, id: string, amount: number): void {
  log(era, era.world.ctx.addresses.positionManager, { kind: KIND.v2TransferSingle, operator, from, to, id, amount });
}

function hold(era: Era, wallet: string, token: string, delta: number): void {
  let tokens = era.holdings.get(wallet);
  if (!tokens) era.holdings.set(wallet, (tokens = new Map()));
  tokens.set(token, (tokens.get(token) ?? 0) + delta);
}

function held(era: Era, wallet: string, token: string): number {
  return era.holdings.get(wallet)?.get(token) ?? 0;
}

/** A binary-module market of the era, unresolved. */
function eraMarket(condition: string): EraMarket {
  return {
    condition,
    tokens: [v2PositionId(condition, 0), v2PositionId(condition, 1)],
    result: null,
    resolvedBlock: 0,
  };
}

/** A native V2 market on the binary module: its metadata (Gamma `version` "v2"), then trading until it resolves. */
function openMarket(era: Era, voided: boolean): void {
  const { world, prng } = era;
  const ctx = world.ctx;
  const condition = '0x01' + prng.hex64().slice(0, 32) + '0'.repeat(28);
  const market = eraMarket(condition);
  era.markets.set(condition, market);
  era.counts.markets++;
  const closeTs = ctx.ts + Math.round(prng.logUniform(3, 12) * DAY);
  const category = prng.pick(CATEGORIES);
  const text = binaryMarketText(category, prng, 900_000 + era.counts.markets, closeTs);
  world.metadata.push({
    id: String(900_000 + era.counts.markets),
    version: 'v2',
    question: text.question,
    slug: text.slug,
    events: [{ id: String(900_000 + era.counts.markets), slug: text.slug, title: text.question }],
    image: imageUrl(text.slug),
    outcomes: JSON.stringify(['Yes', 'No']),
    positionIds: JSON.stringify(market.tokens.map(tokenIdToDecimal)),
    negRisk: false,
    category,
    startDate: isoOf(ctx.ts),
    endDate: isoOf(closeTs),
  });
  // Book trading on ExchangeV3 until the close, then the result.
  const trades = 4 + prng.int(8);
  const closeBlock = Math.min(DEMO_LAST_BLOCK, blockAtOrAfter(closeTs));
  for (let i = 0; i < trades; i++)
    scheduleAt(world, ctx.block + 1 + Math.floor(((closeBlock - ctx.block) * i) / trades), () => {
      if (market.result === null) mintMatch(era, market, prng.pick(era.requesters), prng.pick(era.makers));
    });
  if (closeBlock < DEMO_LAST_BLOCK - 1_000) {
    const result: [number, number] = voided ? [M / 2, M / 2] : prng.chance(0.5) ? [M, 0] : [0, M];
    scheduleAt(world, closeBlock, () => resolve(era, market, result));
  }
}

/**
 * A Protocol V2 round (15 minutes from a feed boundary): a native V2 market named like the venue's series, traded
 * once, then the ChainlinkReporterModule's RequestReported with its start and end prices (18 decimals) and the
 * result from the binary module (Up when the end is at or above the start).
 */
function openRound(era: Era, feed: PriceFeed, slot: number): void {
  const { world, prng } = era;
  const ctx = world.ctx;
  const startTs = slotTs(slot);
  const endTs = startTs + ROUND_SECONDS;
  const condition = '0x01' + prng.hex64().slice(0, 32) + '0'.repeat(28);
  const market = eraMarket(condition);
  const slug = `${feed.asset.toLowerCase()}-updown-15m-${startTs}`;
  world.metadata.push({
    id: String(960_000 + slot),
    version: 'v2',
    question: `${feed.asset} Up or Down - ${isoOf(startTs)}`,
    slug,
    events: [{ id: String(960_000 + slot), slug, title: `${feed.asset} Up or Down` }],
    outcomes: JSON.stringify(['Up', 'Down']),
    positionIds: JSON.stringify(market.tokens.map(tokenIdToDecimal)),
    negRisk: false,
    category: 'Crypto',
    startDate: isoOf(startTs),
    endDate: isoOf(endTs),
  });
  mintMatch(era, market, prng.pick(era.requesters), prng.pick(era.makers));
  scheduleAt(world, blockAtOrAfter(endTs + 60), () => {
    const [start, end] = [feedValueAt(feed, slot), feedValueAt(feed, slot + ROUND_SECONDS / SLOT_SECONDS)];
    const up = end >= start;
    const price = (value: number) => (BigInt(value) * 10n ** 10n).toString(16).padStart(64, '0');
    ctx.capture.beginTx();
    ctx.capture.log(
      {
        kind: KIND.requestReported,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        requestId: '0x' + prng.hex64().slice(0, 58),
        questionId: roundQuestionId({ asset: feed.asset, startTs, endTs }),
        startPrice: price(start),
        endPrice: price(end),
        payout: up ? M : 0,
      },
      ctx.addresses.chainlinkReporter,
    );
    resolve(era, market, up ? [M, 0] : [0, M]);
  });
}

/** A mint match: the exchange splits `shares` on the module; the requester buys YES at p, the maker NO at 1 - p. */
function mintMatch(era: Era, market: EraMarket | EraCombo, taker: string, maker: string, legs?: string[]): void {
  const { world, prng } = era;
  const a = world.ctx.addresses;
  const X = a.exchangeV3;
  const module = legs ? a.combinatorialModule : a.binaryModule;
  const shares = Math.round(prng.logUniform(5, 400)) * M;
  const price = 50 + prng.int(900);
  const takerUsd = (shares * price) / 1000;
  const makerUsd = shares - takerUsd;
  const fee = Math.floor(takerUsd / 200);
  const [yes, no] = market.tokens;
  world.ctx.capture.beginTx();
  if (legs && !era.prepared.has(market.condition)) prepare(era, market.condition, legs);
  log(era, module, {
    kind: KIND.v2PositionsSplit,
    initiator: X,
    conditionId: v2IdWord(market.condition),
    recipient0: X,
    recipient1: X,
    amount: shares,
  });
  move(era, module, ZERO_ADDRESS, X, yes, shares);
  move(era, module, ZERO_ADDRESS, X, no, shares);
  move(era, X, X, taker, yes, shares);
  move(era, X, X, maker, no, shares);
  const takerHash = '0x' + prng.hex64();
  const fill = (hash: string, wallet: string, counterparty: string, token: string, usd: number, feeUsd: number) => ({
    kind: KIND.v3OrderFilled,
    orderHash: hash,
    maker: wallet,
    taker: counterparty,
    side: 0,
    tokenId: token,
    makerAmountFilled: usd,
    takerAmountFilled: shares,
    fee: feeUsd,
    builder: ZERO_BYTES32,
    metadata: ZERO_BYTES32,
  });
  log(era, X, fill('0x' + prng.hex64(), maker, taker, no, makerUsd, 0));
  if (fee > 0) log(era, X, { kind: KIND.v3FeeCharged, receiver: DEMO_FEE_RECEIVER_V3, amount: fee });
  log(era, X, fill(takerHash, taker, X, yes, takerUsd, fee));
  log(era, X, {
    kind: KIND.v3OrdersMatched,
    takerOrderHash: takerHash,
    takerOrderMaker: taker,
    side: 0,
    tokenId: yes,
    makerAmountFilled: takerUsd,
    takerAmountFilled: shares,
  });
  hold(era, taker, yes, shares);
  hold(era, maker, no, shares);
  era.counts.fills += 2;
}

function prepare(era: Era, condition: string, legs: string[]): void {
  era.prepared.add(condition);
  log(era, era.world.ctx.addresses.combinatorialModule, {
    kind: KIND.comboConditionPrepared,
    conditionId: v2IdWord(condition),
    legs,
  });
}

/** The result from the binary module; holders redeem over the next days, some through the AutoRedeemer. */
function resolve(era: Era, market: EraMarket, result: [number, number]): void {
  const { world, prng } = era;
  const module = world.ctx.addresses.binaryModule;
  market.result = result;
  market.resolvedBlock = world.ctx.block;
  world.ctx.capture.beginTx();
  const word = v2IdWord(market.condition);
  log(era, module, { kind: KIND.v2ResultReported, resolver: RESULT_ORACLE, conditionId: word, result });
  log(era, module, { kind: KIND.v2ConditionResolved, conditionId: word, result });
  for (const [wallet, tokens] of era.holdings) {
    for (const [outcome, token] of market.tokens.entries()) {
      if ((tokens.get(token) ?? 0) <= 0 || prng.chance(0.25)) continue;
      scheduleAt(world, world.ctx.block + 30 + prng.int(3 * 43_200), () =>
        redeem(era, wallet, token, prng.chance(0.3), (amount) => Math.floor((amount * result[outcome]!) / M)),
      );
    }
  }
  // Combos with this leg: early losses paid to NO holders, compresses of YES holders whose legs all won so far.
  for (const combo of era.combos) {
    if (!combo.legs.some((leg) => leg.startsWith(market.condition.slice(2)))) continue;
    scheduleAt(world, world.ctx.block + 60 + prng.int(43_200), () => settleComboHolders(era, combo));
  }
}

/** Redeems what `wallet` holds of `token` for the module's payout, through the Router or the AutoRedeemer. */
function redeem(era: Era, wallet: string, token: string, auto: boolean, payoutOf: (amount: number) => number): void {
  const amount = held(era, wallet, token);
  if (amount <= 0) return;
  const a = era.world.ctx.addresses;
  const module = token.startsWith('03') ? a.combinatorialModule : a.binaryModule;
  const operator = auto ? a.autoRedeemer : a.v2Router;
  const payout = payoutOf(amount);
  era.world.ctx.capture.beginTx();
  move(era, operator, wallet, module, token, amount);
  move(era, module, module, ZERO_ADDRESS, token, amount);
  log(era, module, {
    kind: KIND.v2PositionRedeemed,
    initiator: operator,
    positionId: token,
    recipient: auto ? a.autoRedeemer : wallet,
    amount,
    payout,
  });
  if (auto) {
    log(era, a.autoRedeemer, { kind: KIND.v2AutoRedemption, from: wallet, positionId: token, payout });
    era.counts.autoRedemptions++;
  } else {
    log(era, a.v2Router, { kind: KIND.routerPositionRedeemed, initiator: wallet, positionId: token, amount });
    era.counts.redemptions++;
  }
  hold(era, wallet, token, -amount);
}

function legResults(era: Era, combo: EraCombo): LegResult[] {
  return combo.legs.map((leg) => {
    const market = era.markets.get('0x' + leg.slice(0, 62))!;
    const outcome = parseInt(leg.slice(62), 16);
    return market.result === null
      ? { payout: null, resolvedAt: 0, resolvedBlock: 0 }
      : {
          payout: market.result[outcome]!,
          resolvedAt: blockTs(market.resolvedBlock),
          resolvedBlock: market.resolvedBlock,
        };
  });
}

/** After one of its legs resolved: terminal combos are redeemed; a YES whose resolved legs all won may compress. */
function settleComboHolders(era: Era, combo: EraCombo): void {
  const { prng } = era;
  const resolution = comboResolution(legResults(era, combo));
  const terminal = resolution.terminal;
  for (const wallet of era.holdings.keys()) {
    if (terminal) {
      const [yes, no] = [terminal.yes, terminal.no];
      redeem(era, wallet, combo.tokens[0], prng.chance(0.4), (amount) => Math.floor((amount * yes) / M));
      redeem(era, wallet, combo.tokens[1], prng.chance(0.4), (amount) => Math.floor((amount * no) / M));
    } else if (resolution.resolvedFactor === RESULT_DENOMINATOR && held(era, wallet, combo.tokens[0]) > 0) {
      if (era.counts.compresses === 0 || prng.chance(0.5)) compress(era, wallet, combo);
    }
  }
}

/** Compress of a YES whose resolved legs all paid in full: the same amount of the combo of its unresolved legs. */
function compress(era: Era, wallet: string, combo: EraCombo): void {
  const results = legResults(era, combo);
  const remaining = combo.legs.filter((_, i) => results[i]!.payout === null);
  const amount = held(era, wallet, combo.tokens[0]);
  const reduced = comboConditionId(canonicalLegs(remaining));
  const reducedYes = v2PositionId(reduced, 0);
  const a = era.world.ctx.addresses;
  const module = a.combinatorialModule;
  era.world.ctx.capture.beginTx();
  move(era, a.v2Router, wallet, module, combo.tokens[0], amount);
  if (!era.prepared.has(reduced)) prepare(era, reduced, canonicalLegs(remaining));
  move(era, module, ZERO_ADDRESS, wallet, reducedYes, amount);
  move(era, module, module, ZERO_ADDRESS, combo.tokens[0], amount);
  log(era, module, {
    kind: KIND.comboCompressed,
    user: a.v2Router,
    oldPositionId: combo.tokens[0],
    newPositionId: reducedYes,
    recipient: wallet,
    amount,
    positionAmount: amount,
    collateralOut: 0,
  });
  hold(era, wallet, combo.tokens[0], -amount);
  hold(era, wallet, reducedYes, amount);
  const reducedCombo: EraCombo = {
    condition: reduced,
    tokens: [reducedYes, v2PositionId(reduced, 1)],
    legs: remaining,
  };
  era.combos.push(reducedCombo);
  era.counts.compresses++;
}

/** A combo of two or three open markets' legs, each YES or NO, first traded at once. */
function createCombo(era: Era): void {
  const { prng } = era;
  const open = [...era.markets.values()].filter((market) => market.result === null);
  if (open.length < 2) return;
  const size = Math.min(open.length, 2 + prng.int(2));
  const chosen = new Set<EraMarket>();
  while (chosen.size < size) chosen.add(prng.pick(open));
  const legs = canonicalLegs([...chosen].map((market) => market.tokens[prng.chance(0.7) ? 0 : 1]));
  const condition = comboConditionId(legs);
  if (era.combos.some((combo) => combo.condition === condition)) return;
  const combo: EraCombo = { condition, tokens: [v2PositionId(condition, 0), v2PositionId(condition, 1)], legs };
  era.combos.push(combo);
  era.counts.combos++;
  mintMatch(era, combo, prng.pick(era.requesters), prng.pick(era.makers), legs);
  if (prng.chance(0.3)) mintMatch(era, combo, prng.pick(era.requesters), prng.pick(era.makers), legs);
  // Some holders of a leg wrap it into a single-leg combo and later unwrap part of it (the first combo's always).
  if (era.counts.wraps === 0 || prng.chance(0.15)) wrapRoundTrip(era);
}

function wrapRoundTrip(era: Era): void {
  const holdings: Array<[string, string, number]> = [];
  for (const [wallet, tokens] of era.holdings)
    for (const [token, amount] of tokens)
      if (token.startsWith('01') && amount > 0) holdings.push([wallet, token, amount]);
  if (holdings.length === 0) return;
  const [wallet, underlying, amount] = era.prng.pick(holdings);
  const a = era.world.ctx.addresses;
  const module = a.combinatorialModule;
  const wrapped = comboConditionId([underlying]);
  const wrappedYes = v2PositionId(wrapped, 0);
  era.world.ctx.capture.beginTx();
  move(era, a.v2Router, wallet, module, underlying, amount);
  if (!era.prepared.has(wrapped)) prepare(era, wrapped, [underlying]);
  move(era, module, ZERO_ADDRESS, wallet, wrappedYes, amount);
  move(era, module, module, ZERO_ADDRESS, underlying, amount);
  log(era, module, {
    kind: KIND.comboWrapped,
    user: a.v2Router,
    underlyingPositionId: underlying,
    combinatorialPositionId: wrappedYes,
    recipient: wallet,
    amount,
  });
  hold(era, wallet, underlying, -amount);
  hold(era, wallet, wrappedYes, amount);
  era.counts.wraps++;
  const back = Math.floor(amount / 2);
  scheduleAt(era.world, era.world.ctx.block + 1_800, () => {
    if (held(era, wallet, wrappedYes) < back || back === 0) return;
    era.world.ctx.capture.beginTx();
    move(era, a.v2Router, wallet, module, wrappedYes, back);
    move(era, module, ZERO_ADDRESS, wallet, underlying, back);
    move(era, module, module, ZERO_ADDRESS, wrappedYes, back);
    log(era, module, {
      kind: KIND.comboUnwrapped,
      user: a.v2Router,
      combinatorialPositionId: wrappedYes,
      underlyingPositionId: underlying,
      recipient: wallet,
      amount: back,
    });
    hold(era, wallet, wrappedYes, -back);
    hold(era, wallet, underlying, back);
    era.counts.unwraps++;
  });
}

/**
 * A CTF market whose positions migrate: a requester splits on the CTF, the condition is registered for migration,
 * and the requester moves its YES into the V2 position (PositionMigrated), which later resolves on the module.
 */
function migrateCtfMarket(era: Era): void {
  const { world, prng } = era;
  const ctx = world.ctx;
  const a = ctx.addresses;
  const legacy = '0x' + prng.hex64();
  const wallet = prng.pick(era.requesters);
  const amount = Math.round(prng.logUniform(20, 500)) * M;
  const ctfTokens = outcomeTokenIds(legacy, a.usdc) as [string, string];
  ctx.capture.beginTx();
  logConditionPreparation(ctx, legacy, UMA_ORACLE, '0x' + prng.hex64());
  ctx.capture.beginTx();
  logTransferBatch(ctx, wallet, ZERO_ADDRESS, wallet, ctfTokens, [amount, amount]);
  logCtfSplit(ctx, wallet, a.usdc, legacy, amount);
  const text = binaryMarketText('Politics', prng, 950_000, ctx.ts + 20 * DAY);
  world.metadata.push({
    id: '950000',
    question: text.question,
    conditionId: legacy,
    slug: text.slug,
    events: [{ id: '950000', slug: text.slug, title: text.question }],
    image: imageUrl(text.slug),
    outcomes: JSON.stringify(['Yes', 'No']),
    clobTokenIds: JSON.stringify(ctfTokens.map(tokenIdToDecimal)),
    negRisk: false,
    category: 'Politics',
    startDate: isoOf(ctx.ts),
    endDate: isoOf(ctx.ts + 20 * DAY),
  });
  const condition = binaryMigrationConditionId(legacy);
  const market = eraMarket(condition);
  era.markets.set(condition, market);
  era.counts.migratedMarkets++;
  scheduleAt(world, ctx.block + 300, () => {
    ctx.capture.beginTx();
    const word = v2IdWord(condition);
    log(era, a.binaryModule, {
      kind: KIND.v2MigrationConditionRegistered,
      v2ConditionId: word,
      legacyConditionId: legacy,
    });
    ctx.capture.beginTx();
    ctx.capture.log(
      {
        kind: KIND.transferSingle,
        logIndex: 0,
        txIndex: 0,
        tx: '',
        operator: a.binaryModule,
        from: wallet,
        to: a.binaryModule,
        tokenId: ctfTokens[0],
        value: amount,
      },
      a.ctf,
    );
    move(era, a.binaryModule, ZERO_ADDRESS, wallet, market.tokens[0], amount);
    log(era, a.binaryModule, {
      kind: KIND.v2PositionMigrated,
      from: wallet,
      conditionId: word,
      positionId: market.tokens[0],
      outcomeIndex: 0,
      amount,
    });
    hold(era, wallet, market.tokens[0], amount);
  });
  scheduleAt(world, ctx.block + 5 * 43_200, () => resolve(era, market, [M, 0]));
}
