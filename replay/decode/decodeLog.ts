// Decodes raw chain logs of the venue's contracts into ChainEvents by fixed ABI offsets (viem's generic
// decodeEventLog is ~10x slower; test/decode proves these equal to viem's decoding). A log is routed by its
// topic0 and the contract that emitted it, since several contracts share event names. Anything else is
// skipped and counted, never an error: a capture may hold logs of other contracts. Input strings are lowercase
// (both sources guarantee it), so nothing is lower-cased here.
import { EXCHANGE, KIND, type ChainEvent, type ExchangeCode, type Kind } from '../../engine/chain/chainEvent.js';
import type { VenueAddresses } from '../../engine/chain/venueAddresses.js';
import {
  OversizedValueError, ShortDataError, readAddress, readBytes, readBytes32, readBytes32Array, readIntTopic, readUint,
  readUintArray, readWordHex, readWordHexArray, topicAddress, topicUint, topicWordHex,
} from './abiWords.js';
import { EVENT_TOPICS } from './eventAbis.js';
import type { RawLog } from './rawLog.js';

export interface SkipCounts {
  /**
   * The venue's own contracts moving tokens for a trade or an adapter call (transfers they operate, CTF splits,
   * merges and redemptions they make): never a wallet's action (DESIGN.md section 2), so not worth a log record.
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

type Role = 'ctf' | 'exchangeV1' | 'exchangeV2' | 'feeModule' | 'adapter' | 'fpmmFactory' | 'feed';
type Decoder = (log: RawLog, address: string) => ChainEvent;

interface Route {
  role: Role | '*';
  kind: Kind;
  topics: number;
  decode: Decoder;
}

export interface LogDecoder {
  decode(log: RawLog): ChainEvent | null;
  readonly skipped: SkipCounts;
}

export function createLogDecoder(addresses: VenueAddresses): LogDecoder {
  const roles = new Map<string, Role>([
    [addresses.ctf, 'ctf'],
    [addresses.ctfExchange, 'exchangeV1'],
    [addresses.negRiskExchange, 'exchangeV1'],
    [addresses.ctfExchangeV2, 'exchangeV2'],
    [addresses.negRiskExchangeV2, 'exchangeV2'],
    [addresses.feeModule, 'feeModule'],
    [addresses.negRiskFeeModule, 'feeModule'],
    [addresses.negRiskFeeModuleLegacy, 'feeModule'],
    [addresses.negRiskAdapter, 'adapter'],
    [addresses.fpmmFactory, 'fpmmFactory'],
    ...Object.keys(addresses.priceFeeds).map((feed): [string, Role] => [feed.toLowerCase(), 'feed']),
  ]);
  const exchangeCodes = new Map<string, ExchangeCode>([
    [addresses.ctfExchange, EXCHANGE.ctf],
    [addresses.negRiskExchange, EXCHANGE.negRisk],
    [addresses.ctfExchangeV2, EXCHANGE.ctfV2],
    [addresses.negRiskExchangeV2, EXCHANGE.negRiskV2],
  ]);
  const exchangeOf = (address: string): ExchangeCode => exchangeCodes.get(address)!;

  // topic0 -> the routes sharing it, each for one role ('*': any address).
  const routes = new Map<string, Route[]>();
  const route = (role: Role | '*', kind: Kind, topics: number, decode: Decoder) => {
    const list = routes.get(EVENT_TOPICS[kind]) ?? [];
    list.push({ role, kind, topics, decode });
    routes.set(EVENT_TOPICS[kind], list);
  };

  route('ctf', KIND.conditionPreparation, 4, (log) => ({
    kind: KIND.conditionPreparation, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    conditionId: log.topics[1]!, oracle: topicAddress(log.topics[2]!), questionId: log.topics[3]!,
    outcomeSlotCount: readUint(log, 0),
  }));
  route('ctf', KIND.conditionResolution, 4, (log) => ({
    kind: KIND.conditionResolution, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    conditionId: log.topics[1]!, oracle: topicAddress(log.topics[2]!), questionId: log.topics[3]!,
    outcomeSlotCount: readUint(log, 0), payoutNumerators: readUintArray(log, 1),
  }));
  route('ctf', KIND.ctfSplit, 4, (log) => ({
    kind: KIND.ctfSplit, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    stakeholder: topicAddress(log.topics[1]!), collateral: readAddress(log, 0), parentCollectionId: log.topics[2]!,
    conditionId: log.topics[3]!, partition: readUintArray(log, 1), amount: readUint(log, 2),
  }));
  route('ctf', KIND.ctfMerge, 4, (log) => ({
    kind: KIND.ctfMerge, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    stakeholder: topicAddress(log.topics[1]!), collateral: readAddress(log, 0), parentCollectionId: log.topics[2]!,
    conditionId: log.topics[3]!, partition: readUintArray(log, 1), amount: readUint(log, 2),
  }));
  route('ctf', KIND.ctfRedemption, 4, (log) => ({
    kind: KIND.ctfRedemption, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    redeemer: topicAddress(log.topics[1]!), collateral: topicAddress(log.topics[2]!), parentCollectionId: log.topics[3]!,
    conditionId: readBytes32(log, 0), indexSets: readUintArray(log, 1), payout: readUint(log, 2),
  }));
  route('ctf', KIND.transferSingle, 4, (log) => ({
    kind: KIND.transferSingle, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    operator: topicAddress(log.topics[1]!), from: topicAddress(log.topics[2]!), to: topicAddress(log.topics[3]!),
    tokenId: readWordHex(log, 0), value: readUint(log, 1),
  }));
  route('ctf', KIND.transferBatch, 4, (log) => ({
    kind: KIND.transferBatch, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    operator: topicAddress(log.topics[1]!), from: topicAddress(log.topics[2]!), to: topicAddress(log.topics[3]!),
    tokenIds: readWordHexArray(log, 0), values: readUintArray(log, 1),
  }));
  route('exchangeV1', KIND.orderFilledV1, 4, (log, address) => ({
    kind: KIND.orderFilledV1, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, exchange: exchangeOf(address),
    orderHash: log.topics[1]!, maker: topicAddress(log.topics[2]!), taker: topicAddress(log.topics[3]!),
    makerAssetId: readWordHex(log, 0), takerAssetId: readWordHex(log, 1),
    makerAmount: readUint(log, 2), takerAmount: readUint(log, 3), fee: readUint(log, 4),
  }));
  route('exchangeV1', KIND.ordersMatchedV1, 3, (log, address) => ({
    kind: KIND.ordersMatchedV1, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, exchange: exchangeOf(address),
    takerOrderHash: log.topics[1]!, takerOrderMaker: topicAddress(log.topics[2]!),
    makerAssetId: readWordHex(log, 0), takerAssetId: readWordHex(log, 1),
    makerAmount: readUint(log, 2), takerAmount: readUint(log, 3),
  }));
  route('exchangeV1', KIND.tokenRegistered, 4, (log, address) => ({
    kind: KIND.tokenRegistered, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, exchange: exchangeOf(address),
    token0: topicWordHex(log.topics[1]!), token1: topicWordHex(log.topics[2]!), conditionId: log.topics[3]!,
  }));
  route('exchangeV1', KIND.feeChargedV1, 2, (log, address) => ({
    kind: KIND.feeChargedV1, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, exchange: exchangeOf(address),
    receiver: topicAddress(log.topics[1]!), tokenId: readWordHex(log, 0), amount: readUint(log, 1),
  }));
  route('exchangeV2', KIND.orderFilledV2, 4, (log, address) => ({
    kind: KIND.orderFilledV2, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, exchange: exchangeOf(address),
    orderHash: log.topics[1]!, maker: topicAddress(log.topics[2]!), taker: topicAddress(log.topics[3]!),
    side: readUint(log, 0), tokenId: readWordHex(log, 1), makerAmount: readUint(log, 2),
    takerAmount: readUint(log, 3), fee: readUint(log, 4), builder: readBytes32(log, 5), metadata: readBytes32(log, 6),
  }));
  route('exchangeV2', KIND.ordersMatchedV2, 3, (log, address) => ({
    kind: KIND.ordersMatchedV2, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, exchange: exchangeOf(address),
    takerOrderHash: log.topics[1]!, takerOrderMaker: topicAddress(log.topics[2]!),
    side: readUint(log, 0), tokenId: readWordHex(log, 1), makerAmount: readUint(log, 2), takerAmount: readUint(log, 3),
  }));
  route('exchangeV2', KIND.feeChargedV2, 2, (log, address) => ({
    kind: KIND.feeChargedV2, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, exchange: exchangeOf(address),
    receiver: topicAddress(log.topics[1]!), amount: readUint(log, 0),
  }));
  route('feeModule', KIND.feeRefunded, 4, (log, address) => ({
    kind: KIND.feeRefunded, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, module: address,
    orderHash: log.topics[1]!, to: topicAddress(log.topics[2]!), tokenId: readWordHex(log, 0),
    refund: readUint(log, 1), feeCharged: topicUint(log.topics[3]!),
  }));
  route('adapter', KIND.marketPrepared, 3, (log) => ({
    kind: KIND.marketPrepared, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    marketId: log.topics[1]!, oracle: topicAddress(log.topics[2]!), feeBips: readUint(log, 0), data: readBytes(log, 1),
  }));
  route('adapter', KIND.questionPrepared, 3, (log) => ({
    kind: KIND.questionPrepared, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    marketId: log.topics[1]!, questionId: log.topics[2]!, index: readUint(log, 0), data: readBytes(log, 1),
  }));
  route('adapter', KIND.outcomeReported, 3, (log) => ({
    kind: KIND.outcomeReported, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    marketId: log.topics[1]!, questionId: log.topics[2]!, outcome: readUint(log, 0) !== 0,
  }));
  route('adapter', KIND.adapterSplit, 3, (log) => ({
    kind: KIND.adapterSplit, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    stakeholder: topicAddress(log.topics[1]!), conditionId: log.topics[2]!, amount: readUint(log, 0),
  }));
  route('adapter', KIND.adapterMerge, 3, (log) => ({
    kind: KIND.adapterMerge, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    stakeholder: topicAddress(log.topics[1]!), conditionId: log.topics[2]!, amount: readUint(log, 0),
  }));
  route('adapter', KIND.positionsConverted, 4, (log) => ({
    kind: KIND.positionsConverted, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    stakeholder: topicAddress(log.topics[1]!), marketId: log.topics[2]!, indexSet: topicWordHex(log.topics[3]!),
    amount: readUint(log, 0),
  }));
  route('adapter', KIND.adapterRedemption, 3, (log) => ({
    kind: KIND.adapterRedemption, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    redeemer: topicAddress(log.topics[1]!), conditionId: log.topics[2]!, amounts: readUintArray(log, 0),
    payout: readUint(log, 1),
  }));
  route('fpmmFactory', KIND.fpmmCreation, 4, (log) => ({
    kind: KIND.fpmmCreation, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx,
    creator: topicAddress(log.topics[1]!), pool: readAddress(log, 0), conditionalTokens: topicAddress(log.topics[2]!),
    collateral: topicAddress(log.topics[3]!), conditionIds: readBytes32Array(log, 1), fee: readWordHex(log, 2),
  }));
  // Pools are created at run time, so their events are decoded from any address; the fold keeps only the
  // ones of pools the factory created.
  route('*', KIND.fpmmBuy, 3, (log, address) => ({
    kind: KIND.fpmmBuy, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, pool: address,
    buyer: topicAddress(log.topics[1]!), investmentAmount: readUint(log, 0), feeAmount: readUint(log, 1),
    outcomeIndex: topicUint(log.topics[2]!), outcomeTokensBought: readUint(log, 2),
  }));
  route('*', KIND.fpmmSell, 3, (log, address) => ({
    kind: KIND.fpmmSell, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, pool: address,
    seller: topicAddress(log.topics[1]!), returnAmount: readUint(log, 0), feeAmount: readUint(log, 1),
    outcomeIndex: topicUint(log.topics[2]!), outcomeTokensSold: readUint(log, 2),
  }));
  route('*', KIND.fpmmFundingAdded, 2, (log, address) => ({
    kind: KIND.fpmmFundingAdded, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, pool: address,
    funder: topicAddress(log.topics[1]!), amountsAdded: readUintArray(log, 0), sharesMinted: readUint(log, 1),
  }));
  route('*', KIND.fpmmFundingRemoved, 2, (log, address) => ({
    kind: KIND.fpmmFundingRemoved, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, pool: address,
    funder: topicAddress(log.topics[1]!), amountsRemoved: readUintArray(log, 0),
    collateralRemovedFromFeePool: readUint(log, 1), sharesBurnt: readUint(log, 2),
  }));
  route('feed', KIND.answerUpdated, 3, (log, address) => ({
    kind: KIND.answerUpdated, logIndex: log.logIndex, txIndex: log.txIndex, tx: log.tx, feed: address,
    current: readIntTopic(log.topics[1]!), roundId: topicWordHex(log.topics[2]!), updatedAt: readUint(log, 0),
  }));

  // Contracts fixed by the config; AMM pools, created at run time, are recognized later by the fold.
  const plumbingActors = new Set<string>([
    addresses.ctfExchange, addresses.negRiskExchange, addresses.ctfExchangeV2, addresses.negRiskExchangeV2,
    addresses.negRiskAdapter, addresses.feeModule, addresses.negRiskFeeModule, addresses.negRiskFeeModuleLegacy,
  ].map((address) => '0x' + '0'.repeat(24) + address.slice(2)));
  const actorTopicKinds = new Set<Kind>([KIND.transferSingle, KIND.transferBatch, KIND.ctfSplit, KIND.ctfMerge, KIND.ctfRedemption, KIND.adapterSplit, KIND.adapterMerge]);

  const skipped: SkipCounts = { plumbing: 0, otherContract: 0, otherEvent: 0, malformed: 0, oversized: 0 };
  return {
    skipped,
    decode(log) {
      const topic0 = log.topics[0];
      if (topic0 === undefined) {
        skipped.otherEvent++;
        return null;
      }
      const address = log.address;
      const role = roles.get(address);
      const candidates = routes.get(topic0);
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
      if (log.topics.length !== entry.topics) {
        skipped.malformed++;
        return null;
      }
      // topic1 is the operator, stakeholder or redeemer of these kinds.
      if (actorTopicKinds.has(entry.kind) && plumbingActors.has(log.topics[1]!)) {
        skipped.plumbing++;
        return null;
      }
      try {
        return entry.decode(log, address);
      } catch (error) {
        if (error instanceof OversizedValueError) skipped.oversized++;
        else if (error instanceof ShortDataError) skipped.malformed++;
        else throw error;
        return null;
      }
    },
  };
}
