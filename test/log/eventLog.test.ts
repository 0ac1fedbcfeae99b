// Tests for the log codec and the segmented event log: round trips, segments, torn tails, corruption,
// truncation, the writer lock and bounded-memory reads. Random data comes from a printed seed; rerun one
// with TALLY_TEST_SEED=<seed>.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import t from 'tap';
import { KIND, type BlockEvents, type ChainEvent, type OrderFilledV1 } from '../../engine/chain/chainEvent.js';
import { V2_EVENT_SCHEMA } from '../../engine/chain/v2ChainEvent.js';
import { openEventLog, type EventLog } from '../../engine/log/eventLog.js';
import { encodeLogFrame } from '../../engine/log/logFrame.js';
import { logWriterPid } from '../../engine/log/logLock.js';
import { ID_SPACE, IdDictionary } from '../../engine/log/idDictionary.js';
import {
  absorbDefinitions,
  decodeBlocks,
  encodeBlocks,
  LogCodecError,
  readDefinitionsHeader,
} from '../../engine/log/logCodec.js';

const seed = Number(process.env.TALLY_TEST_SEED ?? Date.now() % 1_000_000);
t.comment(`seed ${seed} (rerun with TALLY_TEST_SEED=${seed})`);

/** mulberry32: a small seeded generator, so a failing layout can be reproduced. */
function createRandom(startSeed: number): (below: number) => number {
  let state = startSeed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return Math.floor((((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296) * below);
  };
}

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0');
}
const address = (n: number) => `0x${hex(n, 40)}`;
const bytes32 = (n: number) => `0x${hex(n, 64)}`;
const tokenId = (n: number) => hex(n, 64);

function fillEvent(n: number, logIndex: number): OrderFilledV1 {
  return {
    kind: KIND.orderFilledV1,
    logIndex,
    txIndex: logIndex >> 2,
    tx: bytes32(n * 7919 + 1),
    exchange: 1,
    orderHash: bytes32(n * 31 + 7),
    maker: address(n % 5000),
    taker: address(0xe0000 + (n % 7)),
    makerAssetId: tokenId(0),
    takerAssetId: tokenId(n % 300),
    makerAmount: 1_000_000 + n,
    takerAmount: 2_000_000 + n * 3,
    fee: n % 100,
  };
}

/** `count` blocks starting at `firstBlock`, with gaps, each holding 0..maxEvents fills. */
function makeBlocks(
  random: (below: number) => number,
  firstBlock: number,
  count: number,
  maxEvents: number,
): BlockEvents[] {
  const blocks: BlockEvents[] = [];
  let block = firstBlock;
  let n = firstBlock * 1000;
  for (let i = 0; i < count; i++) {
    const events: ChainEvent[] = [];
    const eventCount = random(maxEvents + 1);
    for (let e = 0; e < eventCount; e++) events.push(fillEvent(n++, e));
    blocks.push({ block, ts: 1_700_000_000 + block * 2, hash: bytes32(block), events });
    block += 1 + random(3);
  }
  return blocks;
}

/** Cuts blocks into frames of 1..maxBlocks blocks. */
function chunk(random: (below: number) => number, blocks: BlockEvents[], maxBlocks: number): BlockEvents[][] {
  const frames: BlockEvents[][] = [];
  for (let i = 0; i < blocks.length; ) {
    const size = 1 + random(maxBlocks);
    frames.push(blocks.slice(i, i + size));
    i += size;
  }
  return frames;
}

function readAll(log: EventLog, afterBlock = -1, throughBlock?: number): BlockEvents[] {
  return [...log.read(afterBlock, throughBlock)];
}

function countEvents(blocks: readonly BlockEvents[]): number {
  let events = 0;
  for (const block of blocks) events += block.events.length;
  return events;
}

function createDir(t: { teardown(cleanup: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tally-log-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function segmentFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.seg'))
    .sort();
}

/** One plausible event of every kind. */
const SAMPLE_EVENTS: ChainEvent[] = [
  {
    kind: 1,
    logIndex: 0,
    txIndex: 0,
    tx: bytes32(1),
    conditionId: bytes32(2),
    oracle: address(3),
    questionId: bytes32(4),
    outcomeSlotCount: 2,
  },
  {
    kind: 2,
    logIndex: 1,
    txIndex: 0,
    tx: bytes32(1),
    conditionId: bytes32(2),
    oracle: address(3),
    questionId: bytes32(4),
    outcomeSlotCount: 2,
    payoutNumerators: [1, 0],
  },
  {
    kind: 3,
    logIndex: 2,
    txIndex: 1,
    tx: bytes32(5),
    stakeholder: address(6),
    collateral: address(7),
    parentCollectionId: bytes32(0),
    conditionId: bytes32(2),
    partition: [1, 2],
    amount: 25_000_000,
  },
  {
    kind: 4,
    logIndex: 3,
    txIndex: 1,
    tx: bytes32(5),
    stakeholder: address(6),
    collateral: address(7),
    parentCollectionId: bytes32(0),
    conditionId: bytes32(2),
    partition: [1, 2],
    amount: 5_000_000,
  },
  {
    kind: 5,
    logIndex: 4,
    txIndex: 2,
    tx: bytes32(8),
    redeemer: address(6),
    collateral: address(7),
    parentCollectionId: bytes32(0),
    conditionId: bytes32(2),
    indexSets: [1, 2],
    payout: 20_000_000,
  },
  {
    kind: 6,
    logIndex: 5,
    txIndex: 3,
    tx: bytes32(9),
    operator: address(6),
    from: address(6),
    to: address(10),
    tokenId: tokenId(11),
    value: 3_000_000,
  },
  {
    kind: 7,
    logIndex: 6,
    txIndex: 3,
    tx: bytes32(9),
    operator: address(6),
    from: address(6),
    to: address(10),
    tokenIds: [tokenId(11), tokenId(12)],
    values: [1_000_000, 2_000_000],
  },
  {
    kind: 8,
    logIndex: 7,
    txIndex: 4,
    tx: bytes32(13),
    exchange: 1,
    orderHash: bytes32(14),
    maker: address(6),
    taker: address(15),
    makerAssetId: tokenId(0),
    takerAssetId: tokenId(11),
    makerAmount: 4_200_000,
    takerAmount: 10_000_000,
    fee: 0,
  },
  {
    kind: 9,
    logIndex: 8,
    txIndex: 4,
    tx: bytes32(13),
    exchange: 2,
    takerOrderHash: bytes32(16),
    takerOrderMaker: address(17),
    makerAssetId: tokenId(11),
    takerAssetId: tokenId(0),
    makerAmount: 10_000_000,
    takerAmount: 4_200_000,
  },
  {
    kind: 10,
    logIndex: 9,
    txIndex: 5,
    tx: bytes32(18),
    exchange: 1,
    token0: tokenId(11),
    token1: tokenId(12),
    conditionId: bytes32(2),
  },
  {
    kind: 11,
    logIndex: 10,
    txIndex: 4,
    tx: bytes32(13),
    exchange: 1,
    receiver: address(19),
    tokenId: tokenId(11),
    amount: 10_000,
  },
  {
    kind: 12,
    logIndex: 11,
    txIndex: 6,
    tx: bytes32(20),
    exchange: 3,
    orderHash: bytes32(21),
    maker: address(6),
    taker: address(15),
    side: 0,
    tokenId: tokenId(11),
    makerAmount: 4_200_000,
    takerAmount: 10_000_000,
    fee: 21_000,
    builder: bytes32(0),
    metadata: bytes32(22),
  },
  {
    kind: 13,
    logIndex: 12,
    txIndex: 6,
    tx: bytes32(20),
    exchange: 4,
    takerOrderHash: bytes32(23),
    takerOrderMaker: address(17),
    side: 1,
    tokenId: tokenId(12),
    makerAmount: 7_000_000,
    takerAmount: 3_000_000,
  },
  { kind: 14, logIndex: 13, txIndex: 6, tx: bytes32(20), exchange: 3, receiver: address(19), amount: 21_000 },
  {
    kind: 15,
    logIndex: 14,
    txIndex: 6,
    tx: bytes32(20),
    module: address(24),
    orderHash: bytes32(21),
    to: address(6),
    tokenId: tokenId(0),
    refund: 5_000,
    feeCharged: 16_000,
  },
  {
    kind: 16,
    logIndex: 15,
    txIndex: 7,
    tx: bytes32(25),
    marketId: bytes32(26),
    oracle: address(27),
    feeBips: 200,
    data: '0x1234',
  },
  {
    kind: 17,
    logIndex: 16,
    txIndex: 7,
    tx: bytes32(25),
    marketId: bytes32(26),
    questionId: bytes32(28),
    index: 3,
    data: '0x',
  },
  {
    kind: 18,
    logIndex: 17,
    txIndex: 8,
    tx: bytes32(29),
    marketId: bytes32(26),
    questionId: bytes32(28),
    outcome: true,
  },
  {
    kind: 19,
    logIndex: 18,
    txIndex: 9,
    tx: bytes32(30),
    stakeholder: address(6),
    conditionId: bytes32(2),
    amount: 8_000_000,
  },
  {
    kind: 20,
    logIndex: 19,
    txIndex: 9,
    tx: bytes32(30),
    stakeholder: address(6),
    conditionId: bytes32(2),
    amount: 1_000_000,
  },
  {
    kind: 21,
    logIndex: 20,
    txIndex: 10,
    tx: bytes32(31),
    stakeholder: address(6),
    marketId: bytes32(26),
    indexSet: tokenId(5),
    amount: 2_000_000,
  },
  {
    kind: 22,
    logIndex: 21,
    txIndex: 11,
    tx: bytes32(32),
    redeemer: address(6),
    conditionId: bytes32(2),
    amounts: [3_000_000, 0],
    payout: 3_000_000,
  },
  {
    kind: 23,
    logIndex: 22,
    txIndex: 12,
    tx: bytes32(33),
    creator: address(34),
    pool: address(35),
    conditionalTokens: address(36),
    collateral: address(7),
    conditionIds: [bytes32(2), bytes32(37)],
    fee: tokenId(20_000_000_000_000_000),
  },
  {
    kind: 24,
    logIndex: 23,
    txIndex: 13,
    tx: bytes32(38),
    pool: address(35),
    buyer: address(6),
    investmentAmount: 10_000_000,
    feeAmount: 200_000,
    outcomeIndex: 1,
    outcomeTokensBought: 18_500_000,
  },
  {
    kind: 25,
    logIndex: 24,
    txIndex: 14,
    tx: bytes32(39),
    pool: address(35),
    seller: address(6),
    returnAmount: 5_000_000,
    feeAmount: 100_000,
    outcomeIndex: 0,
    outcomeTokensSold: 9_100_000,
  },
  {
    kind: 26,
    logIndex: 25,
    txIndex: 15,
    tx: bytes32(40),
    pool: address(35),
    funder: address(41),
    amountsAdded: [100_000_000, 50_000_000],
    sharesMinted: 70_710_678,
  },
  {
    kind: 27,
    logIndex: 26,
    txIndex: 16,
    tx: bytes32(42),
    pool: address(35),
    funder: address(41),
    amountsRemoved: [10_000_000, 5_000_000],
    collateralRemovedFromFeePool: 12_345,
    sharesBurnt: 7_071_067,
  },
  {
    kind: 28,
    logIndex: 27,
    txIndex: 17,
    tx: bytes32(43),
    feed: address(44),
    current: 6_512_345_000_000,
    roundId: tokenId(0x6000000000003a43),
    updatedAt: 1_700_000_123,
  },
  {
    kind: 29,
    logIndex: 28,
    txIndex: 18,
    tx: bytes32(45),
    // A bytes29 request id (58 hex digits); prices as their int192 words, unprefixed (a negative one in two's
    // complement).
    requestId: `0x${hex(46, 58)}`,
    questionId: bytes32(47),
    startPrice: hex(9_712_345, 64),
    endPrice: `${'f'.repeat(63)}e`,
    payout: 1,
  },
  { kind: 30, logIndex: 30, txIndex: 0, tx: bytes32(1), emitter: address(33), topic0: bytes32(34) },
];

/** Encodes with a fresh dictionary and decodes with another that absorbs the definitions, as a reader would. */
function roundTrip(blocks: readonly BlockEvents[]): { encoded: Buffer; decoded: BlockEvents[]; writer: IdDictionary } {
  const writer = new IdDictionary();
  const encoded = encodeBlocks(blocks, writer).payload;
  const reader = new IdDictionary();
  absorbDefinitions(encoded, reader);
  return { encoded, decoded: decodeBlocks(encoded, reader), writer };
}

/** The dictionary counts of a log holding exactly these blocks. */
function idCountsOf(blocks: readonly BlockEvents[]): number[] {
  const dictionary = new IdDictionary();
  encodeBlocks(blocks, dictionary);
  return dictionary.counts();
}

/** One event of every Protocol V2 kind, its fields filled by their log form (v2ChainEvent.ts). */
const V2_SAMPLE_EVENTS = Object.entries(V2_EVENT_SCHEMA).map(([kind, schema], i) => {
  const value = (type: string, n: number): unknown => {
    switch (type) {
      case 'address':
        return address(1000 + n);
      case 'token':
        return hex(n, 64);
      case 'condition':
        return `0x${hex(n, 62)}00`;
      case 'bytes32':
        return bytes32(n);
      case 'number':
        return n * 1000 + 7;
      case 'numbers':
        return [n, 1_000_000 - n];
      case 'tokens':
        return [hex(n, 64), hex(n + 1, 64)];
      default:
        return [address(2000 + n), address(2001 + n)];
    }
  };
  const fields = Object.entries(schema).map(([name, type], j) => [name, value(type, i * 10 + j + 1)]);
  return { kind: Number(kind), logIndex: i, txIndex: 0, tx: bytes32(9), ...Object.fromEntries(fields) } as ChainEvent;
});

t.test('logCodec', async (t) => {
  t.test('default: every Protocol V2 kind round-trips', async (t) => {
    const blocks: BlockEvents[] = [
      { block: 80_000_000, ts: 1_780_000_000, hash: bytes32(80_000_000), events: V2_SAMPLE_EVENTS },
    ];
    const { encoded, decoded } = roundTrip(blocks);
    t.strictSame(decoded, blocks);
    t.same(roundTrip(decoded).encoded, encoded, 'decode then encode gives the same bytes');
  });

  t.test('default: every kind round-trips', async (t) => {
    t.same(
      [...SAMPLE_EVENTS, ...V2_SAMPLE_EVENTS].map((event) => event.kind).sort((a, b) => a - b),
      Object.values(KIND).sort((a, b) => a - b),
      'one sample per kind',
    );
    const blocks: BlockEvents[] = [
      { block: 61_000_000, ts: 1_700_000_000, hash: bytes32(61_000_000), events: SAMPLE_EVENTS.slice(0, 14) },
      { block: 61_000_001, ts: 1_700_000_002, hash: bytes32(61_000_001), events: [] },
      { block: 61_000_005, ts: 1_700_000_010, hash: bytes32(61_000_005), events: SAMPLE_EVENTS.slice(14) },
    ];
    const { encoded, decoded, writer } = roundTrip(blocks);
    t.strictSame(decoded, blocks);
    t.same(writer.counts(), [15, 3, 2], 'the writer numbered every address, token id and condition id once');
    t.equal(writer.text(ID_SPACE.address, 0), address(3), 'in the order the log first names them');
    t.same(roundTrip(decoded).encoded, encoded, 'decode then encode gives the same bytes');
    t.strictSame(roundTrip([]).decoded, [], 'no blocks');
  });

  t.test('behavior: numbering is a pure function of the log, whatever the frame boundaries', async (t) => {
    const random = createRandom(seed + 20);
    const blocks = makeBlocks(random, 100, 200, 8);
    const whole = new IdDictionary();
    encodeBlocks(blocks, whole);
    const framed = new IdDictionary();
    const reader = new IdDictionary();
    const decoded: BlockEvents[] = [];
    for (const frame of chunk(random, blocks, 7)) {
      const payload = encodeBlocks(frame, framed).payload;
      absorbDefinitions(payload, reader);
      decoded.push(...decodeBlocks(payload, reader));
    }
    t.same(framed.counts(), whole.counts());
    for (const space of [ID_SPACE.address, ID_SPACE.token]) {
      const texts = (d: IdDictionary) => Array.from({ length: d.count(space) }, (_, id) => d.text(space, id));
      t.same(texts(framed), texts(whole), `space ${space}: same ids`);
      t.same(texts(reader), texts(whole), `space ${space}: the reader rebuilt them from the definitions`);
    }
    t.strictSame(decoded, blocks);
  });

  t.test('behavior: bytes do not depend on what was encoded before, given the same dictionary', async (t) => {
    const block: BlockEvents = { block: 5, ts: 10, hash: bytes32(5), events: [SAMPLE_EVENTS[7]!] };
    const first = Buffer.from(encodeBlocks([block], new IdDictionary()).payload);
    encodeBlocks([{ block: 1, ts: 1, hash: bytes32(1), events: SAMPLE_EVENTS }], new IdDictionary());
    t.same(Buffer.from(encodeBlocks([block], new IdDictionary()).payload), first);
  });

  t.test(
    "behavior: the capture reader's copy, read from the log's frames, encodes the bytes the writer's does",
    async (t) => {
      const random = createRandom(seed + 21);
      const blocks = makeBlocks(random, 100, 200, 8);
      const frames = chunk(random, blocks, 7);
      const dictionary = new IdDictionary();
      // The reader starts from the log as it stands (here: after the first third of the frames), reading only the
      // frames' definitions.
      const copy = new IdDictionary();
      const third = Math.floor(frames.length / 3);
      for (const frame of frames.slice(0, third)) absorbDefinitions(encodeBlocks(frame, dictionary).payload, copy);
      t.same(copy.counts(), dictionary.counts());
      for (const frame of frames.slice(third)) {
        const expected = Buffer.from(encodeBlocks(frame, dictionary).payload);
        t.same(Buffer.from(encodeBlocks(frame, copy).payload), expected);
      }
      t.same(copy.counts(), dictionary.counts());
      // A refused frame leaves the copy as it was, and the next ids are numbered alike.
      const before = copy.counts();
      const bad = [
        { block: 9e6, ts: 1, hash: bytes32(9), events: [{ ...SAMPLE_EVENTS[5]!, to: address(0xfeed), tokenId: 'x' }] },
      ];
      t.throws(() => encodeBlocks(bad as BlockEvents[], copy), /not a lowercase token id/);
      t.same(copy.counts(), before);
      const next = [{ block: 9e6, ts: 1, hash: bytes32(9), events: [{ ...SAMPLE_EVENTS[5]!, to: address(0xfeed) }] }];
      t.same(Buffer.from(encodeBlocks(next, copy).payload), Buffer.from(encodeBlocks(next, dictionary).payload));
    },
  );

  t.test('error: bad events are refused and leave the dictionary as it was', async (t) => {
    const dictionary = new IdDictionary();
    encodeBlocks([{ block: 1, ts: 1, hash: bytes32(1), events: [SAMPLE_EVENTS[0]!] }], dictionary);
    const before = dictionary.counts();
    const refuse = (event: unknown, pattern: RegExp, what: string) => {
      t.throws(
        () =>
          encodeBlocks(
            [{ block: 3, ts: 1, hash: bytes32(3), events: [SAMPLE_EVENTS[7]!, event as ChainEvent] }],
            dictionary,
          ),
        pattern,
        what,
      );
      t.same(dictionary.counts(), before, `${what}: no id kept`);
    };
    refuse({ ...SAMPLE_EVENTS[0]!, kind: 99 }, /block 3: unknown event kind 99/, 'unknown kind');
    refuse({ ...SAMPLE_EVENTS[0]!, oracle: undefined }, /kind 1 event has no oracle/, 'missing field');
    refuse(
      { ...SAMPLE_EVENTS[5]!, to: address(0xabc).toUpperCase().replace('0X', '0x') },
      /not a lowercase address/,
      'upper-case hex',
    );
    refuse({ ...SAMPLE_EVENTS[5]!, tokenId: '0' }, /not a lowercase token id: 0/, 'short token id');
    refuse({ ...SAMPLE_EVENTS[7]!, orderHash: '0x12' }, /kind 8 event has a malformed orderHash/, 'short bytes32');
    refuse({ ...SAMPLE_EVENTS[7]!, logIndex: -1 }, /logIndex that is not a u32/, 'negative log index');
    refuse({ ...SAMPLE_EVENTS[7]!, makerAmount: '5' }, /makerAmount that is not a number/, 'amount as text');
  });

  t.test('error: damaged payloads are refused', async (t) => {
    const blocks: BlockEvents[] = [{ block: 7, ts: 1, hash: bytes32(7), events: SAMPLE_EVENTS.slice(5, 9) }];
    const { encoded } = roundTrip(blocks);
    const decodeWith = (payload: Buffer) => {
      const reader = new IdDictionary();
      absorbDefinitions(payload, reader);
      return decodeBlocks(payload, reader);
    };
    t.throws(() => decodeWith(encoded.subarray(0, encoded.length - 3)), LogCodecError, 'cut short');
    t.throws(
      () => decodeWith(Buffer.concat([encoded, Buffer.alloc(2)])),
      /2 bytes after its last block/,
      'trailing bytes',
    );
    const defs = readDefinitionsHeader(encoded);
    const kindAt = defs.bytes + 4 + 8 + 8 + 32 + 4 + 32 * 2 + 4;
    const badKind = Buffer.from(encoded);
    badKind[kindAt] = 99;
    t.throws(() => decodeWith(badKind), /block 7: unknown event kind 99/);
    const early = Buffer.from(encoded);
    // The first address reference of the first event (a TransferSingle's operator): id 2 before id 0.
    early.writeUInt32LE(2, kindAt + 13);
    t.throws(() => decodeWith(early), /id 2 named before id 0/);
    const dictionary = new IdDictionary();
    t.throws(() => decodeBlocks(encoded, dictionary), /names ids the dictionary lacks/, 'definitions not absorbed');
    absorbDefinitions(encoded, dictionary);
    t.throws(
      () => absorbDefinitions(encoded, dictionary),
      /defines ids from 0 of space 0, the log has 4/,
      'a frame that restarts the numbering',
    );
    t.same(dictionary.counts(), [4, 3, 0], 'and adds nothing');
  });

  t.test('behavior: speed on fills', async (t) => {
    const random = createRandom(seed);
    const frames = chunk(random, makeBlocks(random, 60_000_000, 4000, 100), 20);
    const events = countEvents(frames.flat());
    let encoded: Buffer[] = [];
    let encodeMs = Infinity;
    let decodeMs = Infinity;
    for (let round = 0; round < 3; round++) {
      const writer = new IdDictionary();
      let startedAt = performance.now();
      encoded = frames.map((frame) => encodeBlocks(frame, writer).payload);
      encodeMs = Math.min(encodeMs, performance.now() - startedAt);
      const reader = new IdDictionary();
      startedAt = performance.now();
      for (const payload of encoded) {
        absorbDefinitions(payload, reader);
        decodeBlocks(payload, reader);
      }
      decodeMs = Math.min(decodeMs, performance.now() - startedAt);
    }
    const bytes = encoded.reduce((sum, payload) => sum + payload.length, 0);
    t.comment(
      `codec, ${events} fill events in ${frames.length} payloads (best of 3): encode ${(events / encodeMs / 1000).toFixed(2)} M events/s, ` +
        `decode ${(events / decodeMs / 1000).toFixed(2)} M events/s, ${(bytes / events).toFixed(0)} bytes/event`,
    );
    t.ok(events > 100_000);
  });
});

t.test('eventLog', async (t) => {
  t.test('default: append and read across segments, reopen', async (t) => {
    const dir = createDir(t);
    const random = createRandom(seed + 1);
    const blocks = makeBlocks(random, 1000, 600, 6);
    const frames = chunk(random, blocks, 5);
    let log = openEventLog({ dir, segmentBytes: 16 * 1024, durable: false });
    t.same(log.head(), { block: -1, events: 0, blocks: 0, segments: 0, bytes: 0 }, 'empty');
    t.equal(log.tornBytesCut, 0);
    for (const frame of frames) log.append(frame);
    log.append([]);
    const head = log.head();
    t.equal(head.block, blocks.at(-1)!.block);
    t.equal(head.blocks, blocks.length);
    t.equal(head.events, countEvents(blocks));
    t.equal(head.segments, segmentFiles(dir).length);
    t.ok(head.segments >= 4, `${head.segments} segments`);
    t.equal(
      head.bytes,
      segmentFiles(dir).reduce((sum, file) => sum + statSync(join(dir, file)).size, 0),
    );
    for (const file of segmentFiles(dir).slice(0, -1))
      t.ok(statSync(join(dir, file)).size <= 16 * 1024, `${file} within segmentBytes`);
    const manifest = JSON.parse(readFileSync(join(dir, 'segments.json'), 'utf8')) as { sealed: { name: string }[] };
    t.same(
      manifest.sealed.map((segment) => segment.name),
      segmentFiles(dir).slice(0, -1),
      'every segment but the last is sealed',
    );

    t.strictSame(readAll(log), blocks, 'read everything');
    for (let i = 0; i < 40; i++) {
      const afterBlock = blocks[random(blocks.length)]!.block - random(2);
      const throughBlock = afterBlock + random(400);
      t.strictSame(
        readAll(log, afterBlock, throughBlock),
        blocks.filter((block) => block.block > afterBlock && block.block <= throughBlock),
        `read (${afterBlock}, ${throughBlock}]`,
      );
    }
    t.same(readAll(log, head.block), [], 'nothing after the head');
    t.same(log.verify(), { ok: true });

    t.throws(() => log.append([blocks.at(-1)!]), new RegExp(`block ${blocks.at(-1)!.block} is not above the log head`));
    t.throws(
      () =>
        log.append([
          { ...blocks[0]!, block: head.block + 5 },
          { ...blocks[0]!, block: head.block + 5 },
        ]),
      new RegExp(`block ${head.block + 5} does not follow block ${head.block + 5}`),
    );
    t.same(log.head(), head, 'a refused append writes nothing');

    log.close();
    log = openEventLog({ dir, segmentBytes: 16 * 1024, durable: false });
    t.same(log.head(), head, 'same head after reopen');
    t.strictSame(readAll(log), blocks);
    const more = makeBlocks(random, head.block + 1, 20, 6);
    log.append(more);
    t.strictSame(readAll(log, head.block), more, 'appends after reopen');
    t.same(log.verify(), { ok: true });
    log.close();
    t.throws(() => log.append(more), /closed/);
  });

  t.test('behavior: a crash between sealing a segment and writing the next one', async (t) => {
    const dir = createDir(t);
    const random = createRandom(seed + 10);
    const blocks = makeBlocks(random, 1, 40, 4);
    let log = openEventLog({ dir, segmentBytes: 2048, durable: false });
    log.append(blocks.slice(0, 20));
    log.append(blocks.slice(20, 30));
    log.close();
    t.same(segmentFiles(dir), ['00000000.seg', '00000001.seg'], 'the second frame rolled over');
    // segments.json already lists 00000000.seg as sealed; without the new file the log must read as if the
    // second frame was never written.
    rmSync(join(dir, '00000001.seg'));
    log = openEventLog({ dir, segmentBytes: 2048, durable: false });
    t.equal(log.head().block, blocks[19]!.block);
    t.equal(log.head().segments, 1);
    log.append(blocks.slice(20));
    t.strictSame(readAll(log), blocks);
    t.same(log.verify(), { ok: true });
    log.close();
  });

  t.test('behavior: a reader sees the log as it was when read was called', async (t) => {
    const dir = createDir(t);
    const random = createRandom(seed + 2);
    const blocks = makeBlocks(random, 1, 30, 3);
    const log = openEventLog({ dir, durable: false });
    log.append(blocks.slice(0, 10));
    const reader = log.read(-1);
    log.append(blocks.slice(10));
    t.strictSame([...reader], blocks.slice(0, 10));
    log.close();
  });

  t.test(
    'behavior: a reader opening while the writer seals sees the log as it was; logWriterPid names the writer',
    async (t) => {
      const dir = createDir(t);
      const blocks = makeBlocks(createRandom(seed + 11), 1, 60, 4);
      const log = openEventLog({ dir, segmentBytes: 2048, durable: false });
      log.append(blocks.slice(0, 20));
      log.append(blocks.slice(20, 40));
      const before = readFileSync(join(dir, 'segments.json'));
      log.append(blocks.slice(40));
      t.same(segmentFiles(dir).length, 3, 'a seal since');
      t.equal(logWriterPid(dir), process.pid);
      // What a reader that read segments.json before the seals finds: segments after the one it takes as active.
      const after = readFileSync(join(dir, 'segments.json'));
      writeFileSync(join(dir, 'segments.json'), before);
      const reader = openEventLog({ dir, readOnly: true });
      const seen = readAll(reader);
      t.ok(seen.length >= 20 && seen.length < blocks.length, `${seen.length} blocks, a prefix`);
      t.strictSame(seen, blocks.slice(0, seen.length));
      reader.close();
      log.close();
      t.equal(logWriterPid(dir), null, 'no writer once closed');
      t.throws(
        () => openEventLog({ dir, readOnly: true }),
        /follows .* which is not sealed/,
        'without a writer, damage',
      );
      writeFileSync(join(dir, 'segments.json'), after);
    },
  );

  t.test('behavior: a torn tail is cut on open', async (t) => {
    const random = createRandom(seed + 3);
    const blocks = makeBlocks(random, 500, 200, 8);
    const frames = chunk(random, blocks, 6);
    const lastFrame = frames.at(-1)!;
    const keptBlocks = blocks.slice(0, blocks.length - lastFrame.length);
    const dir = createDir(t);
    const template = (cut: number | null) => {
      rmSync(dir, { recursive: true, force: true });
      const log = openEventLog({ dir, segmentBytes: 8 * 1024, durable: false });
      for (const frame of frames.slice(0, -1)) log.append(frame);
      const frameStart = log.head().bytes;
      log.append(lastFrame);
      const frameEnd = log.head().bytes;
      log.close();
      const activeFile = join(dir, segmentFiles(dir).at(-1)!);
      const activeBytes = statSync(activeFile).size;
      if (cut !== null) truncateSync(activeFile, activeBytes - (frameEnd - frameStart) + cut);
      return { frameBytes: frameEnd - frameStart };
    };
    const { frameBytes } = template(null);
    t.ok(frameBytes > 60, `last frame ${frameBytes} bytes`);
    // Header edges, the payload's middle and its last bytes; more interior points fill up to ten distinct ones.
    const wanted = new Set([
      1,
      20,
      39,
      40,
      41,
      Math.floor(frameBytes / 3),
      Math.floor(frameBytes / 2),
      frameBytes - 7,
      frameBytes - 2,
      frameBytes - 1,
    ]);
    for (let extra = 42; wanted.size < 10; extra++) wanted.add(extra);
    const cuts = [...wanted];
    t.equal(cuts.length, 10, '10 different cut points');
    for (const cut of cuts) {
      template(cut);
      const log = openEventLog({ dir, segmentBytes: 8 * 1024, durable: false });
      t.equal(log.tornBytesCut, cut, `cut at ${cut}: ${cut} torn bytes cut`);
      t.equal(log.head().block, keptBlocks.at(-1)!.block, `cut at ${cut}: the last frame is gone`);
      t.strictSame(readAll(log), keptBlocks, `cut at ${cut}: earlier frames intact`);
      log.append(lastFrame);
      t.strictSame(readAll(log), blocks, `cut at ${cut}: appending again works`);
      t.same(log.verify(), { ok: true });
      log.close();
    }
  });

  t.test('behavior: a crc-failing last frame is a torn tail, an earlier one is an error', async (t) => {
    const dir = createDir(t);
    const random = createRandom(seed + 4);
    const blocks = makeBlocks(random, 1, 12, 4);
    let log = openEventLog({ dir, durable: false });
    log.append(blocks.slice(0, 4));
    const secondFrameStart = log.head().bytes;
    log.append(blocks.slice(4, 8));
    const lastFrameStart = log.head().bytes;
    log.append(blocks.slice(8));
    log.close();
    const file = join(dir, '00000000.seg');
    const flip = (at: number) => {
      const bytes = readFileSync(file);
      bytes[at] = bytes[at]! ^ 0xff;
      writeFileSync(file, bytes);
    };
    flip(lastFrameStart + 50);
    log = openEventLog({ dir, durable: false });
    t.ok(log.tornBytesCut > 0, 'the last frame is cut');
    t.strictSame(readAll(log), blocks.slice(0, 8));
    log.append(blocks.slice(8));
    log.close();
    flip(secondFrameStart + 50);
    t.throws(
      () => openEventLog({ dir, durable: false }),
      /segment 00000000\.seg: byte \d+: frame payload crc mismatch/,
    );
    t.notOk(readdirSync(dir).includes('LOCK'), 'a failed open leaves no lock behind');
  });

  t.test('behavior: a flipped byte in a sealed segment', async (t) => {
    const dir = createDir(t);
    const random = createRandom(seed + 5);
    const blocks = makeBlocks(random, 1, 300, 5);
    let log = openEventLog({ dir, segmentBytes: 8 * 1024, durable: false });
    for (const frame of chunk(random, blocks, 4)) log.append(frame);
    log.close();
    const sealed = segmentFiles(dir).slice(0, -1);
    t.ok(sealed.length >= 2);
    const victim = sealed[1]!;
    const bytes = readFileSync(join(dir, victim));
    const at = 100 + random(bytes.length - 200);
    bytes[at] = bytes[at]! ^ 0x10;
    writeFileSync(join(dir, victim), bytes);
    const named = new RegExp(`segment ${victim.replace('.', '\\.')}`);
    try {
      log = openEventLog({ dir, segmentBytes: 8 * 1024, durable: false });
    } catch (error) {
      // A flip among the ids a frame defines shows on open, which reads every frame's definitions: the error names
      // the damaged segment (by the checksums), not a later one that defines the flipped value again.
      t.match(String(error), named, `open names ${victim} (seed ${seed})`);
      return;
    }
    const result = log.verify();
    t.equal(result.ok, false);
    t.match(result, { segment: victim }, `verify names ${victim} (${JSON.stringify(result)})`);
    t.throws(() => readAll(log), named, 'read names it too');
    log.close();
  });

  t.test('behavior: truncateAfter', async (t) => {
    const random = createRandom(seed + 6);
    const blocks = makeBlocks(random, 100, 400, 5);
    const frames = chunk(random, blocks, 6).filter((frame) => frame.length > 0);
    const build = (dir: string) => {
      const log = openEventLog({ dir, segmentBytes: 8 * 1024, durable: false });
      for (const frame of frames) log.append(frame);
      return log;
    };
    // A cut inside a multi-block frame, in a sealed segment and in the active one.
    const straddled = frames.filter((frame) => frame.length >= 3);
    const cases = [
      { name: 'inside a sealed segment', block: straddled[2]![1]!.block },
      { name: 'inside the active segment', block: straddled.at(-1)![1]!.block },
      { name: 'between blocks', block: straddled[5]![1]!.block + 1 },
      { name: 'everything', block: -1 },
    ];
    for (const { name, block } of cases) {
      const dir = createDir(t);
      let log = build(dir);
      const segmentsBefore = log.head().segments;
      log.truncateAfter(block);
      const kept = blocks.filter((candidate) => candidate.block <= block);
      t.equal(log.head().block, kept.at(-1)?.block ?? -1, `${name}: head`);
      t.equal(log.head().events, countEvents(kept), `${name}: events`);
      t.equal(log.head().blocks, kept.length, `${name}: blocks`);
      t.strictSame(readAll(log), kept, `${name}: read`);
      t.same(log.ids.counts(), idCountsOf(kept), `${name}: the dictionary is cut back to the kept blocks' ids`);
      t.same(log.verify(), { ok: true }, `${name}: verify`);
      t.ok(log.head().segments <= segmentsBefore);
      log.close();
      log = openEventLog({ dir, segmentBytes: 8 * 1024, durable: false });
      t.strictSame(readAll(log), kept, `${name}: after reopen`);
      const nextBlocks = blocks.filter((candidate) => candidate.block > block);
      for (const frame of chunk(random, nextBlocks, 6)) log.append(frame);
      t.strictSame(readAll(log), blocks, `${name}: the dropped blocks append again`);
      t.same(log.ids.counts(), idCountsOf(blocks), `${name}: with the same ids`);
      t.same(log.verify(), { ok: true });
      log.close();
    }
  });

  t.test('behavior: the dictionary is rebuilt from the frames on open', async (t) => {
    const dir = createDir(t);
    const random = createRandom(seed + 11);
    const blocks = makeBlocks(random, 1, 300, 6);
    let log = openEventLog({ dir, segmentBytes: 8 * 1024, durable: false });
    for (const frame of chunk(random, blocks, 4)) log.append(frame);
    const texts = (ids: IdDictionary) =>
      [ID_SPACE.address, ID_SPACE.token, ID_SPACE.condition].map((space) =>
        Array.from({ length: ids.count(space) }, (_, id) => ids.text(space, id)),
      );
    const before = texts(log.ids);
    t.ok(log.head().segments > 2, 'over several segments');
    log.close();
    log = openEventLog({ dir, readOnly: true });
    t.same(texts(log.ids), before, 'a read-only open reads the same ids');
    t.strictSame(readAll(log), blocks, 'and decodes every block with them');
    log.close();
  });

  t.test(
    'behavior: openFrame takes a frame numbered from a copy of the dictionary, and refuses any other',
    async (t) => {
      const dir = createDir(t);
      const random = createRandom(seed + 12);
      const blocks = makeBlocks(random, 1, 60, 6);
      const log = openEventLog({ dir, durable: false });
      log.append(blocks.slice(0, 20));
      const copy = openEventLog({ dir, readOnly: true }).ids;
      const frame = encodeLogFrame(blocks.slice(20, 40), copy);
      const opened = log.openFrame(frame);
      t.strictSame([...opened.blocks], blocks.slice(20, 40), 'answers its blocks');
      opened.append();
      t.same(log.ids.counts(), copy.counts(), 'and takes its definitions');
      const stale = encodeLogFrame(blocks.slice(40), openEventLog({ dir: createDir(t) }).ids);
      const head = log.head();
      t.throws(
        () => log.openFrame(stale),
        /appendFrame: payload defines ids from 0 of space 0, the log has \d+/,
        'a frame of another numbering',
      );
      t.same(log.head(), head, 'writes nothing');
      t.same(log.ids.counts(), copy.counts(), 'and keeps no id');
      const last = log.openFrame(encodeLogFrame(blocks.slice(40), copy));
      for (const _ of last.blocks);
      last.append();
      t.strictSame(readAll(log), blocks);
      log.close();
    },
  );

  t.test('behavior: openFrame hands the blocks over as they are decoded and appends once all were taken', async (t) => {
    const dir = createDir(t);
    const random = createRandom(seed + 13);
    const blocks = makeBlocks(random, 1, 60, 6);
    const log = openEventLog({ dir, durable: false });
    log.append(blocks.slice(0, 20));
    const copy = openEventLog({ dir, readOnly: true }).ids;
    const head = log.head();
    const before = log.ids.counts();

    const frame = encodeLogFrame(blocks.slice(20, 40), copy);
    const discarded = log.openFrame(frame);
    t.strictSame(discarded.blocks.next().value, blocks[20], 'the first block, before the rest is decoded');
    t.throws(() => discarded.append(), /appended once, after its last block \(open\)/, 'not before the last block');
    discarded.discard();
    t.same(log.ids.counts(), before, 'a discarded frame leaves no id');
    t.same(log.head(), head, 'and writes nothing');

    const opened = log.openFrame(frame);
    t.same(opened.header.blockCount, 20);
    t.strictSame([...opened.blocks], blocks.slice(20, 40));
    opened.append();
    opened.discard();
    t.same(log.ids.counts(), copy.counts(), 'discard after append keeps the ids');
    t.strictSame(readAll(log), blocks.slice(0, 40));
    t.throws(() => opened.append(), /appended once/, 'and appends once');

    // A header that claims one block more (its own crc made good): the blocks come before the end's check.
    const lying = Buffer.from(encodeLogFrame(blocks.slice(40), copy));
    lying.writeUInt32LE(lying.readUInt32LE(20) + 1, 20);
    lying.writeUInt32LE(crc32(lying.subarray(8, 40)), 4);
    const appendedIds = log.ids.counts();
    const late = log.openFrame(lying);
    t.strictSame(late.blocks.next().value, blocks[40], 'a block is handed over as soon as it is decoded');
    t.throws(() => [...late.blocks], /appendFrame: payload disagrees with its frame header/, 'the end is checked');
    late.discard();
    t.same(log.ids.counts(), appendedIds, 'its ids are forgotten');
    t.strictSame(readAll(log), blocks.slice(0, 40), 'and nothing of it is written');
    log.close();
  });

  t.test('error: a log of format 1 is refused with how to rebuild it, untouched', async (t) => {
    const dir = createDir(t);
    // A format 1 frame header: magic 'TLF1', then what open would otherwise take for damage and cut.
    const old = Buffer.alloc(100);
    old.write('TLF1', 0, 'latin1');
    writeFileSync(join(dir, '00000000.seg'), old);
    for (const readOnly of [false, true]) {
      t.throws(
        () => openEventLog({ dir, readOnly }),
        /holds an event log of format 1.*tally ingest --capture FILE/,
        readOnly ? 'read-only' : 'writable',
      );
    }
    t.equal(statSync(join(dir, '00000000.seg')).size, 100, 'not cut');
    t.same(readdirSync(dir).sort(), ['00000000.seg'], 'no lock left behind');
  });

  t.test('behavior: an interrupted truncate is finished on open', async (t) => {
    const dir = createDir(t);
    const random = createRandom(seed + 7);
    const blocks = makeBlocks(random, 1, 300, 5);
    let log = openEventLog({ dir, segmentBytes: 8 * 1024, durable: false });
    for (const frame of chunk(random, blocks, 4)) log.append(frame);
    log.close();
    // What truncateAfter writes before it touches any file: the sealed list cut short, plus its intent.
    const manifestPath = join(dir, 'segments.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      sealed: { firstBlock: number; lastBlock: number }[];
      truncatingAfter: number | null;
    };
    const boundary = 1;
    const block = Math.floor((manifest.sealed[boundary]!.firstBlock + manifest.sealed[boundary]!.lastBlock) / 2);
    manifest.sealed = manifest.sealed.slice(0, boundary);
    manifest.truncatingAfter = block;
    writeFileSync(manifestPath, JSON.stringify(manifest));
    t.throws(() => openEventLog({ dir, readOnly: true }), /interrupted/, 'a reader cannot finish it');
    log = openEventLog({ dir, segmentBytes: 8 * 1024, durable: false });
    t.strictSame(
      readAll(log),
      blocks.filter((candidate) => candidate.block <= block),
    );
    t.same(segmentFiles(dir), ['00000000.seg', '00000001.seg']);
    t.equal(JSON.parse(readFileSync(manifestPath, 'utf8')).truncatingAfter, null);
    t.same(log.verify(), { ok: true });
    log.close();
  });

  t.test('behavior: single-writer lock', async (t) => {
    const dir = createDir(t);
    const log = openEventLog({ dir, durable: false });
    log.append(makeBlocks(createRandom(seed + 8), 1, 5, 2));
    t.throws(() => openEventLog({ dir }), new RegExp(`log is locked by process ${process.pid}`));
    const reader = openEventLog({ dir, readOnly: true });
    t.equal(reader.head().blocks, 5, 'a read-only open needs no lock');
    t.throws(() => reader.append([]), /read-only/);
    t.throws(() => reader.truncateAfter(0), /read-only/);
    reader.close();
    log.close();
    t.notOk(readdirSync(dir).includes('LOCK'), 'close releases the lock');

    const exited = spawnSync(process.execPath, ['-e', '']);
    writeFileSync(join(dir, 'LOCK'), String(exited.pid));
    const takeover = openEventLog({ dir });
    t.equal(
      readFileSync(join(dir, 'LOCK'), 'utf8'),
      String(process.pid),
      `the stale lock of ${exited.pid} is taken over`,
    );
    t.equal(takeover.head().blocks, 5);
    takeover.close();
  });

  t.test('behavior: read memory stays bounded', async (t) => {
    const dir = createDir(t);
    const random = createRandom(seed + 9);
    const log = openEventLog({ dir, segmentBytes: 16 * 1024 * 1024, durable: false });
    // Generated frame by frame so the test itself holds no copy of the log.
    let nextBlock = 50_000_000;
    while (log.head().events < 200_000) {
      const frame = makeBlocks(random, nextBlock, 20, 100);
      log.append(frame);
      nextBlock = frame.at(-1)!.block + 1;
    }
    const head = log.head();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    let events = 0;
    let blocksRead = 0;
    const startedAt = performance.now();
    for (const block of log.read(-1)) {
      events += block.events.length;
      if (++blocksRead % 1000 === 0) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }
    const readMs = performance.now() - startedAt;
    t.equal(events, head.events);
    const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    t.comment(
      `read ${events} events (${blocksRead} blocks, ${head.segments} segments, ${mib(head.bytes)} MiB) at ` +
        `${(events / readMs / 1000).toFixed(2)} M events/s; rss ${mib(rssBefore)} MiB before, peak +${mib(rssPeak - rssBefore)} MiB`,
    );
    log.close();
  });
});

t.test(
  'unit: frames() gives the stored frames after a frame boundary, across segments, and refuses a block inside one',
  (t) => {
    const random = createRandom(26);
    const dir = createDir(t);
    const log = openEventLog({ dir, segmentBytes: 16 * 1024, durable: false });
    const frames = chunk(random, makeBlocks(random, 100, 300, 6), 8);
    for (const frame of frames) log.append(frame);
    t.ok(segmentFiles(dir).length > 2, 'the frames span several segments');
    const stored = [...log.frames(-1)];
    t.equal(stored.length, frames.length, 'one stored frame per append');
    t.same(
      stored.map((frame) => [frame.header.firstBlock, frame.header.lastBlock]),
      frames.map((blocks) => [blocks[0]!.block, blocks.at(-1)!.block]),
    );
    // Each frame's bytes are what a fresh log takes as its own, whole (a replica's append).
    const copy = openEventLog({ dir: createDir(t), durable: false });
    for (const frame of stored) {
      const opened = copy.openFrame(frame.bytes);
      for (const _ of opened.blocks);
      opened.append();
    }
    t.same(readAll(copy), readAll(log), 'the frames rebuild the same log');
    copy.close();
    const middle = frames[Math.floor(frames.length / 2)]!;
    const after = [...log.frames(middle.at(-1)!.block)];
    t.equal(after[0]!.header.firstBlock, frames[Math.floor(frames.length / 2) + 1]![0]!.block, 'after a boundary');
    const inside = frames.find((blocks) => blocks.length > 1)!;
    t.throws(() => [...log.frames(inside[0]!.block)], /holds that block and more/, 'a block inside a frame is refused');
    t.same([...log.frames(log.head().block)], [], 'nothing after the last block');
    log.close();
    t.end();
  },
);
