// The Protocol V2 decoder against viem's decodeEventLog on random samples of every kind, its topics against
// docs/venue-v2.md 3's table, its routing by emitter, and the per-topic count of what it does not know.
import t from 'tap';
import { decodeEventLog, encodeAbiParameters, encodeEventTopics, type AbiEvent } from 'viem';
import { POLYGON_ADDRESSES } from '../../engine/chain/venueAddresses.js';
import { createV2LogDecoder } from '../../replay/decode/decodeV2Log.js';
import { createRawLog } from '../../replay/decode/rawLog.js';
import {
  V2_EVENT_ABIS,
  V2_EVENT_TOPICS,
  V2_EVENTS,
  V2_ID_FIELDS,
  V2_KIND,
  type V2Kind,
} from '../../engine/chain/v2EventAbis.js';

const a = POLYGON_ADDRESSES;
const EMITTER: Record<string, string> = {
  positionManager: a.positionManager,
  exchangeV3: a.exchangeV3,
  module: a.negRiskModule,
  combinatorial: a.combinatorialModule,
  anyModule: a.binaryModule,
  autoRedeemer: a.autoRedeemer,
  router: a.v2Router,
};

let seed = 4242;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const randHex = (bytes: number) =>
  Array.from({ length: bytes }, () =>
    Math.floor(rand() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join('');

function sample(type: string, id: boolean): unknown {
  if (type.endsWith('[]')) return Array.from({ length: Math.floor(rand() * 4) }, () => sample(type.slice(0, -2), id));
  if (type === 'address') return '0x' + randHex(20);
  const bytes = /^bytes(\d+)$/.exec(type);
  if (bytes) return '0x' + randHex(Number(bytes[1]));
  if (type === 'uint8') return Math.floor(rand() * 2);
  return id ? BigInt('0x' + randHex(32)) : BigInt(Math.floor(rand() * 2 ** 52));
}

function ours(value: unknown, id: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => ours(v, id));
  if (typeof value === 'bigint') return id ? value.toString(16).padStart(64, '0') : Number(value);
  if (typeof value === 'string') return value.toLowerCase();
  return value;
}

function encode(abi: AbiEvent) {
  const args: Record<string, unknown> = {};
  for (const input of abi.inputs) args[input.name!] = sample(input.type, V2_ID_FIELDS.has(input.name!));
  const topics = encodeEventTopics({ abi: [abi], eventName: abi.name, args } as never) as string[];
  const dataInputs = abi.inputs.filter((input) => !input.indexed);
  const data = encodeAbiParameters(dataInputs, dataInputs.map((input) => args[input.name!]) as never);
  return { topics, data };
}

t.test('topics: computed from the signatures, equal to docs/venue-v2.md 3', async (t) => {
  const documented: Partial<Record<V2Kind, string>> = {
    [V2_KIND.v2TransferSingle]: '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62',
    [V2_KIND.v2TransferBatch]: '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb',
    [V2_KIND.v3OrderFilled]: '0xd543adfd945773f1a62f74f0ee55a5e3b9b1a28262980ba90b1a89f2ea84d8ee',
    [V2_KIND.v3OrdersMatched]: '0x174b3811690657c217184f89418266767c87e4805d09680c39fc9c031c0cab7c',
    [V2_KIND.v3FeeCharged]: '0x55bb3cade9d43b798a4fe5ffdd05024b2d7870df53920673bfc7e68047cd0ab1',
    [V2_KIND.comboConditionPrepared]: '0x51c89d7ee51515f7235e928930da7f81be08212bc14870a6a37c64744492db96',
    [V2_KIND.v2PositionsSplit]: '0xb6a6b8b17a43b07b9359dd12d304e42077eede9e672f8646144842c8604582a4',
    [V2_KIND.v2PositionsMerged]: '0xf233f7be4ce81130a78e8eb2fa626497586c56094d27bfec2e196471e9c60301',
    [V2_KIND.v2PositionRedeemed]: '0x4fd474b703f46b453536518b4cbc159dfbea6fd663233763d321a9bc8ccdf97f',
    [V2_KIND.comboSplitOnCondition]: '0x1a07698f7dd85df4924787e65bad71fa08c54c04700b09c8c648c6e797540202',
    [V2_KIND.comboMergedOnCondition]: '0x532e91b101b4cdffc29d79b6ca1f3ae8690d4846c75145039161f4a22c55019a',
    [V2_KIND.comboSplitOnEvent]: '0x24ddc4002a06123a2abb28bb44889b496299eac2a85e9ccf87514396dda1d063',
    [V2_KIND.comboMergedOnEvent]: '0xb219258fc090ae084a29f0659e7e2947568de5694939da14181645a55f03f870',
    [V2_KIND.comboConvertedOnEvent]: '0x93d226ffc1c7cc4176213b47c5966043f735f6d3c3e5c092fd619ff1fe5d3bd3',
    [V2_KIND.comboExtracted]: '0x6c14fdbd417e901138c803349c26df1115726b468ebc6142d39f7b9aef7f17fe',
    [V2_KIND.comboInjected]: '0xbb32ee0762f37f8b1ace698804f2f31be362ada55b233e359de04fefd164819f',
    [V2_KIND.comboConvertedToYesBasket]: '0x348359e703372b7a9511e430c7e4db280578fb31a773e6c075ef7328cec34da6',
    [V2_KIND.comboMergedFromYesBasket]: '0x09e4439e8186f011e12eb04a93f9d5477f79e7479375c8108d5e38e234a84ff6',
    [V2_KIND.comboCompressed]: '0x43f975db4a407bc85816b44922ab015dc6b990ead8d39099398c03a258e70bce',
    [V2_KIND.comboUnwrapped]: '0x49c5e71a70e54b164c70c3345b2f3ca11fbad1c05a76146be4c4e849f992658b',
    [V2_KIND.comboWrapped]: '0xee943741871b99130d74367c491afe27aa9324108e10ae51d0a8f9e8cd9f9eff',
    [V2_KIND.v2ResultReported]: '0x669c053fe14f2493990c0c90d8d2870cd45e2630b34b8a2b4f02869301987713',
    [V2_KIND.v2ConditionResolved]: '0xe560c1a2847d4cf2e66de11fe592605556989449f38cc3ab96e2e287daa68caa',
    [V2_KIND.v2MigrationConditionRegistered]: '0x0da49435dfd3b856758ee0b1a2500f1e8062fed24dd654594af9fa163cc5bcb4',
  };
  for (const [kind, topic] of Object.entries(documented)) t.equal(V2_EVENT_TOPICS[Number(kind) as V2Kind], topic, kind);
  // docs/venue-v2.md gives only the prefix and suffix of EventPrepared's topic.
  t.match(V2_EVENT_TOPICS[V2_KIND.v2EventPrepared], /^0x9bdf886b[0-9a-f]{52}3306$/);
  t.match(V2_EVENT_TOPICS[V2_KIND.v2PositionMigrated], /^0xe8d329e9[0-9a-f]{52}c80b$/);
  // The others docs/venue-v2.md gives by prefix and suffix.
  const ends: Array<[V2Kind, RegExp]> = [
    [V2_KIND.v2AutoRedemption, /^0xeebddedd[0-9a-f]{52}491e$/],
    [V2_KIND.v2MigrationResolved, /^0xf8710096[0-9a-f]{52}c8af$/],
    [V2_KIND.negRiskRemainingDerivableAsNo, /^0x7b4e6339[0-9a-f]{52}0502$/],
    [V2_KIND.negRiskSyntheticDerivableAsYes, /^0x5bea118d[0-9a-f]{52}8b36$/],
    [V2_KIND.negRiskHorizontalSplit, /^0x9dbee207[0-9a-f]{52}74ce$/],
    [V2_KIND.negRiskHorizontalMerge, /^0xbfdd4731[0-9a-f]{52}7b4b$/],
    [V2_KIND.negRiskPositionConverted, /^0x975e919c[0-9a-f]{52}2779$/],
    [V2_KIND.routerPositionSplit, /^0x04373eec[0-9a-f]{52}704c$/],
    [V2_KIND.routerPositionsMerged, /^0x8eb905ea[0-9a-f]{52}b982$/],
    [V2_KIND.routerPositionRedeemed, /^0x81b466b1[0-9a-f]{52}366a$/],
    [V2_KIND.routerCollateralReturned, /^0xf96012c3[0-9a-f]{52}3b86$/],
  ];
  for (const [kind, pattern] of ends) t.match(V2_EVENT_TOPICS[kind], pattern, V2_EVENTS[kind].signature);
});

t.test('every kind decodes as viem decodes it', async (t) => {
  const decoder = createV2LogDecoder(a);
  for (const key of Object.keys(V2_EVENTS)) {
    const kind = Number(key) as V2Kind;
    const abi = V2_EVENT_ABIS[kind];
    const address = EMITTER[V2_EVENTS[kind].emitter]!;
    for (let round = 0; round < 20; round++) {
      const { topics, data } = encode(abi);
      const tx = '0x' + randHex(32);
      const event = decoder.decode(createRawLog({ address, topics, data, logIndex: round, txIndex: 3, tx }));
      const args = decodeEventLog({ abi: [abi], topics: topics as never, data: data as `0x${string}`, strict: true })
        .args as Record<string, unknown>;
      const expected: Record<string, unknown> = { kind, logIndex: round, txIndex: 3, tx, address };
      for (const input of abi.inputs) expected[input.name!] = ours(args[input.name!], V2_ID_FIELDS.has(input.name!));
      if (round === 0) t.same(event, expected, `${abi.name} (${kind})`);
      else if (JSON.stringify(event) !== JSON.stringify(expected)) t.fail(`${abi.name} round ${round}`);
    }
  }
  t.equal(decoder.unknownTopics.size, 0);
  t.equal(decoder.malformed.count, 0);
});

t.test('routing: by emitter; unknown topics of V2 contracts counted per topic; other contracts ignored', async (t) => {
  const decoder = createV2LogDecoder(a);
  const split = encode(V2_EVENT_ABIS[V2_KIND.v2PositionsSplit]);
  const log = (address: string, topics: string[], data = split.data) =>
    createRawLog({ address, topics, data, logIndex: 0, txIndex: 0, tx: '0x' + '11'.repeat(32) });
  for (const module of [a.binaryModule, a.negRiskModule, a.combinatorialModule])
    t.equal(decoder.decode(log(module, split.topics))?.kind, V2_KIND.v2PositionsSplit, 'a module split');
  t.equal(decoder.decode(log(a.exchangeV3, split.topics)), null, 'not an exchange event');
  const upgraded = '0xbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b';
  decoder.decode(log(a.positionManager, [upgraded, '0x' + '00'.repeat(12) + 'ab'.repeat(20)], '0x'));
  decoder.decode(log(a.positionManager, [upgraded, '0x' + '00'.repeat(12) + 'cd'.repeat(20)], '0x'));
  t.same(
    [...decoder.unknownTopics],
    [
      [split.topics[0], 1],
      [upgraded, 2],
    ],
  );
  t.equal(decoder.decode(log('0x' + '99'.repeat(20), [upgraded], '0x')), null);
  t.equal(decoder.unknownTopics.get(upgraded), 2, 'another contract is not counted');
  decoder.decode(log(a.binaryModule, split.topics.slice(0, 3)));
  t.equal(decoder.malformed.count, 1, 'a known topic with a topic missing');
});
