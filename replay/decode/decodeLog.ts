// Decodes raw chain logs of the venue's contracts into ChainEvents by fixed ABI offsets (viem's generic
// decodeEventLog is ~10x slower; test/decode proves these equal to viem's decoding). A log is routed by its
// topic0 and the contract that emitted it, since several contracts share event names. Anything else is
// skipped and counted, never an error: a capture may hold logs of other contracts. Input strings are lowercase
// (both sources guarantee it), so nothing is lower-cased here.
import { EXCHANGE, KIND, type ChainEvent, type ExchangeCode, type Kind } from '../../engine/chain/chainEvent.js';
import type { VenueAddresses } from '../../engine/chain/venueAddresses.js';
import {
  OversizedValueError,
  ShortDataError,
  readAddress,
  readBytes,
  readBytes32,
  readBytes32Array,
  readIntTopic,
  readUint,
  readUintArray,
  readWordHex,
  readWordHexArray,
  topicAddress,
  topicHex,
  topicUint,
  topicWordHex,
} from './abiWords.js';
import { EVENT_TOPICS } from './eventAbis.js';
import { createV2LogDecoder } from './decodeV2Log.js';
import { protocolV2Contracts } from '../../engine/chain/protocolV2Contracts.js';
import { V2_EVENT_SCHEMA, v2IdWord } from '../../engine/chain/v2ChainEvent.js';
import { createHexIndex } from './hexIndex.js';
import { hexField, type RawLog } from './rawLog.js';

const ZERO_DIGIT = 48;

export interface SkipCounts {
  /**
   * The venue's own contracts moving tokens for a trade or an adapter call (transfers they operate, CTF splits, merges
   * and redemptions they make): never a wallet's action (docs/design.md 2), so not worth a log record.
   */
  plumbing: number;
  /** Emitted by a contract tally does not index. */
  otherContract: number;
  /** An indexed contract's event tally does not use (admin events, ERC-20 transfers of pools, ...). */
  otherEvent: number;
  /** Wrong topic count or data shorter than the layout. */
  malformed: number;
  /** A value beyond 2^53 micro-units: no real amount comes near it. */
  oversized: number;
}

type Role =
  | 'ctf'
  | 'exchangeV1'
  | 'exchangeV2'
  | 'feeModule'
  | 'adapter'
  | 'collateralAdapter'
  | 'fpmmFactory'
  | 'feed'
  | 'reporter'
  | 'v2';
type Decoder = (log: RawLog, address: string, tx: string) => ChainEvent;

interface Route {
  role: Role | '*';
  kind: Kind;
  topics: number;
  decode: Decoder;
}

export interface LogDecoder {
  decode(log: RawLog): ChainEvent | null;
  readonly skipped: SkipCounts;
  /** topic0 -> logs of Protocol V2 contracts with that topic, which tally does not know (counted in otherEvent). */
  readonly v2UnknownTopics: ReadonlyMap<string, number>;
}

export function createLogDecoder(addresses: VenueAddresses): LogDecoder {
  interface Contract {
    address: string;
    role: Role;
    plumbing: boolean;
  }
  const contracts = createHexIndex<Contract>(40);
  const exchangeCodes = new Map<string, ExchangeCode>();
  const contract = (address: string, role: Role, exchange: ExchangeCode = EXCHANGE.ctf, plumbing = false) => {
    contracts.set(address, { address, role, plumbing });
    exchangeCodes.set(address, exchange);
  };
  contract(addresses.ctf, 'ctf');
  contract(addresses.ctfExchange, 'exchangeV1', EXCHANGE.ctf, true);
  contract(addresses.negRiskExchange, 'exchangeV1', EXCHANGE.negRisk, true);
  contract(addresses.ctfExchangeV2, 'exchangeV2', EXCHANGE.ctfV2, true);
  contract(addresses.negRiskExchangeV2, 'exchangeV2', EXCHANGE.negRiskV2, true);
  contract(addresses.negRiskExchangeV2Early, 'exchangeV2', EXCHANGE.negRiskV2, true);
  contract(addresses.feeModule, 'feeModule', EXCHANGE.ctf, true);
  contract(addresses.negRiskFeeModule, 'feeModule', EXCHANGE.ctf, true);
  contract(addresses.negRiskFeeModuleLegacy, 'feeModule', EXCHANGE.ctf, true);
  contract(addresses.negRiskAdapter, 'adapter', EXCHANGE.ctf, true);
  for (const adapter of [
    addresses.ctfCollateralAdapter,
    addresses.ctfCollateralAdapter2,
    addresses.negRiskCollateralAdapter,
    addresses.negRiskCollateralAdapter2,
  ])
    contract(adapter, 'collateralAdapter', EXCHANGE.ctf, true);
  contract(addresses.fpmmFactory, 'fpmmFactory');
  for (const feed of Object.keys(addresses.priceFeeds)) contract(feed.toLowerCase(), 'feed');
  contract(addresses.chainlinkReporter, 'reporter');
  // The Protocol V2 stack: its logs go to its own decoder (decodeV2Log.ts), every one kept, the transfers too:
  // the fold tells a wallet's move from the stack's own.
  for (const address of protocolV2Contracts(addresses)) contract(address, 'v2');
  const v2 = createV2LogDecoder(addresses);
  const decodeV2 = (log: RawLog): ChainEvent | null => {
    const malformedBefore = v2.malformed.count;
    const unknownBefore = v2.unknown.count;
    const decoded = v2.decode(log);
    if (decoded === null) {
      if (v2.malformed.count > malformedBefore) skipped.malformed++;
      // A topic tally does not know: kept in the log as such, so it is counted once and shown (health, ingest).
      else if (log.topicCount > 0 && v2.unknown.count > unknownBefore)
        return {
          kind: KIND.unknownTopic,
          logIndex: log.logIndex,
          txIndex: log.txIndex,
          tx: txOf(log),
          emitter: hexField(log, log.addressAt, 40),
          topic0: topicHex(log, 0),
        };
      else skipped.otherEvent++;
      return null;
    }
    const { address, ...fields } = decoded;
    const event: Record<string, unknown> = { ...fields, emitter: address };
    for (const [name, type] of Object.entries(V2_EVENT_SCHEMA[decoded.kind]))
      if (type === 'condition') event[name] = v2IdWord(event[name] as string);
    return event as unknown as ChainEvent;
  };
  const exchangeOf = (address: string): ExchangeCode => exchangeCodes.get(address)!;

  // topic0 -> the routes sharing it, each for one role ('*': any address).
  const routes = createHexIndex<Route[]>(64);
  const route = (role: Role | '*', kind: Kind, topics: number, decode: Decoder) => {
    const topic0 = Buffer.from(EVENT_TOPICS[kind], 'latin1');
    const list = routes.get(topic0, 2) ?? [];
    list.push({ role, kind, topics, decode });
    routes.set(EVENT_TOPICS[kind], list);
  };

  route('ctf', KIND.conditionPreparation, 4, (log, _address, tx) => ({
    kind: KIND.conditionPreparation,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    conditionId: topicHex(log, 1),
    oracle: topicAddress(log, 2),
    questionId: topicHex(log, 3),
    outcomeSlotCount: readUint(log, 0),
  }));
  route('ctf', KIND.conditionResolution, 4, (log, _address, tx) => ({
    kind: KIND.conditionResolution,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    conditionId: topicHex(log, 1),
    oracle: topicAddress(log, 2),
    questionId: topicHex(log, 3),
    outcomeSlotCount: readUint(log, 0),
    payoutNumerators: readUintArray(log, 1),
  }));
  // Splits and merges share one layout (per contract), so one decoder each.
  const ctfSplitOrMerge =
    (kind: typeof KIND.ctfSplit | typeof KIND.ctfMerge): Decoder =>
    (log, _address, tx) => ({
      kind,
      logIndex: log.logIndex,
      txIndex: log.txIndex,
      tx,
      stakeholder: topicAddress(log, 1),
      collateral: readAddress(log, 0),
      parentCollectionId: topicHex(log, 2),
      conditionId: topicHex(log, 3),
      partition: readUintArray(log, 1),
      amount: readUint(log, 2),
    });
  route('ctf', KIND.ctfSplit, 4, ctfSplitOrMerge(KIND.ctfSplit));
  route('ctf', KIND.ctfMerge, 4, ctfSplitOrMerge(KIND.ctfMerge));
  route('ctf', KIND.ctfRedemption, 4, (log, _address, tx) => ({
    kind: KIND.ctfRedemption,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    redeemer: topicAddress(log, 1),
    collateral: topicAddress(log, 2),
    parentCollectionId: topicHex(log, 3),
    conditionId: readBytes32(log, 0),
    indexSets: readUintArray(log, 1),
    payout: readUint(log, 2),
  }));
  route('ctf', KIND.transferSingle, 4, (log, _address, tx) => ({
    kind: KIND.transferSingle,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    operator: topicAddress(log, 1),
    from: topicAddress(log, 2),
    to: topicAddress(log, 3),
    tokenId: readWordHex(log, 0),
    value: readUint(log, 1),
  }));
  route('ctf', KIND.transferBatch, 4, (log, _address, tx) => ({
    kind: KIND.transferBatch,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    operator: topicAddress(log, 1),
    from: topicAddress(log, 2),
    to: topicAddress(log, 3),
    tokenIds: readWordHexArray(log, 0),
    values: readUintArray(log, 1),
  }));
  route('exchangeV1', KIND.orderFilledV1, 4, (log, address, tx) => ({
    kind: KIND.orderFilledV1,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    exchange: exchangeOf(address),
    orderHash: topicHex(log, 1),
    maker: topicAddress(log, 2),
    taker: topicAddress(log, 3),
    makerAssetId: readWordHex(log, 0),
    takerAssetId: readWordHex(log, 1),
    makerAmount: readUint(log, 2),
    takerAmount: readUint(log, 3),
    fee: readUint(log, 4),
  }));
  route('exchangeV1', KIND.ordersMatchedV1, 3, (log, address, tx) => ({
    kind: KIND.ordersMatchedV1,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    exchange: exchangeOf(address),
    takerOrderHash: topicHex(log, 1),
    takerOrderMaker: topicAddress(log, 2),
    makerAssetId: readWordHex(log, 0),
    takerAssetId: readWordHex(log, 1),
    makerAmount: readUint(log, 2),
    takerAmount: readUint(log, 3),
  }));
  route('exchangeV1', KIND.tokenRegistered, 4, (log, address, tx) => ({
    kind: KIND.tokenRegistered,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    exchange: exchangeOf(address),
    token0: topicWordHex(log, 1),
    token1: topicWordHex(log, 2),
    conditionId: topicHex(log, 3),
  }));
  route('exchangeV1', KIND.feeChargedV1, 2, (log, address, tx) => ({
    kind: KIND.feeChargedV1,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    exchange: exchangeOf(address),
    receiver: topicAddress(log, 1),
    tokenId: readWordHex(log, 0),
    amount: readUint(log, 1),
  }));
  route('exchangeV2', KIND.orderFilledV2, 4, (log, address, tx) => ({
    kind: KIND.orderFilledV2,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    exchange: exchangeOf(address),
    orderHash: topicHex(log, 1),
    maker: topicAddress(log, 2),
    taker: topicAddress(log, 3),
    side: readUint(log, 0),
    tokenId: readWordHex(log, 1),
    makerAmount: readUint(log, 2),
    takerAmount: readUint(log, 3),
    fee: readUint(log, 4),
    builder: readBytes32(log, 5),
    metadata: readBytes32(log, 6),
  }));
  route('exchangeV2', KIND.ordersMatchedV2, 3, (log, address, tx) => ({
    kind: KIND.ordersMatchedV2,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    exchange: exchangeOf(address),
    takerOrderHash: topicHex(log, 1),
    takerOrderMaker: topicAddress(log, 2),
    side: readUint(log, 0),
    tokenId: readWordHex(log, 1),
    makerAmount: readUint(log, 2),
    takerAmount: readUint(log, 3),
  }));
  route('exchangeV2', KIND.feeChargedV2, 2, (log, address, tx) => ({
    kind: KIND.feeChargedV2,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    exchange: exchangeOf(address),
    receiver: topicAddress(log, 1),
    amount: readUint(log, 0),
  }));
  route('feeModule', KIND.feeRefunded, 4, (log, address, tx) => ({
    kind: KIND.feeRefunded,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    module: address,
    orderHash: topicHex(log, 1),
    to: topicAddress(log, 2),
    tokenId: readWordHex(log, 0),
    refund: readUint(log, 1),
    feeCharged: topicUint(log, 3),
  }));
  route('adapter', KIND.marketPrepared, 3, (log, _address, tx) => ({
    kind: KIND.marketPrepared,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    marketId: topicHex(log, 1),
    oracle: topicAddress(log, 2),
    feeBips: readUint(log, 0),
    data: readBytes(log, 1),
  }));
  route('adapter', KIND.questionPrepared, 3, (log, _address, tx) => ({
    kind: KIND.questionPrepared,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    marketId: topicHex(log, 1),
    questionId: topicHex(log, 2),
    index: readUint(log, 0),
    data: readBytes(log, 1),
  }));
  route('adapter', KIND.outcomeReported, 3, (log, _address, tx) => ({
    kind: KIND.outcomeReported,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    marketId: topicHex(log, 1),
    questionId: topicHex(log, 2),
    outcome: readUint(log, 0) !== 0,
  }));
  const adapterSplitOrMerge =
    (kind: typeof KIND.adapterSplit | typeof KIND.adapterMerge): Decoder =>
    (log, _address, tx) => ({
      kind,
      logIndex: log.logIndex,
      txIndex: log.txIndex,
      tx,
      stakeholder: topicAddress(log, 1),
      conditionId: topicHex(log, 2),
      amount: readUint(log, 0),
    });
  route('adapter', KIND.adapterSplit, 3, adapterSplitOrMerge(KIND.adapterSplit));
  route('adapter', KIND.adapterMerge, 3, adapterSplitOrMerge(KIND.adapterMerge));
  route('adapter', KIND.positionsConverted, 4, (log, _address, tx) => ({
    kind: KIND.positionsConverted,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    stakeholder: topicAddress(log, 1),
    marketId: topicHex(log, 2),
    indexSet: topicWordHex(log, 3),
    amount: readUint(log, 0),
  }));
  route('adapter', KIND.adapterRedemption, 3, (log, _address, tx) => ({
    kind: KIND.adapterRedemption,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    redeemer: topicAddress(log, 1),
    conditionId: topicHex(log, 2),
    amounts: readUintArray(log, 0),
    payout: readUint(log, 1),
  }));
  route('fpmmFactory', KIND.fpmmCreation, 4, (log, _address, tx) => ({
    kind: KIND.fpmmCreation,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    creator: topicAddress(log, 1),
    pool: readAddress(log, 0),
    conditionalTokens: topicAddress(log, 2),
    collateral: topicAddress(log, 3),
    conditionIds: readBytes32Array(log, 1),
    fee: readWordHex(log, 2),
  }));
  // Pools are created at run time, so their events are decoded from any address; the fold keeps only the
  // ones of pools the factory created.
  route('*', KIND.fpmmBuy, 3, (log, address, tx) => ({
    kind: KIND.fpmmBuy,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    pool: address,
    buyer: topicAddress(log, 1),
    investmentAmount: readUint(log, 0),
    feeAmount: readUint(log, 1),
    outcomeIndex: topicUint(log, 2),
    outcomeTokensBought: readUint(log, 2),
  }));
  route('*', KIND.fpmmSell, 3, (log, address, tx) => ({
    kind: KIND.fpmmSell,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    pool: address,
    seller: topicAddress(log, 1),
    returnAmount: readUint(log, 0),
    feeAmount: readUint(log, 1),
    outcomeIndex: topicUint(log, 2),
    outcomeTokensSold: readUint(log, 2),
  }));
  route('*', KIND.fpmmFundingAdded, 2, (log, address, tx) => ({
    kind: KIND.fpmmFundingAdded,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    pool: address,
    funder: topicAddress(log, 1),
    amountsAdded: readUintArray(log, 0),
    sharesMinted: readUint(log, 1),
  }));
  route('*', KIND.fpmmFundingRemoved, 2, (log, address, tx) => ({
    kind: KIND.fpmmFundingRemoved,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    pool: address,
    funder: topicAddress(log, 1),
    amountsRemoved: readUintArray(log, 0),
    collateralRemovedFromFeePool: readUint(log, 1),
    sharesBurnt: readUint(log, 2),
  }));
  // Prices are int192 with 18 decimals: kept exact, as their words. requestId is a bytes29, left-aligned.
  route('reporter', KIND.requestReported, 3, (log, _address, tx) => ({
    kind: KIND.requestReported,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    requestId: topicHex(log, 1).slice(0, 60),
    questionId: topicHex(log, 2),
    startPrice: readWordHex(log, 0),
    endPrice: readWordHex(log, 1),
    payout: readUint(log, 2),
  }));
  route('feed', KIND.answerUpdated, 3, (log, address, tx) => ({
    kind: KIND.answerUpdated,
    logIndex: log.logIndex,
    txIndex: log.txIndex,
    tx,
    feed: address,
    current: readIntTopic(log, 1),
    roundId: topicWordHex(log, 2),
    updatedAt: readUint(log, 0),
  }));

  // Operators fixed by the config (marked `plumbing` above); AMM pools, created at run time, are recognized later
  // by the fold. topic1 is the operator, stakeholder or redeemer of these kinds.
  const actorTopicKinds = new Set<Kind>([
    KIND.transferSingle,
    KIND.transferBatch,
    KIND.ctfSplit,
    KIND.ctfMerge,
    KIND.ctfRedemption,
    KIND.adapterSplit,
    KIND.adapterMerge,
  ]);
  const byPlumbing = (log: RawLog): boolean => {
    const at = log.topicAt[1]!;
    for (let i = at; i < at + 24; i++) if (log.bytes[i] !== ZERO_DIGIT) return false;
    return contracts.get(log.bytes, at + 24)?.plumbing === true;
  };
  // Consecutive logs mostly share a transaction: its hash string is made once.
  let lastTx = '';
  const txOf = (log: RawLog): string => {
    const bytes = log.bytes;
    const at = log.txAt;
    if (lastTx !== '') {
      let same = true;
      for (let i = 0; i < 64; i++)
        if (bytes[at + i] !== lastTx.charCodeAt(2 + i)) {
          same = false;
          break;
        }
      if (same) return lastTx;
    }
    return (lastTx = hexField(log, at, 64));
  };

  const skipped: SkipCounts = { plumbing: 0, otherContract: 0, otherEvent: 0, malformed: 0, oversized: 0 };
  return {
    skipped,
    v2UnknownTopics: v2.unknownTopics,
    decode(log) {
      if (log.topicCount === 0) {
        skipped.otherEvent++;
        return null;
      }
      const known = contracts.get(log.bytes, log.addressAt);
      const role = known?.role;
      if (role === 'v2') return decodeV2(log);
      const candidates = routes.get(log.bytes, log.topicAt[0]!);
      let entry: Route | undefined;
      if (candidates !== undefined) {
        for (const candidate of candidates) {
          if (candidate.role === role || (candidate.role === '*' && entry === undefined)) entry = candidate;
        }
      }
      if (entry === undefined) {
        if (role === undefined) skipped.otherContract++;
        else skipped.otherEvent++;
        return null;
      }
      if (log.topicCount !== entry.topics) {
        skipped.malformed++;
        return null;
      }
      if (actorTopicKinds.has(entry.kind) && byPlumbing(log)) {
        skipped.plumbing++;
        return null;
      }
      try {
        return entry.decode(log, known ? known.address : hexField(log, log.addressAt, 40), txOf(log));
      } catch (error) {
        if (error instanceof OversizedValueError) skipped.oversized++;
        else if (error instanceof ShortDataError) skipped.malformed++;
        else throw error;
        return null;
      }
    },
  };
}
