// A wallet-tag run (docs/design.md 6): the rules (walletTagRules.ts) over the fills of the 7 days before a UTC
// midnight, made by the rollup once the fold has passed that midnight. A pure function of the log and the
// market metadata (which markets are Up/Down rounds): the run of a day is the same whenever it is made, and made
// again when the rounds the metadata names change (metadata loaded after the fold passed the midnight).
import { createHash } from 'node:crypto';
import { KIND } from '../chain/chainEvent.js';
import type { EventLog } from '../log/eventLog.js';
import { ID_SPACE } from '../log/idDictionary.js';
import type { OffchainStore } from '../offchain/openOffchainStore.js';
import { listRoundMarkets } from '../offchain/roundMarkets.js';
import type { StateStore } from '../state/openStateStore.js';
import { createStateReader, type StateReader } from '../state/stateReader.js';
import {
  putTagRun,
  readLatestTagRunNumber,
  readTagRunInputs,
  writeTagRunInputs,
  type TagRun,
  type TagRunTag,
} from '../state/tagRuns.js';
import { digestHex } from '../offchain/offchainDigest.js';
import { readOffchainDigests } from '../offchain/offchainWrites.js';
import { ROLE, SIDE } from '../state/tradeRow.js';
import { createTagScan, RULES, RULES_VERSION, type TagMarkets, type WalletTag } from './walletTagRules.js';

const DAY = 86_400;
const WINDOW_DAYS = 7;

const iso = (ts: number) => new Date(ts * 1000).toISOString().replace('.000Z', 'Z');

/** Runs the day's tags when the fold has passed a UTC midnight the last run did not cover; the run made, or null. */
export function runWalletTags(store: StateStore, offchain: OffchainStore, openLog: () => EventLog): TagRun | null {
  const reader = createStateReader(store);
  const block = reader.cursor().block;
  const record = block >= 0 ? reader.block(block) : null;
  if (record === null || !reader.keepsTrades()) return null;
  const end = Math.floor(record.ts / DAY) * DAY;
  const latest = readLatestTagRunNumber(store) ?? -1;
  if (latest > end / DAY) return null;
  // The day's run is made again when the rounds the metadata names changed since (metadata loaded after the fold).
  const inputs = tagRunInputs(offchain);
  if (latest === end / DAY) {
    const kept = readTagRunInputs(store);
    if (kept?.metadata === inputs.metadata) return null;
    if (kept?.rounds === inputs.rounds()) {
      writeTagRunInputs(store, { metadata: inputs.metadata, rounds: kept.rounds });
      return null;
    }
  }
  // The fold must have passed the midnight, not begun after it: a window before the first block has no fills.
  const [first] = reader.blocks({ limit: 1 });
  if (first === undefined || first.ts >= end) return null;
  const log = openLog();
  let run: TagRun;
  try {
    run = walletTagRun(reader, offchain, log, end);
  } finally {
    log.close();
  }
  putTagRun(store, run, { metadata: inputs.metadata, rounds: inputs.rounds() });
  return run;
}

/** The metadata's digest, and a digest of the rounds it names (a scan of the metadata, made only when asked). */
function tagRunInputs(offchain: OffchainStore): { metadata: string; rounds: () => string } {
  let rounds: string | null = null;
  return {
    metadata: digestHex(readOffchainDigests(offchain).metadata),
    rounds() {
      if (rounds === null) {
        const hash = createHash('sha256');
        for (const round of listRoundMarkets(offchain)) hash.update(round.conditionId);
        rounds = hash.digest('hex');
      }
      return rounds;
    },
  };
}

/** The run over the fills of [end - 7 days, end), and the splits the log holds in it. */
export function walletTagRun(reader: StateReader, offchain: OffchainStore, log: EventLog, end: number): TagRun {
  const start = end - WINDOW_DAYS * DAY;
  const scan = createTagScan(tagMarkets(reader, offchain));
  const first = reader.firstBlockFrom(start);
  if (first !== null) {
    // Splits are not in the fills table: the log's own events, read once for the window.
    for (const { ts, events } of log.read(first - 1)) {
      if (ts >= end) break;
      for (const event of events) {
        if (event.kind !== KIND.ctfSplit && event.kind !== KIND.adapterSplit) continue;
        const walletId = reader.idNumber(ID_SPACE.address, event.stakeholder);
        const market = reader.idNumber(ID_SPACE.condition, event.conditionId);
        if (walletId !== null && market !== null) scan.addSplit(walletId, market, ts);
      }
    }
    for (const { fill } of reader.fillsFrom(first)) {
      if (fill.ts >= end) break;
      scan.add({
        walletId: fill.walletId,
        ts: fill.ts,
        maker: fill.role === ROLE.maker,
        buy: fill.side === SIDE.buy,
        market: fill.marketSpace === ID_SPACE.condition ? fill.marketId : -1 - fill.marketId,
        outcome: fill.outcomeIndex,
        price: fill.shares > 0 ? fill.usd / fill.shares : 0,
      });
    }
  }
  const tags: Record<string, TagRunTag> = {};
  for (const [walletId, tag] of scan.finish()) tags[reader.idText(ID_SPACE.address, walletId)] = runTag(reader, tag);
  return {
    run: end / DAY,
    rulesVersion: RULES_VERSION,
    windowStart: iso(start),
    windowEnd: iso(end),
    computedAt: iso(end),
    count: Object.keys(tags).length,
    tags,
  };
}

function tagMarkets(reader: StateReader, offchain: OffchainStore): TagMarkets {
  const rounds = new Set<number>();
  for (const round of listRoundMarkets(offchain)) {
    const id = reader.idNumber(ID_SPACE.condition, round.conditionId);
    if (id !== null) rounds.add(id);
  }
  const events = new Map<number, { id: string; questions: number } | null>();
  return {
    isRound: (market) => rounds.has(market),
    event(market) {
      let event = events.get(market);
      if (event === undefined) {
        const marketId =
          market >= 0 ? (reader.market(reader.idText(ID_SPACE.condition, market))?.negRiskMarketId ?? null) : null;
        const record = marketId === null ? null : reader.negRiskEvent(marketId);
        event = record === null ? null : { id: record.marketId, questions: record.questions.length };
        events.set(market, event);
      }
      return event;
    },
  };
}

/** The tag as answered: its facts, a sentence saying them, and since when (ISO). */
function runTag(reader: StateReader, tag: WalletTag): TagRunTag {
  const f = tag.facts;
  let facts = f;
  let text: string;
  switch (tag.kind) {
    case 'high-frequency':
      text = `${f.ordersPerDay} fills a day on ${f.days} active days, in ${f.hoursPerDay} distinct hours a day`;
      break;
    case 'market-maker':
      text = `${f.makerShare}% of ${f.fills} fills as a maker, quoting both sides in ${f.twoSidedMarkets} markets`;
      break;
    case 'updown-bot':
      text = `${f.roundShare}% of ${f.fills} fills in crypto Up/Down rounds, over ${f.rounds} rounds`;
      break;
    case 'arbitrage':
      text = `bought complementary outcomes for under $1 within ${RULES.arbitrage.seconds} s in ${f.markets} markets`;
      break;
    case 'copy-trader': {
      const leader = reader.idText(ID_SPACE.address, f.leaderId as number);
      facts = { leader, copies: f.copies!, markets: f.markets! };
      text = `repeated ${leader}'s fills ${f.copies} times within ${RULES.copyTrader.seconds} s, in ${f.markets} markets`;
      break;
    }
  }
  return { kind: tag.kind, text, facts, since: iso(tag.firstTs) };
}
