// The demo venue: a small venue is generated and every line checked (capture format, ordering, the fast
// decoder and viem's decodeEventLog against the events the encoder was given, ERC-1155 plumbing that nets to
// zero on the venue contracts, match arithmetic, fee sums, crypto rounds settled by the feed, market ids in
// markets.json), then determinism by file hashes; a 200k-fill venue measures the generation rate and checks
// that the bot wallets meet the tag rules of replay/README.md, Demo venue in its last 7 days.
import t from 'tap';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isDeepStrictEqual } from 'node:util';
import { decodeEventLog } from 'viem';
import {
  EVENT_FIELDS,
  KIND,
  type ChainEvent,
  type Kind,
  type OrderFilledV1,
  type OrderFilledV2,
} from '../../engine/chain/chainEvent.js';
import {
  conditionIdOf,
  negRiskConditionId,
  negRiskQuestionId,
  outcomeTokenIds,
} from '../../engine/chain/positionIds.js';
import { tokenIdToDecimal } from '../../engine/chain/tokenId.js';
import { NO_TOKEN_BURN_ADDRESS, POLYGON_ADDRESSES, ZERO_ADDRESS } from '../../engine/chain/venueAddresses.js';
import { createLogDecoder } from '../../replay/decode/decodeLog.js';
import { createRawLog } from '../../replay/decode/rawLog.js';
import { readCaptureBatches } from '../../replay/source/readCaptureBatches.js';
import { EVENT_ABIS, EVENT_TOPICS } from '../../replay/decode/eventAbis.js';
import { isV2Kind } from '../../engine/chain/v2EventAbis.js';
import { DEMO_FIRST_BLOCK, DEMO_START_TS } from '../../cli/demo/demoTimeline.js';
import { formatCaptureLine } from '../../replay/source/encodeLog.js';
import type { EncodedLog, LogPosition } from '../../replay/source/encodedLog.js';
import { DEMO_PRICE_FEEDS, generateDemoVenue, type DemoSummary } from '../../cli/demo/generateDemoVenue.js';

const A = { ...POLYGON_ADDRESSES, priceFeeds: { ...DEMO_PRICE_FEEDS } };
const SEED = 7;
const SMALL_FILLS = 5_000;
const ZERO_ID = '0'.repeat(64);
const KEYS = [
  'address',
  'topics',
  'data',
  'blockNumber',
  'blockHash',
  'blockTimestamp',
  'transactionHash',
  'transactionIndex',
  'logIndex',
  'removed',
];
const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/;
const WORD = /^0x[0-9a-f]{64}$/;
// The first ledger's kinds only: the venue here has no second ledger, whose TransferSingle, OrderFilled and
// FeeCharged share the first ledger's topics (test/demo/demoProtocolV2.test.ts checks that ledger).
const KIND_OF_TOPIC = new Map<string, Kind>(
  Object.entries(EVENT_TOPICS)
    .filter(([kind]) => !isV2Kind(Number(kind)))
    .map(([kind, topic]) => [topic, Number(kind) as Kind]),
);

interface Logged {
  event: ChainEvent | null;
  address: string;
  encoded: EncodedLog;
  at: LogPosition;
}

interface CaptureLine {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  blockTimestamp: string;
  transactionHash: string;
  transactionIndex: string;
  logIndex: string;
  removed: boolean;
}

interface GammaMarket {
  conditionId: string;
  questionID: string;
  slug: string;
  question: string;
  events: { slug: string; title: string }[];
  image: string;
  outcomes: string;
  clobTokenIds: string;
  negRisk: boolean;
  negRiskMarketID?: string;
  groupItemThreshold?: string;
  category?: string;
  startDate: string;
  endDate: string;
  marketMakerAddress?: string;
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const hexNumber = (value: string) => parseInt(value, 16);

/** The fields of `kind` as viem names them, mapped to ours (fields the decoder adds from the address left out). */
const INJECTED = new Set(['exchange', 'module', 'feed']);
const HEX_FIELDS = new Set([
  'makerAssetId',
  'takerAssetId',
  'tokenId',
  'token0',
  'token1',
  'tokenIds',
  'indexSet',
  'roundId',
]);
const injected = (kind: Kind, field: string) =>
  INJECTED.has(field) || (field === 'pool' && kind >= KIND.fpmmBuy && kind <= KIND.fpmmFundingRemoved);
const isHexField = (kind: Kind, field: string) =>
  HEX_FIELDS.has(field) || (kind === KIND.fpmmCreation && field === 'fee');

function normalize(value: unknown, hex: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => normalize(v, hex));
  if (typeof value === 'bigint') return hex ? value.toString(16).padStart(64, '0') : Number(value);
  if (typeof value === 'string') return value.toLowerCase();
  return value;
}

/** viem's decoding of a line, in our field names and representation. */
function viemFields(kind: Kind, line: CaptureLine): Record<string, unknown> {
  const abi = EVENT_ABIS[kind];
  const decoded = decodeEventLog({
    abi: [abi],
    topics: line.topics as never,
    data: line.data as `0x${string}`,
    strict: true,
  });
  const args = decoded.args as unknown as Record<string, unknown>;
  const ours = EVENT_FIELDS[kind].filter((field) => !injected(kind, field));
  const fields: Record<string, unknown> = {};
  abi.inputs.forEach((input, i) => {
    fields[ours[i]!] = normalize(args[input.name!], isHexField(kind, ours[i]!));
  });
  return fields;
}

/** Logs the decoder drops as plumbing: the venue's own contracts moving tokens (decodeLog). */
const PLUMBING_ACTORS = new Set([
  A.ctfExchange,
  A.negRiskExchange,
  A.ctfExchangeV2,
  A.negRiskExchangeV2,
  A.negRiskAdapter,
  A.feeModule,
  A.negRiskFeeModule,
  A.negRiskFeeModuleLegacy,
]);
function isPlumbing(event: ChainEvent): boolean {
  switch (event.kind) {
    case KIND.transferSingle:
    case KIND.transferBatch:
      return PLUMBING_ACTORS.has(event.operator);
    case KIND.ctfSplit:
    case KIND.ctfMerge:
    case KIND.adapterSplit:
    case KIND.adapterMerge:
      return PLUMBING_ACTORS.has(event.stakeholder);
    case KIND.ctfRedemption:
      return PLUMBING_ACTORS.has(event.redeemer);
    default:
      return false;
  }
}

async function generate(
  fills: number,
  seed: number,
  onLog?: (logged: Logged) => void,
): Promise<{ dir: string; summary: DemoSummary; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-demo-'));
  const started = performance.now();
  const summary = await generateDemoVenue({
    outDir: dir,
    fills,
    seed,
    onLog: onLog === undefined ? undefined : (event, address, encoded, at) => onLog({ event, address, encoded, at }),
  });
  return { dir, summary, seconds: (performance.now() - started) / 1000 };
}

t.test('default: a small venue', async (t) => {
  const logged: Logged[] = [];
  const { dir, summary } = await generate(SMALL_FILLS, SEED, (entry) => logged.push(entry));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const text = readFileSync(join(dir, 'capture.ndjson'), 'latin1');
  const rawLines = text.split('\n');
  t.equal(rawLines.pop(), '', 'the capture ends with a newline');
  t.equal(rawLines.length, logged.length, 'one line per log written');
  t.equal(summary.lines, logged.length);
  t.equal(summary.bytes, Buffer.byteLength(text, 'latin1'));
  const lines = rawLines.map((raw) => JSON.parse(raw) as CaptureLine);
  const markets = JSON.parse(readFileSync(join(dir, 'markets.json'), 'utf8')) as GammaMarket[];
  const profiles = JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8')) as Record<string, unknown>[];
  const demo = JSON.parse(readFileSync(join(dir, 'demo.json'), 'utf8')) as DemoSummary;
  t.strictSame(demo, summary, 'demo.json is the summary');

  t.test('capture format', async (t) => {
    let bad = '';
    lines.forEach((line, i) => {
      if (bad !== '') return;
      const problem = !isDeepStrictEqual(Object.keys(line), KEYS)
        ? 'keys'
        : !/^0x[0-9a-f]{40}$/.test(line.address)
          ? 'address'
          : line.topics.length < 1 || line.topics.length > 4 || !line.topics.every((topic) => WORD.test(topic))
            ? 'topics'
            : !/^0x([0-9a-f]{64})*$/.test(line.data)
              ? 'data'
              : ![line.blockNumber, line.blockTimestamp, line.transactionIndex, line.logIndex].every((q) =>
                    QUANTITY.test(q),
                  )
                ? 'quantities'
                : !WORD.test(line.blockHash) || !WORD.test(line.transactionHash)
                  ? 'hashes'
                  : line.removed !== false
                    ? 'removed'
                    : hexNumber(line.blockTimestamp) !==
                        DEMO_START_TS + 2 * (hexNumber(line.blockNumber) - DEMO_FIRST_BLOCK)
                      ? 'timestamp'
                      : rawLines[i] !== formatCaptureLine(logged[i]!.address, logged[i]!.encoded, logged[i]!.at)
                        ? 'formatCaptureLine'
                        : '';
      if (problem !== '') bad = `line ${i + 1}: ${problem}: ${rawLines[i]}`;
    });
    t.equal(bad, '', 'every line is an eth_getLogs object with 0x quantities');
  });

  t.test('ordering: blocks, transactions, log indexes', async (t) => {
    let problems = 0;
    let first = '';
    const note = (message: string) => {
      if (problems++ === 0) first = message;
    };
    const blockHashes = new Map<number, string>();
    const txSeen = new Map<string, string>();
    let lastBlock = -1;
    let lastLog = -1;
    let lastTxIndex = -1;
    let lastTx = '';
    const logsPerBlock = new Map<number, number>();
    lines.forEach((line, i) => {
      const block = hexNumber(line.blockNumber);
      const logIndex = hexNumber(line.logIndex);
      const txIndex = hexNumber(line.transactionIndex);
      logsPerBlock.set(block, (logsPerBlock.get(block) ?? 0) + 1);
      if (block < lastBlock || (block === lastBlock && logIndex <= lastLog))
        note(`line ${i + 1}: (block, logIndex) not increasing`);
      if (block === lastBlock && txIndex < lastTxIndex) note(`line ${i + 1}: transaction index goes back`);
      const hash = blockHashes.get(block);
      if (hash !== undefined && hash !== line.blockHash)
        note(`line ${i + 1}: block hash changes within block ${block}`);
      blockHashes.set(block, line.blockHash);
      const place = `${block}:${txIndex}`;
      const seen = txSeen.get(line.transactionHash);
      if (seen !== undefined && seen !== place)
        note(`line ${i + 1}: transaction ${line.transactionHash} at two places`);
      if (line.transactionHash !== lastTx && seen !== undefined) note(`line ${i + 1}: transaction split`);
      txSeen.set(line.transactionHash, place);
      if (block === lastBlock && txIndex === lastTxIndex && line.transactionHash !== lastTx)
        note(`line ${i + 1}: two hashes for one transaction index`);
      lastBlock = block;
      lastLog = logIndex;
      lastTxIndex = txIndex;
      lastTx = line.transactionHash;
    });
    t.equal(problems, 0, first || 'ordered');
    t.equal(new Set(blockHashes.values()).size, blockHashes.size, 'block hashes are distinct');
    const counts = [...logsPerBlock.values()];
    t.ok(
      counts.reduce((a, b) => a + b, 0) / counts.length >= 3,
      `several logs per block (mean ${(counts.reduce((a, b) => a + b, 0) / counts.length).toFixed(1)})`,
    );
    const firstTs = hexNumber(lines[0]!.blockTimestamp);
    const lastTs = hexNumber(lines.at(-1)!.blockTimestamp);
    t.ok(lastTs - firstTs > 44 * 86_400, 'about 45 days of blocks');
    const end = Date.UTC(2026, 10, 1) / 1000;
    t.ok(lastTs < end && lastTs > end - 3_600, 'the capture runs into the last hour before 2026-11-01');
    t.equal(summary.firstBlock, hexNumber(lines[0]!.blockNumber));
    t.equal(summary.lastBlock, hexNumber(lines.at(-1)!.blockNumber));
  });

  t.test('decode: the fast decoder and viem return what the encoder was given', async (t) => {
    const decoder = createLogDecoder(A);
    const pools = new Set(markets.filter((m) => m.marketMakerAddress !== undefined).map((m) => m.marketMakerAddress!));
    const exchangesV1 = new Set([A.ctfExchange, A.negRiskExchange]);
    const exchangesV2 = new Set([A.ctfExchangeV2, A.negRiskExchangeV2]);
    const modules = new Set([A.feeModule, A.negRiskFeeModule, A.negRiskFeeModuleLegacy]);
    const emitterOk = (kind: Kind, address: string): boolean => {
      if (kind <= KIND.transferBatch) return address === A.ctf;
      if (kind <= KIND.feeChargedV1) return exchangesV1.has(address);
      if (kind <= KIND.feeChargedV2) return exchangesV2.has(address);
      if (kind === KIND.feeRefunded) return modules.has(address);
      if (kind <= KIND.adapterRedemption) return address === A.negRiskAdapter;
      if (kind === KIND.fpmmCreation) return address === A.fpmmFactory;
      if (kind <= KIND.fpmmFundingRemoved) return pools.has(address);
      return DEMO_PRICE_FEEDS[address] !== undefined;
    };
    let fastBad = '';
    let viemBad = '';
    let emitterBad = '';
    let others = 0;
    const seen = new Set<Kind>();
    lines.forEach((line, i) => {
      const expected = logged[i]!.event;
      const decoded = decoder.decode(
        createRawLog({
          address: line.address,
          topics: line.topics,
          data: line.data,
          logIndex: hexNumber(line.logIndex),
          txIndex: hexNumber(line.transactionIndex),
          tx: line.transactionHash,
        }),
      );
      if (expected === null) {
        others++;
        if (decoded !== null && fastBad === '') fastBad = `line ${i + 1}: a log tally does not use was decoded`;
        return;
      }
      const wanted = isPlumbing(expected) ? null : expected;
      if (!isDeepStrictEqual(decoded, wanted) && fastBad === '') {
        fastBad = `line ${i + 1}: ${JSON.stringify(decoded)} != ${JSON.stringify(expected)}`;
      }
      const kind = KIND_OF_TOPIC.get(line.topics[0]!);
      if (kind !== expected.kind) {
        if (viemBad === '') viemBad = `line ${i + 1}: topic0 names kind ${kind}, event is ${expected.kind}`;
        return;
      }
      seen.add(kind);
      if (!emitterOk(kind, line.address) && emitterBad === '')
        emitterBad = `line ${i + 1}: kind ${kind} from ${line.address}`;
      const fields = viemFields(kind, line);
      for (const [field, value] of Object.entries(fields)) {
        if (!isDeepStrictEqual(value, (expected as unknown as Record<string, unknown>)[field]) && viemBad === '') {
          viemBad = `line ${i + 1}: ${field}: viem ${JSON.stringify(value)}, encoded ${JSON.stringify((expected as unknown as Record<string, unknown>)[field])}`;
        }
      }
    });
    t.equal(fastBad, '', 'decodeLog equals the encoded event on every line (or drops it as plumbing)');
    t.equal(viemBad, '', 'viem decodeEventLog (strict) equals the encoded event on every line');
    t.equal(emitterBad, '', 'every kind comes from its contract');
    t.equal(others, summary.otherLogs, 'the other logs (LP transfers, NewRound) are skipped');
    // Generated here without the second ledger, whose kinds test/demo/demoProtocolV2.test.ts checks; V2 rounds'
    // reported prices (RequestReported) and upgraded contracts' unknown topics are not in the demo yet.
    const notYet: number[] = [
      KIND.requestReported,
      KIND.unknownTopic,
      ...Object.values(KIND).filter((kind) => kind >= KIND.v2TransferSingle),
    ];
    const missing = Object.values(KIND).filter((kind) => !seen.has(kind) && !notYet.includes(kind));
    t.strictSame(missing, [], 'every event kind appears');
    for (const [name, count] of Object.entries(summary.events)) {
      if (!notYet.includes(KIND[name as keyof typeof KIND])) t.ok(count > 0, `${name} x${count}`);
    }
  });

  t.test('ingest: the capture reader takes the file and yields the encoded events, block by block', async (t) => {
    const expected = logged.flatMap((entry) => (entry.event === null || isPlumbing(entry.event) ? [] : [entry.event]));
    const events: ChainEvent[] = [];
    let blocks = 0;
    let hashesOk = true;
    for (const batch of readCaptureBatches({
      path: join(dir, 'capture.ndjson'),
      decoder: createLogDecoder(A),
      afterBlock: 0,
    })) {
      for (const block of batch.blocks) {
        blocks++;
        const first = logged.find((entry) => entry.at.blockNumber === block.block);
        if (first === undefined || first.at.blockHash !== block.hash || first.at.blockTs !== block.ts) hashesOk = false;
        events.push(...block.events);
      }
    }
    t.ok(blocks > 0 && hashesOk, `${blocks} blocks with their hashes and timestamps`);
    t.equal(events.length, expected.length, 'every venue log but plumbing becomes an event');
    const differ = events.findIndex((event, i) => !isDeepStrictEqual(event, expected[i]));
    t.equal(
      differ,
      -1,
      differ < 0
        ? 'events equal'
        : `event ${differ}: ${JSON.stringify(events[differ])} != ${JSON.stringify(expected[differ])}`,
    );
  });

  t.test('fills: exact count, consistent matches and fees', async (t) => {
    const fills = logged.filter(
      (entry) => entry.event?.kind === KIND.orderFilledV1 || entry.event?.kind === KIND.orderFilledV2,
    );
    t.equal(fills.length, SMALL_FILLS, 'fills = OrderFilled logs');
    const byTx = new Map<string, ChainEvent[]>();
    for (const entry of logged) {
      if (entry.event === null) continue;
      const list = byTx.get(entry.event.tx) ?? [];
      list.push(entry.event);
      byTx.set(entry.event.tx, list);
    }
    let bad = '';
    let matches = 0;
    for (const [tx, events] of byTx) {
      const matched = events.find((e) => e.kind === KIND.ordersMatchedV1 || e.kind === KIND.ordersMatchedV2);
      let feeFilled = 0;
      let feeCharged = 0;
      for (const e of events) {
        if (e.kind === KIND.orderFilledV1 || e.kind === KIND.orderFilledV2) feeFilled += e.fee;
        if (e.kind === KIND.feeChargedV1 || e.kind === KIND.feeChargedV2) feeCharged += e.amount;
      }
      if (feeFilled !== feeCharged && bad === '') bad = `${tx}: fees ${feeFilled} filled, ${feeCharged} charged`;
      if (matched === undefined) continue;
      matches++;
      // Every order's (side, token, shares, usdc); the taker's is the fill whose taker is the exchange.
      const orders = events.flatMap((e) => {
        const row = orderRow(e);
        return row === null ? [] : [row];
      });
      const takers = orders.filter((o) => o.e.taker === exchangeAddress(o.e));
      if (takers.length !== 1) {
        if (bad === '') bad = `${tx}: ${takers.length} taker fills`;
        continue;
      }
      const taker = takers[0]!;
      const makers = orders.filter((o) => o !== taker);
      const matchedShares = taker.buy ? matched.takerAmount : matched.makerAmount;
      if (matchedShares !== taker.shares && bad === '') bad = `${tx}: OrdersMatched disagrees with the taker fill`;
      let shares = 0;
      let usdc = 0;
      for (const maker of makers) {
        shares += maker.shares;
        usdc += maker.token === taker.token ? maker.usdc : maker.shares - maker.usdc;
        if ((maker.usdc * 1000) % maker.shares !== 0 && bad === '') bad = `${tx}: maker price off the 0.001 tick`;
        if (maker.token === taker.token && maker.buy === taker.buy && bad === '') bad = `${tx}: same token, same side`;
        if (maker.token !== taker.token && maker.buy !== taker.buy && bad === '')
          bad = `${tx}: other token, other side`;
        if (maker.e.taker !== matched.takerOrderMaker && bad === '')
          bad = `${tx}: maker fill's taker is not the taker order's owner`;
      }
      if ((shares !== taker.shares || usdc !== taker.usdc) && bad === '')
        bad = `${tx}: makers ${shares}/${usdc}, taker ${taker.shares}/${taker.usdc}`;
    }
    t.equal(bad, '', 'each match balances: shares, USDC, OrdersMatched, fees charged = fees filled');
    t.ok(matches > 0);
  });

  t.test('ERC-1155 plumbing nets to zero on the venue contracts', async (t) => {
    const preexistingTokens = new Set<string>();
    const prepared = new Set(
      logged.flatMap((entry) => (entry.event?.kind === KIND.conditionPreparation ? [entry.event.conditionId] : [])),
    );
    for (const market of markets) {
      if (prepared.has(market.conditionId)) continue;
      for (const id of JSON.parse(market.clobTokenIds) as string[])
        preexistingTokens.add(BigInt(id).toString(16).padStart(64, '0'));
    }
    t.ok(preexistingTokens.size > 0, 'some markets predate the capture');
    const flat = new Set([A.ctfExchange, A.negRiskExchange, A.ctfExchangeV2, A.negRiskExchangeV2, A.negRiskAdapter]);
    const balances = new Map<string, number>();
    const touched = new Set<string>();
    let bad = '';
    let currentTx = '';
    const endTx = () => {
      for (const key of touched)
        if (balances.get(key) !== 0 && bad === '')
          bad = `${currentTx}: ${key} holds ${balances.get(key)} after the transaction`;
      touched.clear();
    };
    const move = (from: string, to: string, token: string, value: number) => {
      if (from !== ZERO_ADDRESS) {
        const key = `${from}/${token}`;
        const next = (balances.get(key) ?? 0) - value;
        balances.set(key, next);
        if (flat.has(from)) touched.add(key);
        else if (next < 0 && !preexistingTokens.has(token) && bad === '')
          bad = `${currentTx}: ${from} goes short of ${token}`;
      }
      if (to !== ZERO_ADDRESS) {
        const key = `${to}/${token}`;
        balances.set(key, (balances.get(key) ?? 0) + value);
        if (flat.has(to)) touched.add(key);
      }
    };
    for (const { event } of logged) {
      if (event === null) continue;
      if (event.tx !== currentTx) {
        endTx();
        currentTx = event.tx;
      }
      if (event.kind === KIND.transferSingle) move(event.from, event.to, event.tokenId, event.value);
      if (event.kind === KIND.transferBatch)
        event.tokenIds.forEach((token, i) => move(event.from, event.to, token, event.values[i]!));
    }
    endTx();
    t.equal(
      bad,
      '',
      'exchanges and adapter end every transaction empty; no wallet sells what it never got (but pre-capture shares)',
    );
    const burned = [...balances].filter(([key, value]) => key.startsWith(NO_TOKEN_BURN_ADDRESS) && value > 0);
    t.ok(burned.length > 0, 'conversions send NO tokens to the burn address');
  });

  t.test('crypto rounds settle on the feed', async (t) => {
    const answers = new Map<string, { ts: number; value: number }[]>();
    const payouts = new Map<string, number[]>();
    for (const { event } of logged) {
      if (event?.kind === KIND.answerUpdated) {
        const list = answers.get(event.feed) ?? [];
        list.push({ ts: event.updatedAt, value: event.current });
        answers.set(event.feed, list);
      }
      if (event?.kind === KIND.conditionResolution) payouts.set(event.conditionId, event.payoutNumerators);
    }
    const feedOf = Object.fromEntries(Object.entries(DEMO_PRICE_FEEDS).map(([address, asset]) => [asset, address]));
    const lastAt = (feed: string, ts: number) =>
      answers
        .get(feed)!
        .filter((a) => a.ts <= ts)
        .at(-1)?.value;
    let rounds = 0;
    let bad = '';
    for (const market of markets) {
      const match = /^(btc|eth|sol|xrp)-updown-15m-(\d+)$/.exec(market.slug);
      if (match === null) continue;
      rounds++;
      if (market.category !== 'Crypto' || market.outcomes !== '["Up","Down"]')
        bad ||= `${market.slug}: not a Crypto Up/Down market`;
      const start = Number(match[2]);
      const feed = feedOf[match[1]!.toUpperCase()]!;
      const strike = lastAt(feed, start);
      const close = lastAt(feed, start + 900);
      const paid = payouts.get(market.conditionId);
      if (strike === undefined || close === undefined) bad ||= `${market.slug}: no feed answer before start or end`;
      else if (paid !== undefined && !isDeepStrictEqual(paid, close >= strike ? [1, 0] : [0, 1]))
        bad ||= `${market.slug}: resolved ${paid} but strike ${strike} close ${close}`;
    }
    t.ok(rounds > 20, `${rounds} rounds`);
    t.equal(bad, '', 'every round resolves Up exactly when close >= strike');
  });

  t.test('markets.json: ids, neg-risk ids, categories, shape', async (t) => {
    const prepared = new Map<string, { oracle: string; questionId: string }>();
    const registered = new Map<string, string[]>();
    const marketIds = new Set<string>();
    for (const { event } of logged) {
      if (event?.kind === KIND.conditionPreparation) prepared.set(event.conditionId, event);
      if (event?.kind === KIND.tokenRegistered)
        registered.set(event.conditionId, [...(registered.get(event.conditionId) ?? []), event.token0]);
      if (event?.kind === KIND.marketPrepared) marketIds.add(event.marketId);
    }
    let bad = '';
    const categories = new Set<string>();
    for (const market of markets) {
      const collateral = market.negRisk ? A.wrappedCollateral : A.usdc;
      const tokens = outcomeTokenIds(market.conditionId, collateral);
      if (market.clobTokenIds !== JSON.stringify(tokens.map(tokenIdToDecimal))) bad ||= `${market.slug}: clobTokenIds`;
      const prep = prepared.get(market.conditionId);
      if (prep !== undefined && conditionIdOf(prep.oracle, prep.questionId, 2) !== market.conditionId)
        bad ||= `${market.slug}: conditionId`;
      if (prep !== undefined && prep.questionId !== market.questionID) bad ||= `${market.slug}: questionID`;
      const reg = registered.get(market.conditionId);
      if (reg !== undefined && !isDeepStrictEqual([...reg].sort(), [...tokens].sort()))
        bad ||= `${market.slug}: TokenRegistered`;
      if (market.negRisk) {
        const index = Number(market.groupItemThreshold);
        if (market.questionID !== negRiskQuestionId(market.negRiskMarketID!, index))
          bad ||= `${market.slug}: neg-risk questionID`;
        if (market.conditionId !== negRiskConditionId(A.negRiskAdapter, market.questionID))
          bad ||= `${market.slug}: neg-risk conditionId`;
        if (!marketIds.has(market.negRiskMarketID!)) bad ||= `${market.slug}: no MarketPrepared`;
      }
      if (!market.image.startsWith('https://') || market.events.length !== 1 || market.events[0]!.slug === '')
        bad ||= `${market.slug}: shape`;
      if (Number.isNaN(Date.parse(market.startDate)) || Number.isNaN(Date.parse(market.endDate)))
        bad ||= `${market.slug}: dates`;
      categories.add(market.category ?? 'Other');
    }
    t.equal(
      bad,
      '',
      'every market: token ids = outcomeTokenIds, conditionId and neg-risk ids as the contracts compute them',
    );
    t.strictSame([...categories].sort(), [
      'Crypto',
      'Culture',
      'Economics',
      'Finance',
      'Mentions',
      'Other',
      'Politics',
      'Sports',
      'Tech',
      'Weather',
    ]);
    t.ok(
      markets.some((m) => m.marketMakerAddress !== undefined),
      'AMM-era markets name their pool',
    );
    t.ok(
      markets.some((m) => !prepared.has(m.conditionId)),
      'some markets predate the capture',
    );
    t.ok(
      profiles.length > 0 &&
        profiles.every((p) => /^0x[0-9a-f]{40}$/.test(p.proxyWallet as string) && 'pseudonym' in p && 'bio' in p),
      'profiles',
    );
  });

  t.test('wallet kinds and activity', async (t) => {
    for (const [kind, wallets] of Object.entries(summary.wallets))
      t.ok(wallets.active > 0, `${kind}: ${wallets.active} of ${wallets.count} trade`);
    const activity = summary.activity;
    for (const key of [
      'transfers',
      'conversions',
      'userSplits',
      'userMerges',
      'redemptions',
      'zeroPayoutRedemptions',
      'ammTrades',
      'copyTrades',
      'arbitrageLegs',
      'partialHistorySells',
      'feeModuleMatches',
    ] as const) {
      t.ok(activity[key] > 0, `${key}: ${activity[key]}`);
    }
    t.ok(
      activity.matchTypes.complementary > 0 && activity.matchTypes.mint > 0 && activity.matchTypes.merge > 0,
      'all three match types',
    );
    t.ok(summary.neverRedeemWallets > 0, 'some wallets never redeem');
    const v1 = logged.some(
      (e) =>
        e.event?.kind === KIND.conditionResolution &&
        e.event.payoutNumerators[0] === 1 &&
        e.event.payoutNumerators[1] === 1,
    );
    t.ok(v1, 'some markets resolve 50/50');
  });
});

interface OrderRow {
  e: OrderFilledV1 | OrderFilledV2;
  buy: boolean;
  token: string;
  shares: number;
  usdc: number;
}

function orderRow(e: ChainEvent): OrderRow | null {
  if (e.kind === KIND.orderFilledV1) {
    const buy = e.makerAssetId === ZERO_ID;
    return {
      e,
      buy,
      token: buy ? e.takerAssetId : e.makerAssetId,
      shares: buy ? e.takerAmount : e.makerAmount,
      usdc: buy ? e.makerAmount : e.takerAmount,
    };
  }
  if (e.kind === KIND.orderFilledV2) {
    const buy = e.side === 0;
    return {
      e,
      buy,
      token: e.tokenId,
      shares: buy ? e.takerAmount : e.makerAmount,
      usdc: buy ? e.makerAmount : e.takerAmount,
    };
  }
  return null;
}

function exchangeAddress(event: OrderFilledV1 | OrderFilledV2): string {
  return event.exchange === 1
    ? A.ctfExchange
    : event.exchange === 2
      ? A.negRiskExchange
      : event.exchange === 3
        ? A.ctfExchangeV2
        : A.negRiskExchangeV2;
}

t.test('behavior: same seed and fills give the same bytes', async (t) => {
  const first = await generate(SMALL_FILLS, SEED);
  const second = await generate(SMALL_FILLS, SEED);
  const other = await generate(SMALL_FILLS, SEED + 1);
  t.teardown(() => {
    for (const run of [first, second, other]) rmSync(run.dir, { recursive: true, force: true });
  });
  for (const file of ['capture.ndjson', 'markets.json', 'profiles.json', 'demo.json']) {
    t.equal(sha256(join(first.dir, file)), sha256(join(second.dir, file)), `${file} is byte-identical`);
  }
  t.not(
    sha256(join(first.dir, 'capture.ndjson')),
    sha256(join(other.dir, 'capture.ndjson')),
    'another seed gives another venue',
  );
});

t.test('error: fills below 2', async (t) => {
  await t.rejects(generateDemoVenue({ outDir: join(tmpdir(), 'tally-demo-never'), fills: 1 }), RangeError);
});

/** One fill row for the tag checks: owner, role, side, token, price (thousandths), time. */
interface FillRow {
  owner: string;
  maker: boolean;
  buy: boolean;
  token: string;
  price: number;
  ts: number;
}

async function readFills(path: string): Promise<FillRow[]> {
  const exchanges = new Set([A.ctfExchange, A.negRiskExchange, A.ctfExchangeV2, A.negRiskExchangeV2]);
  const v1 = EVENT_TOPICS[KIND.orderFilledV1];
  const v2 = EVENT_TOPICS[KIND.orderFilledV2];
  const rows: FillRow[] = [];
  const reader = createInterface({
    input: createReadStream(path, { encoding: 'latin1', highWaterMark: 1 << 20 }),
    crlfDelay: Infinity,
  });
  for await (const raw of reader) {
    const isV1 = raw.includes(v1);
    if (!isV1 && !raw.includes(v2)) continue;
    const line = JSON.parse(raw) as CaptureLine;
    const owner = '0x' + line.topics[2]!.slice(26);
    const taker = '0x' + line.topics[3]!.slice(26);
    const word = (i: number) => line.data.slice(2 + 64 * i, 66 + 64 * i);
    let buy: boolean;
    let token: string;
    let makerAmount: number;
    let takerAmount: number;
    if (isV1) {
      buy = /^0+$/.test(word(0));
      token = buy ? word(1) : word(0);
      makerAmount = parseInt(word(2), 16);
      takerAmount = parseInt(word(3), 16);
    } else {
      buy = parseInt(word(0), 16) === 0;
      token = word(1);
      makerAmount = parseInt(word(2), 16);
      takerAmount = parseInt(word(3), 16);
    }
    const shares = buy ? takerAmount : makerAmount;
    const usdc = buy ? makerAmount : takerAmount;
    rows.push({
      owner,
      maker: !exchanges.has(taker),
      buy,
      token,
      price: (usdc * 1000) / shares,
      ts: hexNumber(line.blockTimestamp),
    });
  }
  return rows;
}

t.test('behavior: 200k fills, generation rate and the tag rules in the last 7 days', async (t) => {
  const fills = 200_000;
  const { dir, summary, seconds } = await generate(fills, 1);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.equal(summary.fills, fills);
  t.ok(
    summary.activity.conversionsWithFee > 0,
    `${summary.activity.conversionsWithFee} conversions pay the adapter's fee`,
  );
  t.comment(
    `generated ${fills} fills in ${seconds.toFixed(2)} s: ${Math.round(fills / seconds)} fills/s, ` +
      `${Math.round(summary.lines / seconds)} lines/s, ${Math.round(summary.bytes / fills)} bytes per fill, ${(summary.bytes / 1e6).toFixed(0)} MB`,
  );

  const markets = JSON.parse(readFileSync(join(dir, 'markets.json'), 'utf8')) as GammaMarket[];
  const marketOf = new Map<string, GammaMarket>();
  for (const market of markets) {
    for (const id of JSON.parse(market.clobTokenIds) as string[])
      marketOf.set(BigInt(id).toString(16).padStart(64, '0'), market);
  }
  const rows = await readFills(join(dir, 'capture.ndjson'));
  t.equal(rows.length, fills);
  const end = summary.lastTs;
  const week = rows.filter((row) => row.ts > end - 7 * 86_400);
  t.ok(week.length > fills * 0.15, `${week.length} fills in the last 7 days`);
  const byOwner = new Map<string, FillRow[]>();
  for (const row of week) {
    const list = byOwner.get(row.owner) ?? [];
    list.push(row);
    byOwner.set(row.owner, list);
  }
  const of = (address: string) => byOwner.get(address) ?? [];
  const pass = (kind: string, rule: (rows: FillRow[], address: string) => string | null) => {
    const addresses = summary.walletAddresses[kind]!;
    const failures = addresses
      .map((address) => [address, rule(of(address), address)] as const)
      .filter(([, why]) => why !== null);
    t.equal(
      failures.length,
      0,
      `${kind}: ${addresses.length - failures.length} of ${addresses.length} meet the rule` +
        (failures.length > 0 ? ` (${failures[0]![0]}: ${failures[0]![1]})` : ''),
    );
  };

  pass('highFrequency', (list) => {
    const days = new Map<number, Set<number>>();
    const perDay = new Map<number, number>();
    for (const row of list) {
      const day = Math.floor(row.ts / 86_400);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
      const hours = days.get(day) ?? new Set();
      hours.add(Math.floor(row.ts / 3_600));
      days.set(day, hours);
    }
    const ordersPerDay = list.length / days.size;
    const hoursPerDay = [...days.values()].reduce((a, h) => a + h.size, 0) / days.size;
    return ordersPerDay >= 200 && hoursPerDay >= 8 && days.size >= 3
      ? null
      : `${ordersPerDay.toFixed(0)}/day, ${hoursPerDay.toFixed(1)} h/day, ${days.size} days`;
  });
  pass('marketMaker', (list) => {
    const makerShare = list.filter((row) => row.maker).length / list.length;
    const sides = new Map<string, number>();
    for (const row of list) {
      if (!row.maker) continue;
      const market = marketOf.get(row.token)?.conditionId ?? row.token;
      sides.set(market, (sides.get(market) ?? 0) | (row.buy ? 1 : 2));
    }
    const bothSides = [...sides.values()].filter((mask) => mask === 3).length;
    return makerShare >= 0.7 && list.length >= 100 && bothSides >= 5
      ? null
      : `maker ${(100 * makerShare).toFixed(0)}%, ${list.length} fills, both sides in ${bothSides}`;
  });
  pass('updownBot', (list) => {
    const inRounds = list.filter((row) => /-updown-15m-/.test(marketOf.get(row.token)?.slug ?? ''));
    const rounds = new Set(inRounds.map((row) => marketOf.get(row.token)!.conditionId)).size;
    const share = inRounds.length / list.length;
    return share >= 0.8 && rounds >= 20 ? null : `${(100 * share).toFixed(0)}% in rounds, ${rounds} rounds`;
  });
  const questionCount = new Map<string, number>();
  for (const market of markets)
    if (market.negRisk)
      questionCount.set(market.negRiskMarketID!, (questionCount.get(market.negRiskMarketID!) ?? 0) + 1);
  const yesToken = (market: GammaMarket) =>
    BigInt((JSON.parse(market.clobTokenIds) as string[])[0]!)
      .toString(16)
      .padStart(64, '0');
  pass('arbitrageur', (list) => {
    const buys = list.filter((row) => row.buy);
    const arbitraged = new Set<string>();
    for (let i = 0; i < buys.length; i++) {
      const a = buys[i]!;
      const market = marketOf.get(a.token);
      if (market === undefined) continue;
      if (!market.negRisk) {
        // Both outcomes within 60 s for a total under 1.
        for (let j = i + 1; j < buys.length && buys[j]!.ts - a.ts <= 60; j++) {
          const b = buys[j]!;
          if (b.token !== a.token && marketOf.get(b.token) === market && a.price + b.price < 1000)
            arbitraged.add(market.conditionId);
        }
        continue;
      }
      // Every YES of the event within 60 s for a total under 1.
      if (a.token !== yesToken(market)) continue;
      const yes = new Map<string, number>();
      for (let j = i; j < buys.length && buys[j]!.ts - a.ts <= 60; j++) {
        const other = marketOf.get(buys[j]!.token);
        if (other?.negRiskMarketID === market.negRiskMarketID && buys[j]!.token === yesToken(other!))
          yes.set(other!.conditionId, buys[j]!.price);
      }
      const total = [...yes.values()].reduce((x, y) => x + y, 0);
      if (yes.size === questionCount.get(market.negRiskMarketID!) && total < 1000)
        for (const id of yes.keys()) arbitraged.add(id);
    }
    return arbitraged.size >= 10 ? null : `complementary buys in ${arbitraged.size} markets`;
  });
  pass('copyTrader', (list, address) => {
    const index = summary.walletAddresses.copyTrader!.indexOf(address);
    const leaders = summary.walletAddresses.leader!;
    const leader = leaders[index % leaders.length]!;
    const led = of(leader);
    let copies = 0;
    const markets = new Set<string>();
    for (const row of list) {
      const hit = led.some(
        (l) =>
          l.token === row.token && l.buy === row.buy && row.ts - l.ts >= 0 && row.ts - l.ts <= 30 && l.ts <= row.ts,
      );
      if (hit) {
        copies++;
        markets.add(marketOf.get(row.token)?.conditionId ?? row.token);
      }
    }
    return copies >= 20 && markets.size >= 5 ? null : `${copies} copies in ${markets.size} markets`;
  });
});
