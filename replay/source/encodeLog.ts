// ABI encoding of the venue's events, as the contracts emit them (docs/venue.md 2): indexed parameters in
// topics, the rest ABI-encoded in data (heads, then the tails of dynamic uint256[] / bytes32[] / bytes).
// Hand-built hex padding: this is the demo generator's hot path (viem's encodeEventTopics is ~30k logs/s).
// Inputs follow ChainEvent's conventions: addresses and bytes32 lowercase '0x' + hex, uint256 ids (token ids,
// indexSet, roundId, FPMM fee) as 64 hex digits without 0x, amounts as safe integers.
// formatCaptureLine renders one log as a capture line (replay/README.md, Inputs): an eth_getLogs object, numbers as
// lowercase 0x hex, keys in the node's order.
import { KIND, type ChainEvent } from '../../engine/chain/chainEvent.js';
import { EVENT_TOPICS } from '../decode/eventAbis.js';
import { encodeV2Log } from './encodeV2Log.js';
import type { EncodedLog, LogPosition } from './encodedLog.js';

const ZEROS = '0'.repeat(64);
const ADDRESS_PAD = '0'.repeat(24);
const TWO_256 = 1n << 256n;
const HEX_ID = /^[0-9a-f]{1,64}$/;

/** A non-negative safe integer as one 32-byte word (64 hex digits). */
function uintWord(value: number): string {
  if (!(value >= 0 && Number.isSafeInteger(value)))
    throw new RangeError(`uint word needs a safe integer >= 0, got ${value}`);
  const hex = value.toString(16);
  return ZEROS.slice(hex.length) + hex;
}

/** int256 as a two's complement word. */
function intWord(value: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`int word needs a safe integer, got ${value}`);
  if (value >= 0) return uintWord(value);
  return (TWO_256 + BigInt(value)).toString(16);
}

/** A uint256 kept as hex digits without 0x (token ids and other ids): left-padded to one word. */
function idWord(hex: string): string {
  if (hex.length === 64) return hex;
  if (!HEX_ID.test(hex))
    throw new RangeError(`uint256 id must be up to 64 lowercase hex digits without 0x, got "${hex}"`);
  return ZEROS.slice(hex.length) + hex;
}

/** An address ('0x' + 40 hex) as a word. */
function addressWord(address: string): string {
  return ADDRESS_PAD + address.slice(2);
}

/** A bytes32 ('0x' + 64 hex) as a word. */
function bytes32Word(value: string): string {
  return value.slice(2);
}

function uintArrayTail(values: readonly number[]): string {
  let out = uintWord(values.length);
  for (let i = 0; i < values.length; i++) out += uintWord(values[i]!);
  return out;
}

function idArrayTail(values: readonly string[]): string {
  let out = uintWord(values.length);
  for (let i = 0; i < values.length; i++) out += idWord(values[i]!);
  return out;
}

function bytes32ArrayTail(values: readonly string[]): string {
  let out = uintWord(values.length);
  for (let i = 0; i < values.length; i++) out += bytes32Word(values[i]!);
  return out;
}

/** `bytes` ('0x' + even hex): its length word, then the bytes right-padded to whole words. */
function bytesTail(value: string): string {
  const body = value.slice(2);
  const padded = body.length % 64 === 0 ? body : body + ZEROS.slice(body.length % 64);
  return uintWord(body.length / 2) + padded;
}

/** Byte offset of a tail that starts after `words` head words plus `tailWords` earlier tail words. */
function offsetWord(words: number): string {
  return uintWord(words * 32);
}

const T = EVENT_TOPICS;

// Address topics recur (the same wallets and contracts over and over): caching them flat saves building and
// later flattening a three-piece string per topic. Bounded: cleared when full, like tokenId's decimal cache.
const TOPIC_CACHE_LIMIT = 500_000;
const addressTopics = new Map<string, string>();
function topicAddress(address: string): string {
  let topic = addressTopics.get(address);
  if (topic === undefined) {
    topic = ['0x', ADDRESS_PAD, address.slice(2)].join('');
    if (addressTopics.size >= TOPIC_CACHE_LIMIT) addressTopics.clear();
    addressTopics.set(address, topic);
  }
  return topic;
}
const topicUint = (value: number) => '0x' + uintWord(value);
const topicId = (hex: string) => '0x' + idWord(hex);

/**
 * The topics and data the contract at `address` emits for `event`. `address` does not change the encoding
 * (the event's own fields say everything); it is taken so callers and tests state which contract emitted it.
 */
export function encodeLog(event: ChainEvent, address: string): EncodedLog {
  switch (event.kind) {
    case KIND.conditionPreparation:
      return {
        topics: [T[1], event.conditionId, topicAddress(event.oracle), event.questionId],
        data: '0x' + uintWord(event.outcomeSlotCount),
      };
    case KIND.conditionResolution:
      return {
        topics: [T[2], event.conditionId, topicAddress(event.oracle), event.questionId],
        data: '0x' + uintWord(event.outcomeSlotCount) + offsetWord(2) + uintArrayTail(event.payoutNumerators),
      };
    case KIND.ctfSplit:
    case KIND.ctfMerge:
      return {
        topics: [T[event.kind], topicAddress(event.stakeholder), event.parentCollectionId, event.conditionId],
        data:
          '0x' +
          addressWord(event.collateral) +
          offsetWord(3) +
          uintWord(event.amount) +
          uintArrayTail(event.partition),
      };
    case KIND.ctfRedemption:
      return {
        topics: [T[5], topicAddress(event.redeemer), topicAddress(event.collateral), event.parentCollectionId],
        data:
          '0x' +
          bytes32Word(event.conditionId) +
          offsetWord(3) +
          uintWord(event.payout) +
          uintArrayTail(event.indexSets),
      };
    case KIND.transferSingle:
      return {
        topics: [T[6], topicAddress(event.operator), topicAddress(event.from), topicAddress(event.to)],
        data: '0x' + idWord(event.tokenId) + uintWord(event.value),
      };
    case KIND.transferBatch:
      return {
        topics: [T[7], topicAddress(event.operator), topicAddress(event.from), topicAddress(event.to)],
        data:
          '0x' +
          offsetWord(2) +
          offsetWord(3 + event.tokenIds.length) +
          idArrayTail(event.tokenIds) +
          uintArrayTail(event.values),
      };
    case KIND.orderFilledV1:
      return {
        topics: [T[8], event.orderHash, topicAddress(event.maker), topicAddress(event.taker)],
        data:
          '0x' +
          idWord(event.makerAssetId) +
          idWord(event.takerAssetId) +
          uintWord(event.makerAmount) +
          uintWord(event.takerAmount) +
          uintWord(event.fee),
      };
    case KIND.ordersMatchedV1:
      return {
        topics: [T[9], event.takerOrderHash, topicAddress(event.takerOrderMaker)],
        data:
          '0x' +
          idWord(event.makerAssetId) +
          idWord(event.takerAssetId) +
          uintWord(event.makerAmount) +
          uintWord(event.takerAmount),
      };
    case KIND.tokenRegistered:
      return { topics: [T[10], topicId(event.token0), topicId(event.token1), event.conditionId], data: '0x' };
    case KIND.feeChargedV1:
      return {
        topics: [T[11], topicAddress(event.receiver)],
        data: '0x' + idWord(event.tokenId) + uintWord(event.amount),
      };
    case KIND.orderFilledV2:
      return {
        topics: [T[12], event.orderHash, topicAddress(event.maker), topicAddress(event.taker)],
        data:
          '0x' +
          uintWord(event.side) +
          idWord(event.tokenId) +
          uintWord(event.makerAmount) +
          uintWord(event.takerAmount) +
          uintWord(event.fee) +
          bytes32Word(event.builder) +
          bytes32Word(event.metadata),
      };
    case KIND.ordersMatchedV2:
      return {
        topics: [T[13], event.takerOrderHash, topicAddress(event.takerOrderMaker)],
        data:
          '0x' +
          uintWord(event.side) +
          idWord(event.tokenId) +
          uintWord(event.makerAmount) +
          uintWord(event.takerAmount),
      };
    case KIND.feeChargedV2:
      return { topics: [T[14], topicAddress(event.receiver)], data: '0x' + uintWord(event.amount) };
    case KIND.feeRefunded:
      return {
        topics: [T[15], event.orderHash, topicAddress(event.to), topicUint(event.feeCharged)],
        data: '0x' + idWord(event.tokenId) + uintWord(event.refund),
      };
    case KIND.marketPrepared:
      return {
        topics: [T[16], event.marketId, topicAddress(event.oracle)],
        data: '0x' + uintWord(event.feeBips) + offsetWord(2) + bytesTail(event.data),
      };
    case KIND.questionPrepared:
      return {
        topics: [T[17], event.marketId, event.questionId],
        data: '0x' + uintWord(event.index) + offsetWord(2) + bytesTail(event.data),
      };
    case KIND.outcomeReported:
      return { topics: [T[18], event.marketId, event.questionId], data: '0x' + uintWord(event.outcome ? 1 : 0) };
    case KIND.adapterSplit:
    case KIND.adapterMerge:
      return {
        topics: [T[event.kind], topicAddress(event.stakeholder), event.conditionId],
        data: '0x' + uintWord(event.amount),
      };
    case KIND.positionsConverted:
      return {
        topics: [T[21], topicAddress(event.stakeholder), event.marketId, topicId(event.indexSet)],
        data: '0x' + uintWord(event.amount),
      };
    case KIND.adapterRedemption:
      return {
        topics: [T[22], topicAddress(event.redeemer), event.conditionId],
        data: '0x' + offsetWord(2) + uintWord(event.payout) + uintArrayTail(event.amounts),
      };
    case KIND.fpmmCreation:
      return {
        topics: [
          T[23],
          topicAddress(event.creator),
          topicAddress(event.conditionalTokens),
          topicAddress(event.collateral),
        ],
        data: '0x' + addressWord(event.pool) + offsetWord(3) + idWord(event.fee) + bytes32ArrayTail(event.conditionIds),
      };
    case KIND.fpmmBuy:
      return {
        topics: [T[24], topicAddress(event.buyer), topicUint(event.outcomeIndex)],
        data: '0x' + uintWord(event.investmentAmount) + uintWord(event.feeAmount) + uintWord(event.outcomeTokensBought),
      };
    case KIND.fpmmSell:
      return {
        topics: [T[25], topicAddress(event.seller), topicUint(event.outcomeIndex)],
        data: '0x' + uintWord(event.returnAmount) + uintWord(event.feeAmount) + uintWord(event.outcomeTokensSold),
      };
    case KIND.fpmmFundingAdded:
      return {
        topics: [T[26], topicAddress(event.funder)],
        data: '0x' + offsetWord(2) + uintWord(event.sharesMinted) + uintArrayTail(event.amountsAdded),
      };
    case KIND.fpmmFundingRemoved:
      return {
        topics: [T[27], topicAddress(event.funder)],
        data:
          '0x' +
          offsetWord(3) +
          uintWord(event.collateralRemovedFromFeePool) +
          uintWord(event.sharesBurnt) +
          uintArrayTail(event.amountsRemoved),
      };
    case KIND.answerUpdated:
      return {
        topics: [T[28], '0x' + intWord(event.current), topicId(event.roundId)],
        data: '0x' + uintWord(event.updatedAt),
      };
    case KIND.requestReported:
      return {
        topics: [T[29], event.requestId.padEnd(66, '0'), event.questionId],
        data: '0x' + event.startPrice + event.endPrice + uintWord(event.payout),
      };
    case KIND.unknownTopic:
      return { topics: [event.topic0], data: '0x' };
    default:
      return encodeV2Log(event);
  }
}

/** A non-negative integer as lowercase 0x hex, as JSON-RPC nodes write quantities. */
export function quantityHex(value: number): string {
  return '0x' + value.toString(16);
}

/**
 * The part of a capture line that depends on the log: from the opening brace through the data's closing quote.
 * Shared by formatCaptureLine and the demo's writer, which caches the per-transaction rest.
 */
export function captureLineHead(address: string, log: EncodedLog): string {
  return '{"address":"' + address + '","topics":["' + log.topics.join('","') + '"],"data":"' + log.data;
}

/** The part of a capture line fixed for a block: from after the data through `"transactionHash":"`. */
export function captureLineBlockPart(blockNumber: number, blockHash: string, blockTs: number): string {
  return (
    '","blockNumber":"' +
    quantityHex(blockNumber) +
    '","blockHash":"' +
    blockHash +
    '","blockTimestamp":"' +
    quantityHex(blockTs) +
    '","transactionHash":"'
  );
}

/** The part fixed for a transaction: the block part, the hash and index, through `"logIndex":"`. Built flat. */
export function captureLineTxPart(blockPart: string, txHash: string, txIndex: number): string {
  return [blockPart, txHash, '","transactionIndex":"0x', txIndex.toString(16), '","logIndex":"'].join('');
}

/** The closing part of a capture line after the log index digits (no newline). */
export const CAPTURE_LINE_END = '","removed":false}';

/** One capture line (no trailing newline): the eth_getLogs object of a log at `at`, emitted by `address`. */
export function formatCaptureLine(address: string, log: EncodedLog, at: LogPosition): string {
  const blockPart = captureLineBlockPart(at.blockNumber, at.blockHash, at.blockTs);
  return (
    captureLineHead(address, log) +
    captureLineTxPart(blockPart, at.txHash, at.txIndex) +
    quantityHex(at.logIndex) +
    CAPTURE_LINE_END
  );
}
