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

const FIRST_CAPACITY = 1 << 14;

export function createPositionRecordWriter(idOf: StateIdOf): PositionRecordWriter {
  let values = new Float64Array(FIRST_CAPACITY);
  let length = 0;
  const push = (value: number) => {
    if (length === values.length) {
      const grown = new Float64Array(values.length * 2);
      grown.set(values);
      values = grown;
    }
    values[length++] = value;
  };
  const marketId = (text: string) => (text === '' ? NO_MARKET : idOf(ID_SPACE.condition, text));
  const pushField = (type: FieldType, value: unknown) => {
    switch (type) {
      case 'wallet':
        return push(idOf(ID_SPACE.address, value as string));
      case 'token':
        return push(idOf(ID_SPACE.token, value as string));
      case 'market':
        return push(marketId(value as string));
      case 'number':
        return push(value as number);
      case 'flag':
        return push(value ? 1 : 0);
      case 'tokens':
      case 'markets':
      case 'numbers':
      case 'optionalNumbers': {
        if (value === null) return push(-1);
        const list = value as Array<string | number>;
        push(list.length);
        for (const item of list) {
          push(
            type === 'tokens'
              ? idOf(ID_SPACE.token, item as string)
              : type === 'markets'
                ? marketId(item as string)
                : (item as number),
          );
        }
      }
    }
  };
  return {
    write(event) {
      push(event.kind);
      const fields = event as unknown as Record<string, unknown>;
      for (const [name, type] of HEADER) pushField(type, fields[name]);
      for (const [name, type] of FIELDS[event.kind]) pushField(type, fields[name]);
    },
    take() {
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
  let at = 0;
  const readField = (type: FieldType): unknown => {
    switch (type) {
      case 'flag':
        return values[at++] === 1;
      case 'tokens':
      case 'markets':
      case 'numbers':
      case 'optionalNumbers': {
        const count = values[at++]!;
        if (count < 0) return null;
        const list = Array.from(values.subarray(at, at + count));
        at += count;
        return list;
      }
      default:
        return values[at++];
    }
  };
  while (at < length) {
    const kind = values[at++] as Kind;
    const fields = FIELDS[kind];
    assert(fields !== undefined, 'position records: every kind is known');
    const event: Record<string, unknown> = { kind };
    for (const [name, type] of HEADER) event[name] = readField(type);
    for (const [name, type] of fields) event[name] = readField(type);
    events.push(event as unknown as PositionEvent<number>);
  }
  assert(at === length, 'position records: no record runs past the end');
  return events;
}
