// Position events on their way to the wallet fold: f64 records in one buffer per partition and batch, moved to
// the worker (transferred, not copied or re-encoded), naming wallets, tokens and markets by the state's ids
// (createStateIds), so the worker holds no hex text. Every figure is an integer of micro-units or a time, exact
// in an f64. A record is the kind, the fields every event has (HEADER), then the kind's fields (FIELDS); a list
// is its length then its items, an absent list a length of -1.
import { ID_SPACE, type IdSpace } from '../log/idDictionary.js';
import { POSITION_EVENT, type PositionEvent } from '../reducers/positionEvent.js';
import { assert } from '../assert.js';

/** The market id of an event whose market derive did not know ('' in the text form). */
export const NO_MARKET = -1;

type FieldType =
  | 'wallet'
  | 'token'
  | 'market'
  | 'number'
  | 'flag'
  | 'tokens'
  | 'markets'
  | 'numbers'
  | 'optionalNumbers';
type Kind = PositionEvent['kind'];
type EventOf<K extends Kind> = Extract<PositionEvent, { kind: K }>;
type FieldList<K extends Kind> = ReadonlyArray<readonly [Exclude<keyof EventOf<K>, 'kind'>, FieldType]>;

const HEADER = [
  ['wallet', 'wallet'],
  ['market', 'market'],
  ['ts', 'number'],
  ['block', 'number'],
  ['logIndex', 'number'],
] as const;

const FIELDS: { [K in Kind]: FieldList<K> } = {
  [POSITION_EVENT.bookBuy]: [
    ['token', 'token'],
    ['shares', 'number'],
    ['usd', 'number'],
    ['feeShares', 'number'],
    ['feeUsd', 'number'],
  ],
  [POSITION_EVENT.bookSell]: [
    ['token', 'token'],
    ['shares', 'number'],
    ['usd', 'number'],
    ['feeUsd', 'number'],
  ],
  [POSITION_EVENT.split]: [
    ['tokens', 'tokens'],
    ['markets', 'markets'],
    ['amount', 'number'],
    ['viaAdapter', 'flag'],
  ],
  [POSITION_EVENT.merge]: [
    ['tokens', 'tokens'],
    ['markets', 'markets'],
    ['amount', 'number'],
  ],
  [POSITION_EVENT.redemption]: [
    ['tokens', 'tokens'],
    ['numerators', 'numbers'],
    ['denominator', 'number'],
    ['amounts', 'optionalNumbers'],
    ['payout', 'number'],
  ],
  [POSITION_EVENT.ammBuy]: [
    ['token', 'token'],
    ['investment', 'number'],
    ['fee', 'number'],
    ['shares', 'number'],
  ],
  [POSITION_EVENT.ammSell]: [
    ['token', 'token'],
    ['proceeds', 'number'],
    ['fee', 'number'],
    ['shares', 'number'],
  ],
  [POSITION_EVENT.ammReceive]: [
    ['token', 'token'],
    ['shares', 'number'],
    ['cost', 'number'],
  ],
  [POSITION_EVENT.transferOut]: [
    ['token', 'token'],
    ['amount', 'number'],
    ['slot', 'number'],
  ],
  [POSITION_EVENT.transferIn]: [
    ['token', 'token'],
    ['amount', 'number'],
    ['slot', 'number'],
  ],
  [POSITION_EVENT.conversion]: [
    ['noTokens', 'tokens'],
    ['yesTokens', 'tokens'],
    ['noMarkets', 'markets'],
    ['yesMarkets', 'markets'],
    ['amount', 'number'],
    ['feeBips', 'number'],
  ],
  [POSITION_EVENT.restructure]: [
    ['burnTokens', 'tokens'],
    ['burnMarkets', 'markets'],
    ['burnAmounts', 'numbers'],
    ['mintTokens', 'tokens'],
    ['mintMarkets', 'markets'],
    ['mintAmounts', 'numbers'],
    ['cash', 'number'],
    ['approx', 'flag'],
    ['migrated', 'flag'],
  ],
};

/** The state's id of a text, numbered if new (createStateIds.id with the current block's writes). */
export type StateIdOf = (space: IdSpace, text: string) => number;

export interface PositionRecordWriter {
  write(event: PositionEvent): void;
  /** The records written, as a buffer to transfer, and how many f64s of it they fill. */
  take(): { buffer: ArrayBuffer; length: number };
}

/** What a generated writer calls (see WRITERS). */
interface RecordSink {
  push(value: number): void;
  id(space: IdSpace, text: string): void;
  market(text: string): void;
  /** A list (ids of `space` for texts, or numbers with space -1): its length, then its items; null as -1. */
  list(items: ReadonlyArray<string | number> | null, space: IdSpace | -1, markets: boolean): void;
}
type WriteRecord = (event: PositionEvent, sink: RecordSink) => void;
type ReadRecord = (values: Float64Array, cursor: { at: number }, list: typeof readList) => PositionEvent<number>;

// Per kind, generated from HEADER and FIELDS (our own constants; every name is checked to be a plain identifier
// first), as engine/log/logCodec.ts does for the log: named loads and one object literal per kind give every
// event of a kind one shape. Built a property at a time over the names, reading took about 3 µs an event and the
// reducers' loads on the result missed their caches.
const WRITERS: WriteRecord[] = [];
const READERS: ReadRecord[] = [];
const WRITE_BY_TYPE: Record<FieldType, (name: string) => string> = {
  wallet: (name) => `s.id(${ID_SPACE.address}, e.${name});`,
  token: (name) => `s.id(${ID_SPACE.token}, e.${name});`,
  market: (name) => `s.market(e.${name});`,
  number: (name) => `s.push(e.${name});`,
  flag: (name) => `s.push(e.${name} ? 1 : 0);`,
  tokens: (name) => `s.list(e.${name}, ${ID_SPACE.token}, false);`,
  markets: (name) => `s.list(e.${name}, ${ID_SPACE.condition}, true);`,
  numbers: (name) => `s.list(e.${name}, -1, false);`,
  optionalNumbers: (name) => `s.list(e.${name}, -1, false);`,
};
const READ_BY_TYPE: Record<FieldType, (name: string) => string> = {
  wallet: (name) => `const ${name} = v[at++];`,
  token: (name) => `const ${name} = v[at++];`,
  market: (name) => `const ${name} = v[at++];`,
  number: (name) => `const ${name} = v[at++];`,
  flag: (name) => `const ${name} = v[at++] === 1;`,
  tokens: (name) => `const ${name} = list(v, at); at += ${name} === null ? 1 : ${name}.length + 1;`,
  markets: (name) => `const ${name} = list(v, at); at += ${name} === null ? 1 : ${name}.length + 1;`,
  numbers: (name) => `const ${name} = list(v, at); at += ${name} === null ? 1 : ${name}.length + 1;`,
  optionalNumbers: (name) => `const ${name} = list(v, at); at += ${name} === null ? 1 : ${name}.length + 1;`,
};
for (const [kindText, kindFields] of Object.entries(FIELDS)) {
  const kind = Number(kindText);
  const fields = [...HEADER, ...kindFields] as ReadonlyArray<readonly [string, FieldType]>;
  for (const [name] of fields) assert(/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name), `FIELDS[${kind}]: ${name} is a name`);
  WRITERS[kind] = new Function(
    'e',
    's',
    [`s.push(${kind});`, ...fields.map(([name, type]) => WRITE_BY_TYPE[type](name))].join('\n'),
  ) as WriteRecord;
  READERS[kind] = new Function(
    'v',
    'c',
    'list',
    [
      'let at = c.at;',
      ...fields.map(([name, type]) => READ_BY_TYPE[type](name)),
      'c.at = at;',
      `return { kind: ${kind}, ${fields.map(([name]) => name).join(', ')} };`,
    ].join('\n'),
  ) as ReadRecord;
}

/** The list at `values[at]` (its length, then its items), null for a length of -1. */
function readList(values: Float64Array, at: number): number[] | null {
  const count = values[at]!;
  if (count < 0) return null;
  // Written as a list's length, then its items: all inside the records the writer filled.
  assert(Number.isInteger(count) && at + 1 + count <= values.length, 'position records: a list lies inside them');
  const list = new Array<number>(count);
  for (let i = 0; i < count; i++) list[i] = values[at + 1 + i]!;
  return list;
}

const FIRST_CAPACITY = 1 << 14;

export function createPositionRecordWriter(idOf: StateIdOf): PositionRecordWriter {
  let values = new Float64Array(FIRST_CAPACITY);
  let length = 0;
  const push = (value: number) => {
    // Every figure is an integer (micro-units, times, ids, counts, flags): a field an event lacks would be NaN here.
    assert(Number.isInteger(value), 'position records: every figure is an integer');
    if (length === values.length) {
      const grown = new Float64Array(values.length * 2);
      grown.set(values);
      values = grown;
    }
    values[length++] = value;
  };
  const marketId = (text: string) => (text === '' ? NO_MARKET : idOf(ID_SPACE.condition, text));
  const sink: RecordSink = {
    push,
    id: (space, text) => push(idOf(space, text)),
    market: (text) => push(marketId(text)),
    list(items, space, markets) {
      // Generated from FIELDS: a markets list names conditions, a numbers list is no id space's.
      assert(!markets || space === ID_SPACE.condition, 'position records: a markets list holds condition ids');
      if (items === null) return push(-1);
      push(items.length);
      for (const item of items)
        push(space === -1 ? (item as number) : markets ? marketId(item as string) : idOf(space, item as string));
    },
  };
  return {
    write(event) {
      const start = length;
      WRITERS[event.kind]!(event, sink);
      // A record is its kind, then the fields every event has, then its kind's (readPositionRecords reads them so).
      assert(
        length > start + HEADER.length && values[start] === event.kind,
        'position records: a record starts with its kind',
      );
    },
    take() {
      assert(length <= values.length, 'position records: the records lie inside their buffer');
      const taken = { buffer: values.buffer as ArrayBuffer, length };
      // The buffer is transferred: the next starts at this batch's size, so that it is allocated once, not grown
      // by doubling (each step a large allocation left to the collector and the allocator's free lists).
      values = new Float64Array(Math.max(FIRST_CAPACITY, length));
      length = 0;
      return taken;
    },
  };
}

/** The events of a record buffer, in the order they were written, naming everything by id. */
export function readPositionRecords(buffer: ArrayBuffer, length: number): PositionEvent<number>[] {
  const values = new Float64Array(buffer, 0, length);
  const events: PositionEvent<number>[] = [];
  const cursor = { at: 0 };
  while (cursor.at < length) {
    const read = READERS[values[cursor.at]!];
    assert(read !== undefined, 'position records: every kind is known');
    cursor.at++;
    events.push(read(values, cursor, readList));
  }
  assert(cursor.at === length, 'position records: no record runs past the end');
  return events;
}
