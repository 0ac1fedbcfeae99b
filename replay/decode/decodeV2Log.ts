// Decodes the Protocol V2 stack's logs (engine/chain/v2EventAbis.ts) by fixed ABI offsets laid out once from each
// signature: a plan of (field, topic or data word, how to read it) per kind, walked for every log, so no field
// order is written twice. A log of a V2 contract whose topic0 tally does not know is counted per topic, never
// silently dropped: the deployed contracts were upgraded after the source the signatures come from.
import { AssertionFailure } from '../../engine/assert.js';
import type { VenueAddresses } from '../../engine/chain/venueAddresses.js';
import {
  OversizedValueError,
  ShortDataError,
  readAddress,
  readUint,
  readUintArray,
  readWordHex,
  readWordHexArray,
  topicAddress,
  topicWordHex,
} from './abiWords.js';
import { hexField, type RawLog } from './rawLog.js';
import {
  V2_EVENT_ABIS,
  V2_EVENT_TOPICS,
  V2_EVENTS,
  V2_ID_FIELDS,
  type V2Emitter,
  type V2Kind,
} from '../../engine/chain/v2EventAbis.js';

/**
 * One decoded V2 log. Addresses are 0x + 40 hex; position ids 64 hex; a bytes31 condition id is 0x + 62 hex and a
 * bytes29 event id 0x + 58 hex (the id itself, not its padded word); bytes32 is 0x + 64 hex; amounts, results and
 * `side` are safe integers; `address` is the emitting contract.
 */
export interface V2Event {
  kind: V2Kind;
  logIndex: number;
  txIndex: number;
  tx: string;
  address: string;
  [field: string]: unknown;
}

const enum Read {
  address,
  id,
  uint,
  condition,
  event,
  bytes32,
  ids,
  uints,
  addresses,
}

interface Step {
  name: string;
  read: Read;
  topic: boolean;
  /** Topic number or data word. */
  at: number;
}

function readOf(type: string, name: string): Read {
  switch (type) {
    case 'address':
      return Read.address;
    case 'uint256':
      return V2_ID_FIELDS.has(name) ? Read.id : Read.uint;
    case 'uint8':
      return Read.uint;
    case 'bytes31':
      return Read.condition;
    case 'bytes29':
      return Read.event;
    case 'bytes32':
      return Read.bytes32;
    case 'uint256[]':
      return V2_ID_FIELDS.has(name) ? Read.ids : Read.uints;
    case 'address[]':
      return Read.addresses;
    default:
      throw new AssertionFailure(`v2 event field ${name}: no reader for ${type}`);
  }
}

interface Plan {
  kind: V2Kind;
  topics: number;
  steps: Step[];
}

function planOf(kind: V2Kind): Plan {
  const steps: Step[] = [];
  let topic = 1;
  let word = 0;
  for (const input of V2_EVENT_ABIS[kind].inputs) {
    const read = readOf(input.type, input.name!);
    if (input.indexed === true) steps.push({ name: input.name!, read, topic: true, at: topic++ });
    else steps.push({ name: input.name!, read, topic: false, at: word++ });
  }
  return { kind, topics: topic, steps };
}

function readStep(log: RawLog, step: Step): unknown {
  const at = step.topic ? log.topicAt[step.at]! : -1;
  switch (step.read) {
    case Read.address:
      return step.topic ? topicAddress(log, step.at) : readAddress(log, step.at);
    case Read.id:
      return step.topic ? topicWordHex(log, step.at) : readWordHex(log, step.at);
    case Read.uint:
      return readUint(log, step.at);
    case Read.condition:
      return step.topic ? hexField(log, at, 62) : '0x' + readWordHex(log, step.at).slice(0, 62);
    case Read.event:
      return step.topic ? hexField(log, at, 58) : '0x' + readWordHex(log, step.at).slice(0, 58);
    case Read.bytes32:
      return step.topic ? hexField(log, at, 64) : '0x' + readWordHex(log, step.at);
    case Read.ids:
      return readWordHexArray(log, step.at);
    case Read.uints:
      return readUintArray(log, step.at);
    case Read.addresses:
      return readWordHexArray(log, step.at).map((word) => '0x' + word.slice(24));
  }
}

export interface V2LogDecoder {
  /** The event, or null: not a V2 contract's log (nothing counted), or a V2 log tally skips (counted). */
  decode(log: RawLog): V2Event | null;
  /** topic0 -> logs of V2 contracts with that unknown topic. */
  readonly unknownTopics: Map<string, number>;
  /** Logs of V2 contracts with an unknown topic, all topics together. */
  readonly unknown: { count: number };
  /** Known topics with the wrong topic count or data, or values beyond 2^53. */
  readonly malformed: { count: number };
}

export function createV2LogDecoder(addresses: VenueAddresses): V2LogDecoder {
  const emitters = new Map<string, V2Emitter>([
    [addresses.positionManager, 'positionManager'],
    [addresses.exchangeV3, 'exchangeV3'],
    [addresses.binaryModule, 'module'],
    [addresses.negRiskModule, 'module'],
    [addresses.combinatorialModule, 'combinatorial'],
    [addresses.autoRedeemer, 'autoRedeemer'],
    [addresses.v2Router, 'router'],
  ]);
  const plans = new Map<string, Plan[]>();
  for (const key of Object.keys(V2_EVENTS)) {
    const kind = Number(key) as V2Kind;
    const topic0 = V2_EVENT_TOPICS[kind];
    plans.set(topic0, [...(plans.get(topic0) ?? []), planOf(kind)]);
  }
  const accepts = (kind: V2Kind, emitter: V2Emitter): boolean => {
    const wanted = V2_EVENTS[kind].emitter;
    return wanted === emitter || (wanted === 'anyModule' && (emitter === 'module' || emitter === 'combinatorial'));
  };
  const unknownTopics = new Map<string, number>();
  const unknown = { count: 0 };
  const malformed = { count: 0 };
  return {
    unknownTopics,
    unknown,
    malformed,
    decode(log) {
      const address = hexField(log, log.addressAt, 40);
      const emitter = emitters.get(address);
      if (emitter === undefined) return null;
      const topic0 = log.topicCount === 0 ? '(none)' : hexField(log, log.topicAt[0]!, 64);
      const plan = plans.get(topic0)?.find((candidate) => accepts(candidate.kind, emitter));
      if (plan === undefined) {
        unknownTopics.set(topic0, (unknownTopics.get(topic0) ?? 0) + 1);
        unknown.count++;
        return null;
      }
      if (log.topicCount !== plan.topics) {
        malformed.count++;
        return null;
      }
      const event: V2Event = {
        kind: plan.kind,
        logIndex: log.logIndex,
        txIndex: log.txIndex,
        tx: hexField(log, log.txAt, 64),
        address,
      };
      try {
        for (const step of plan.steps) event[step.name] = readStep(log, step);
      } catch (error) {
        if (error instanceof OversizedValueError || error instanceof ShortDataError) {
          malformed.count++;
          return null;
        }
        throw error;
      }
      return event;
    },
  };
}
