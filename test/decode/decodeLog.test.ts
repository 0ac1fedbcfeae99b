// The fixed-offset decoder against viem's decodeEventLog: random samples of every kind, the docs/venue.md topic
// constants, and the real Polygon logs of test/fixtures/realdata.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { decodeEventLog, encodeAbiParameters, encodeEventTopics, type AbiEvent } from 'viem';
import { EVENT_FIELDS, KIND, type V1Kind } from '../../engine/chain/chainEvent.js';
import { isV2Kind } from '../../engine/chain/v2EventAbis.js';
import { POLYGON_ADDRESSES, clobVenueContracts } from '../../engine/chain/venueAddresses.js';
import { EVENT_ABIS, EVENT_TOPICS } from '../../replay/decode/eventAbis.js';
import { createLogDecoder } from '../../replay/decode/decodeLog.js';
import { createRawLog } from '../../replay/decode/rawLog.js';

const FEED = '0x' + 'fe'.repeat(20);
const POOL = '0x' + 'aa'.repeat(20);
const addresses = { ...POLYGON_ADDRESSES, priceFeeds: { [FEED]: 'BTC' } };

/** The contract each kind is decoded from, and our fields the decoder adds from that address. */
const EMITTER: Record<V1Kind, string> = {
  1: addresses.ctf,
  2: addresses.ctf,
  3: addresses.ctf,
  4: addresses.ctf,
  5: addresses.ctf,
  6: addresses.ctf,
  7: addresses.ctf,
  8: addresses.ctfExchange,
  9: addresses.negRiskExchange,
  10: addresses.ctfExchange,
  11: addresses.negRiskExchange,
  12: addresses.ctfExchangeV2,
  13: addresses.negRiskExchangeV2,
  14: addresses.ctfExchangeV2,
  15: addresses.feeModule,
  16: addresses.negRiskAdapter,
  17: addresses.negRiskAdapter,
  18: addresses.negRiskAdapter,
  19: addresses.negRiskAdapter,
  20: addresses.negRiskAdapter,
  21: addresses.negRiskAdapter,
  22: addresses.negRiskAdapter,
  23: addresses.fpmmFactory,
  24: POOL,
  25: POOL,
  26: POOL,
  27: POOL,
  28: FEED,
  29: addresses.chainlinkReporter,
};
const INJECTED = new Set(['exchange', 'module', 'feed']);
const injected = (kind: V1Kind, field: string) =>
  INJECTED.has(field) || (field === 'pool' && kind >= KIND.fpmmBuy && kind <= KIND.fpmmFundingRemoved);
/** uint256 fields we keep as 64 hex digits rather than safe integers. */
const HEX_FIELDS = new Set([
  'makerAssetId',
  'takerAssetId',
  'tokenId',
  'token0',
  'token1',
  'tokenIds',
  'indexSet',
  'roundId',
  'startPrice',
  'endPrice',
]);
const isHexField = (kind: V1Kind, field: string) =>
  HEX_FIELDS.has(field) || (kind === KIND.fpmmCreation && field === 'fee');

let seed = 12345;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const randHex = (bytes: number) =>
  Array.from({ length: bytes }, () =>
    Math.floor(rand() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join('');

function sampleValue(type: string, hex: boolean): unknown {
  if (type.endsWith('[]'))
    return Array.from({ length: 1 + Math.floor(rand() * 4) }, () => sampleValue(type.slice(0, -2), hex));
  if (type === 'address') return ('0x' + randHex(20)) as `0x${string}`;
  if (type === 'bytes29') return ('0x' + randHex(29)) as `0x${string}`;
  // Reported prices are kept as words: positive samples, so a word reads the same as viem's number.
  if (type === 'int192') return BigInt('0x' + randHex(23));
  if (type === 'bytes32') return ('0x' + randHex(32)) as `0x${string}`;
  if (type === 'bytes') return ('0x' + randHex(Math.floor(rand() * 70))) as `0x${string}`;
  if (type === 'bool') return rand() < 0.5;
  if (type === 'uint8') return Math.floor(rand() * 2);
  if (type === 'int256') return BigInt(Math.floor(rand() * 2e13)) * (rand() < 0.1 ? -1n : 1n);
  return hex ? BigInt('0x' + randHex(32)) : BigInt(Math.floor(rand() * 2 ** 52));
}

/** viem's decoded arg in our representation. */
function normalize(value: unknown, hex: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => normalize(v, hex));
  if (typeof value === 'bigint') return hex ? value.toString(16).padStart(64, '0') : Number(value);
  if (typeof value === 'string') return value.toLowerCase();
  return value;
}

function encodeSample(kind: V1Kind) {
  const abi = EVENT_ABIS[kind];
  const ours = EVENT_FIELDS[kind].filter((f) => !injected(kind, f));
  const args: Record<string, unknown> = {};
  abi.inputs.forEach((input, i) => {
    args[input.name!] = sampleValue(input.type, isHexField(kind, ours[i]!));
  });
  const topics = encodeEventTopics({ abi: [abi], eventName: abi.name, args } as never) as string[];
  const dataInputs = abi.inputs.filter((input) => !input.indexed);
  const data = encodeAbiParameters(dataInputs, dataInputs.map((input) => args[input.name!]) as never);
  return { topics, data };
}

function expectedFromViem(kind: V1Kind, abi: AbiEvent, log: { topics: string[]; data: string }, address: string) {
  const decoded = decodeEventLog({
    abi: [abi],
    topics: log.topics as never,
    data: log.data as `0x${string}`,
    strict: true,
  });
  const args = decoded.args as Record<string, unknown>;
  const ours = EVENT_FIELDS[kind].filter((f) => !injected(kind, f));
  const expected: Record<string, unknown> = {};
  abi.inputs.forEach((input, i) => {
    expected[ours[i]!] = normalize(args[input.name!], isHexField(kind, ours[i]!));
  });
  for (const field of EVENT_FIELDS[kind]) if (injected(kind, field) && field !== 'exchange') expected[field] = address;
  return expected;
}

t.test('default: topics equal the docs/venue.md constants', async (t) => {
  t.equal(EVENT_TOPICS[KIND.orderFilledV1], '0xd0a08e8c493f9c94f29311604c9de1b4e8c8d4c06bd0c789af57f2d65bfec0f6');
  t.equal(EVENT_TOPICS[KIND.orderFilledV2], '0xd543adfd945773f1a62f74f0ee55a5e3b9b1a28262980ba90b1a89f2ea84d8ee');
  t.equal(EVENT_TOPICS[KIND.positionsConverted], '0xb03d19dddbc72a87e735ff0ea3b57bef133ebe44e1894284916a84044deb367e');
  t.equal(EVENT_TOPICS[KIND.fpmmFundingRemoved], '0x8b4b2c8ebd04c47fc8bce136a85df9b93fcb1f47c8aa296457d4391519d190e7');
  t.equal(
    EVENT_TOPICS[KIND.feeRefunded],
    '0xb608d2bf25d8b4b744ba23ce2ea9802ea955e216c064a62f42152fbf98958d24',
    'as in the real FeeModule logs',
  );
});

t.test('behavior: every kind decodes as viem decodes it', async (t) => {
  const decoder = createLogDecoder(addresses);
  // The Protocol V2 kinds have their own test (decodeV2Log.test.ts); an unknown topic is no ABI event.
  for (const kindKey of Object.keys(EVENT_FIELDS)) {
    if (isV2Kind(Number(kindKey)) || Number(kindKey) === KIND.unknownTopic) continue;
    const kind = Number(kindKey) as V1Kind;
    for (let round = 0; round < 25; round++) {
      const { topics, data } = encodeSample(kind);
      const address = EMITTER[kind];
      const event = decoder.decode(
        createRawLog({ address, topics, data, logIndex: 7, txIndex: 3, tx: '0x' + 'ab'.repeat(32) }),
      );
      if (!event) {
        t.fail(`kind ${kind} did not decode`);
        break;
      }
      const expected = expectedFromViem(kind, EVENT_ABIS[kind], { topics, data }, address);
      const actual = Object.fromEntries(
        Object.keys(expected).map((k) => [k, (event as unknown as Record<string, unknown>)[k]]),
      );
      if (round === 0 || JSON.stringify(actual) !== JSON.stringify(expected))
        t.same(actual, expected, `kind ${kind} (${EVENT_ABIS[kind].name})`);
      t.equal(event.kind, kind);
    }
  }
});

t.test('behavior: the same topic from another contract is another kind or skipped', async (t) => {
  const decoder = createLogDecoder(addresses);
  const { topics, data } = encodeSample(KIND.adapterSplit);
  t.equal(
    decoder.decode(createRawLog({ address: addresses.ctf, topics, data, logIndex: 0, txIndex: 0, tx: '0x' })),
    null,
  );
  t.equal(decoder.skipped.otherEvent, 1);
  t.equal(
    decoder.decode(createRawLog({ address: '0x' + '12'.repeat(20), topics, data, logIndex: 0, txIndex: 0, tx: '0x' })),
    null,
  );
  t.equal(decoder.skipped.otherContract, 1);
});

// The collateral adapters are venue contracts too: the rust fixtures' merge and batch transfer are theirs.
const VENUE = new Set(clobVenueContracts(addresses));

t.test('behavior: transfers, splits and redemptions by venue contracts are dropped as plumbing', async (t) => {
  const decoder = createLogDecoder(addresses);
  const pad = (a: string) => '0x' + '0'.repeat(24) + a.slice(2);
  const { topics, data } = encodeSample(KIND.transferSingle);
  const byExchange = [topics[0]!, pad(addresses.ctfExchange), topics[2]!, topics[3]!];
  t.equal(
    decoder.decode(
      createRawLog({ address: addresses.ctf, topics: byExchange, data, logIndex: 0, txIndex: 0, tx: '0x' }),
    ),
    null,
  );
  const split = encodeSample(KIND.ctfSplit);
  const byAdapter = [split.topics[0]!, pad(addresses.negRiskAdapter), split.topics[2]!, split.topics[3]!];
  t.equal(
    decoder.decode(
      createRawLog({ address: addresses.ctf, topics: byAdapter, data: split.data, logIndex: 0, txIndex: 0, tx: '0x' }),
    ),
    null,
  );
  t.equal(decoder.skipped.plumbing, 2);
  t.ok(
    decoder.decode(createRawLog({ address: addresses.ctf, topics, data, logIndex: 0, txIndex: 0, tx: '0x' })),
    'a wallet-operated transfer decodes',
  );
});

t.test('error: malformed and oversized logs are skipped and counted', async (t) => {
  const decoder = createLogDecoder(addresses);
  const { topics, data } = encodeSample(KIND.orderFilledV1);
  const base = { address: addresses.ctfExchange, logIndex: 0, txIndex: 0, tx: '0x' };
  t.equal(decoder.decode(createRawLog({ ...base, topics: topics.slice(0, 3), data })), null);
  t.equal(decoder.decode(createRawLog({ ...base, topics, data: data.slice(0, 100) })), null);
  t.equal(decoder.skipped.malformed, 2);
  const huge = data.slice(0, 2 + 64 * 2) + 'f'.repeat(64) + data.slice(2 + 64 * 3);
  t.equal(decoder.decode(createRawLog({ ...base, topics, data: huge })), null);
  t.equal(decoder.skipped.oversized, 1);
});

t.test('behavior: the real Polygon logs decode as viem and the transcription say', async (t) => {
  const file = JSON.parse(
    readFileSync(new URL('../fixtures/realdata/chain_logs_transcribed.json', import.meta.url), 'utf8'),
  );
  const decoder = createLogDecoder(addresses);
  let decoded = 0;
  for (const set of file.sets) {
    for (const log of set.logs) {
      const raw = {
        address: log.address,
        topics: log.topics,
        data: log.data,
        logIndex: Number(log.logIndex),
        txIndex: Number(log.transactionIndex ?? 0),
        tx: log.transactionHash,
      };
      const plumbingBefore = decoder.skipped.plumbing;
      const event = decoder.decode(createRawLog(raw));
      if (log.event === 'Transfer(ERC20)') {
        t.equal(event, null, 'USDC transfers are not ours');
        continue;
      }
      if (!event) {
        t.equal(
          decoder.skipped.plumbing,
          plumbingBefore + 1,
          `${log.event} at ${log.logIndex}: only plumbing is dropped`,
        );
        const actor = String(Object.values(log.decoded ?? {})[0] ?? '').toLowerCase();
        t.ok(
          VENUE.has(actor) || VENUE.has(String(log.decoded?.operator).toLowerCase()),
          `${log.event} at ${log.logIndex} is moved by a venue contract`,
        );
        continue;
      }
      const expected = expectedFromViem(event.kind as V1Kind, EVENT_ABIS[event.kind], raw, raw.address.toLowerCase());
      const actual = Object.fromEntries(
        Object.keys(expected).map((k) => [k, (event as unknown as Record<string, unknown>)[k]]),
      );
      t.same(actual, expected, `${set.name} ${log.event} log ${log.logIndex}`);
      decoded++;
    }
  }
  t.equal(decoded + decoder.skipped.plumbing, 74, 'every venue log of the 75 decodes or is plumbing');
  t.ok(decoder.skipped.plumbing > 10, `${decoder.skipped.plumbing} plumbing logs`);
  t.same(
    { ...decoder.skipped, plumbing: 0 },
    { plumbing: 0, otherContract: 1, otherEvent: 0, malformed: 0, oversized: 0 },
  );
});
