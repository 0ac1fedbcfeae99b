// Position records: every kind of position event crosses to the wallet fold with each of its fields, texts
// replaced by the state's ids (an unknown market by NO_MARKET), lists and an absent list intact.
import t from 'tap';
import { ID_SPACE, type IdSpace } from '../../engine/log/idDictionary.js';
import { NO_MARKET, createPositionRecordWriter, readPositionRecords } from '../../engine/fold/positionRecords.js';
import { POSITION_EVENT, type PositionEvent } from '../../engine/reducers/positionEvent.js';

const wallet = (n: number) => '0x' + n.toString(16).padStart(40, '0');
const token = (n: number) => n.toString(16).padStart(64, '0');
const condition = (n: number) => '0x' + n.toString(16).padStart(64, '0');
const base = { wallet: wallet(7), ts: 1_700_000_000, block: 123_456, logIndex: 42, market: condition(3) };

const events: PositionEvent[] = [
  {
    kind: POSITION_EVENT.bookBuy,
    ...base,
    token: token(1),
    shares: 10_000_000,
    usd: 6_500_000,
    feeShares: 12,
    feeUsd: 0,
  },
  { kind: POSITION_EVENT.bookSell, ...base, market: '', token: token(2), shares: 3_000_000, usd: 2_100_000, feeUsd: 7 },
  {
    kind: POSITION_EVENT.split,
    ...base,
    tokens: [token(1), token(2)],
    markets: [],
    amount: 5_000_001,
    viaAdapter: true,
  },
  {
    kind: POSITION_EVENT.merge,
    ...base,
    tokens: [token(1), token(2)],
    markets: [condition(4), condition(5)],
    amount: 2_000_000,
  },
  {
    kind: POSITION_EVENT.redemption,
    ...base,
    tokens: [token(1), token(2)],
    numerators: [1, 0],
    denominator: 1,
    amounts: null,
    payout: 9_000_000,
  },
  {
    kind: POSITION_EVENT.redemption,
    ...base,
    tokens: [token(2)],
    numerators: [0, 1],
    denominator: 1,
    amounts: [4_000_000],
    payout: 4_000_000,
  },
  { kind: POSITION_EVENT.ammBuy, ...base, token: token(1), investment: 1_000_000, fee: 20_000, shares: 1_900_000 },
  { kind: POSITION_EVENT.ammSell, ...base, token: token(1), proceeds: 800_000, fee: 16_000, shares: 1_000_000 },
  { kind: POSITION_EVENT.ammReceive, ...base, token: token(2), shares: 500_000, cost: 250_000 },
  { kind: POSITION_EVENT.transferOut, ...base, token: token(1), amount: 1_000_000, slot: 0 },
  { kind: POSITION_EVENT.transferIn, ...base, wallet: wallet(8), token: token(1), amount: 1_000_000, slot: 0 },
  {
    kind: POSITION_EVENT.conversion,
    ...base,
    market: '',
    noTokens: [token(4), token(6)],
    yesTokens: [token(5)],
    noMarkets: [condition(4), ''],
    yesMarkets: [condition(5)],
    amount: 3_000_000,
    feeBips: 25,
  },
];

t.test('behavior: every kind round-trips with its texts as ids', async (t) => {
  const numbered = new Map<string, number>();
  const idOf = (space: IdSpace, text: string) => {
    const key = `${space}:${text}`;
    if (!numbered.has(key)) numbered.set(key, numbered.size);
    return numbered.get(key)!;
  };
  const writer = createPositionRecordWriter(idOf);
  // Enough records to outgrow the first buffer.
  const many = Array.from({ length: 400 }, () => events).flat();
  for (const event of many) writer.write(event);
  const { buffer, length } = writer.take();
  const read = readPositionRecords(buffer, length);
  t.equal(read.length, many.length, 'as many events');

  const market = (text: string) => (text === '' ? NO_MARKET : idOf(ID_SPACE.condition, text));
  const tokenId = (text: string) => idOf(ID_SPACE.token, text);
  const expected = events.map((event) => {
    const fields: Record<string, unknown> = {
      ...event,
      wallet: idOf(ID_SPACE.address, event.wallet),
      market: market(event.market),
    };
    for (const name of ['token'] as const)
      if (name in event) fields[name] = tokenId((event as { token: string }).token);
    for (const name of ['tokens', 'noTokens', 'yesTokens'] as const) {
      if (name in event) fields[name] = (fields[name] as string[]).map(tokenId);
    }
    for (const name of ['markets', 'noMarkets', 'yesMarkets', 'burnMarkets', 'mintMarkets'] as const)
      if (name in event) fields[name] = (fields[name] as string[]).map(market);
    return fields;
  });
  t.same(read.slice(0, events.length), expected, 'each field, by id');
  t.strictSame(read.slice(-events.length), expected, 'the last copy too, past the first buffer');
  t.equal(writer.take().length, 0, 'take empties the writer');
});

t.test('error: a truncated buffer is refused', async (t) => {
  const writer = createPositionRecordWriter(() => 1);
  writer.write(events[2]!);
  const { buffer, length } = writer.take();
  t.throws(() => readPositionRecords(buffer, length - 1), /runs past the end/);
});
