// Decoded chain events: what the log stores, one record per chain log the venue's contracts emitted.
// Addresses and 32-byte ids are lowercase hex; token ids are 64 hex digits without 0x (decimal only at the
// API edge); amounts are micro-units as safe integers (decode refuses larger values, see decodeLog).
import { V2_EVENT_SCHEMA, type V2ChainEvent } from './v2ChainEvent.js';
import { V2_KIND, type V2Kind } from './v2EventAbis.js';

/** Event kind codes. Stable: they are written into the log. */
export const KIND = {
  conditionPreparation: 1,
  conditionResolution: 2,
  ctfSplit: 3,
  ctfMerge: 4,
  ctfRedemption: 5,
  transferSingle: 6,
  transferBatch: 7,
  orderFilledV1: 8,
  ordersMatchedV1: 9,
  tokenRegistered: 10,
  feeChargedV1: 11,
  orderFilledV2: 12,
  ordersMatchedV2: 13,
  feeChargedV2: 14,
  feeRefunded: 15,
  marketPrepared: 16,
  questionPrepared: 17,
  outcomeReported: 18,
  adapterSplit: 19,
  adapterMerge: 20,
  positionsConverted: 21,
  adapterRedemption: 22,
  fpmmCreation: 23,
  fpmmBuy: 24,
  fpmmSell: 25,
  fpmmFundingAdded: 26,
  fpmmFundingRemoved: 27,
  answerUpdated: 28,
  requestReported: 29,
  unknownTopic: 30,
  ...V2_KIND,
} as const;
export type Kind = (typeof KIND)[keyof typeof KIND];
/** The first ledger's kinds (CTF, exchanges, adapters, AMM, feeds), each an ABI event of its own. */
export type V1Kind = Exclude<Kind, V2Kind | typeof KIND.unknownTopic>;

/** Exchange codes, as the fills feed shows them (docs/design.md 2). */
export const EXCHANGE = { ctf: 1, negRisk: 2, ctfV2: 3, negRiskV2: 4, amm: 5, v3: 6 } as const;
export type ExchangeCode = (typeof EXCHANGE)[keyof typeof EXCHANGE];
export const EXCHANGE_LABEL: Record<ExchangeCode, string> = {
  1: 'ctf',
  2: 'neg-risk',
  3: 'ctf-v2',
  4: 'neg-risk-v2',
  5: 'amm',
  6: 'v3',
};

interface Base<K extends Kind> {
  kind: K;
  logIndex: number;
  txIndex: number;
  tx: string;
}

export interface ConditionPreparation extends Base<typeof KIND.conditionPreparation> {
  conditionId: string;
  oracle: string;
  questionId: string;
  outcomeSlotCount: number;
}
export interface ConditionResolution extends Base<typeof KIND.conditionResolution> {
  conditionId: string;
  oracle: string;
  questionId: string;
  outcomeSlotCount: number;
  payoutNumerators: number[];
}
export interface CtfSplit extends Base<typeof KIND.ctfSplit> {
  stakeholder: string;
  collateral: string;
  parentCollectionId: string;
  conditionId: string;
  partition: number[];
  amount: number;
}
export interface CtfMerge extends Base<typeof KIND.ctfMerge> {
  stakeholder: string;
  collateral: string;
  parentCollectionId: string;
  conditionId: string;
  partition: number[];
  amount: number;
}
export interface CtfRedemption extends Base<typeof KIND.ctfRedemption> {
  redeemer: string;
  collateral: string;
  parentCollectionId: string;
  conditionId: string;
  indexSets: number[];
  payout: number;
}
export interface TransferSingle extends Base<typeof KIND.transferSingle> {
  operator: string;
  from: string;
  to: string;
  tokenId: string;
  value: number;
}
export interface TransferBatch extends Base<typeof KIND.transferBatch> {
  operator: string;
  from: string;
  to: string;
  tokenIds: string[];
  values: number[];
}
export interface OrderFilledV1 extends Base<typeof KIND.orderFilledV1> {
  exchange: ExchangeCode;
  orderHash: string;
  maker: string;
  taker: string;
  makerAssetId: string;
  takerAssetId: string;
  makerAmount: number;
  takerAmount: number;
  fee: number;
}
export interface OrdersMatchedV1 extends Base<typeof KIND.ordersMatchedV1> {
  exchange: ExchangeCode;
  takerOrderHash: string;
  takerOrderMaker: string;
  makerAssetId: string;
  takerAssetId: string;
  makerAmount: number;
  takerAmount: number;
}
export interface TokenRegistered extends Base<typeof KIND.tokenRegistered> {
  exchange: ExchangeCode;
  token0: string;
  token1: string;
  conditionId: string;
}
export interface FeeChargedV1 extends Base<typeof KIND.feeChargedV1> {
  exchange: ExchangeCode;
  receiver: string;
  tokenId: string;
  amount: number;
}
export interface OrderFilledV2 extends Base<typeof KIND.orderFilledV2> {
  exchange: ExchangeCode;
  orderHash: string;
  maker: string;
  taker: string;
  side: number;
  tokenId: string;
  makerAmount: number;
  takerAmount: number;
  fee: number;
  builder: string;
  metadata: string;
}
export interface OrdersMatchedV2 extends Base<typeof KIND.ordersMatchedV2> {
  exchange: ExchangeCode;
  takerOrderHash: string;
  takerOrderMaker: string;
  side: number;
  tokenId: string;
  makerAmount: number;
  takerAmount: number;
}
export interface FeeChargedV2 extends Base<typeof KIND.feeChargedV2> {
  exchange: ExchangeCode;
  receiver: string;
  amount: number;
}
export interface FeeRefunded extends Base<typeof KIND.feeRefunded> {
  module: string;
  orderHash: string;
  to: string;
  tokenId: string;
  refund: number;
  feeCharged: number;
}
export interface MarketPrepared extends Base<typeof KIND.marketPrepared> {
  marketId: string;
  oracle: string;
  feeBips: number;
  data: string;
}
export interface QuestionPrepared extends Base<typeof KIND.questionPrepared> {
  marketId: string;
  questionId: string;
  index: number;
  data: string;
}
export interface OutcomeReported extends Base<typeof KIND.outcomeReported> {
  marketId: string;
  questionId: string;
  outcome: boolean;
}
export interface AdapterSplit extends Base<typeof KIND.adapterSplit> {
  stakeholder: string;
  conditionId: string;
  amount: number;
}
export interface AdapterMerge extends Base<typeof KIND.adapterMerge> {
  stakeholder: string;
  conditionId: string;
  amount: number;
}
export interface PositionsConverted extends Base<typeof KIND.positionsConverted> {
  stakeholder: string;
  marketId: string;
  indexSet: string;
  amount: number;
}
export interface AdapterRedemption extends Base<typeof KIND.adapterRedemption> {
  redeemer: string;
  conditionId: string;
  amounts: number[];
  payout: number;
}
export interface FpmmCreation extends Base<typeof KIND.fpmmCreation> {
  creator: string;
  pool: string;
  conditionalTokens: string;
  collateral: string;
  conditionIds: string[];
  fee: string;
}
export interface FpmmBuy extends Base<typeof KIND.fpmmBuy> {
  pool: string;
  buyer: string;
  investmentAmount: number;
  feeAmount: number;
  outcomeIndex: number;
  outcomeTokensBought: number;
}
export interface FpmmSell extends Base<typeof KIND.fpmmSell> {
  pool: string;
  seller: string;
  returnAmount: number;
  feeAmount: number;
  outcomeIndex: number;
  outcomeTokensSold: number;
}
export interface FpmmFundingAdded extends Base<typeof KIND.fpmmFundingAdded> {
  pool: string;
  funder: string;
  amountsAdded: number[];
  sharesMinted: number;
}
export interface FpmmFundingRemoved extends Base<typeof KIND.fpmmFundingRemoved> {
  pool: string;
  funder: string;
  amountsRemoved: number[];
  collateralRemovedFromFeePool: number;
  sharesBurnt: number;
}
/**
 * A log of a Protocol V2 contract whose topic tally does not know (the deployed contracts were upgraded after the
 * source its signatures come from): kept in the log so that it is counted exactly once per log, never dropped.
 */
export interface UnknownTopic extends Base<typeof KIND.unknownTopic> {
  emitter: string;
  topic0: string;
}

/**
 * A Protocol V2 round's report (ChainlinkReporterModule, docs/venue.md 2.9): requestId the bytes29 event id (0x + 58
 * hex); its Data Streams start and end prices (int192, 18 decimals: beyond a safe integer) as their two's
 * complement words (64 hex).
 */
export interface RequestReported extends Base<typeof KIND.requestReported> {
  requestId: string;
  questionId: string;
  startPrice: string;
  endPrice: string;
  payout: number;
}

export interface AnswerUpdated extends Base<typeof KIND.answerUpdated> {
  feed: string;
  current: number;
  roundId: string;
  updatedAt: number;
}

export type ChainEvent =
  | ConditionPreparation
  | ConditionResolution
  | CtfSplit
  | CtfMerge
  | CtfRedemption
  | TransferSingle
  | TransferBatch
  | OrderFilledV1
  | OrdersMatchedV1
  | TokenRegistered
  | FeeChargedV1
  | OrderFilledV2
  | OrdersMatchedV2
  | FeeChargedV2
  | FeeRefunded
  | MarketPrepared
  | QuestionPrepared
  | OutcomeReported
  | AdapterSplit
  | AdapterMerge
  | PositionsConverted
  | AdapterRedemption
  | FpmmCreation
  | FpmmBuy
  | FpmmSell
  | FpmmFundingAdded
  | FpmmFundingRemoved
  | AnswerUpdated
  | RequestReported
  | UnknownTopic
  | V2ChainEvent;

/** One finalized block's events, in log-index order: the unit the log appends and the fold commits. */
export interface BlockEvents {
  block: number;
  ts: number;
  hash: string;
  events: ChainEvent[];
}

/**
 * How the log stores a field (engine/log/logCodec.ts): `address`, `token` and `condition` values become numeric
 * ids of the log's dictionaries; `bytes32` (0x + 64 hex) and `word` (64 hex) are stored as their 32 bytes;
 * `number` is a safe integer; `bytes` is 0x + hex of any even length.
 */
export type FieldType =
  | 'address'
  | 'token'
  | 'condition'
  | 'bytes32'
  | 'word'
  | 'number'
  | 'numbers'
  | 'tokens'
  | 'conditions'
  | 'addresses'
  | 'bytes'
  | 'bool'
  | 'exchange';

/**
 * The payload fields of each kind and how each is stored, in the order the log codec writes them after the
 * common [kind, logIndex, txIndex, tx] prefix. Changing an existing entry changes the log format.
 */
export const EVENT_SCHEMA: { [K in Kind]: Readonly<Record<string, FieldType>> } = {
  1: { conditionId: 'condition', oracle: 'address', questionId: 'bytes32', outcomeSlotCount: 'number' },
  2: {
    conditionId: 'condition',
    oracle: 'address',
    questionId: 'bytes32',
    outcomeSlotCount: 'number',
    payoutNumerators: 'numbers',
  },
  3: {
    stakeholder: 'address',
    collateral: 'address',
    parentCollectionId: 'bytes32',
    conditionId: 'condition',
    partition: 'numbers',
    amount: 'number',
  },
  4: {
    stakeholder: 'address',
    collateral: 'address',
    parentCollectionId: 'bytes32',
    conditionId: 'condition',
    partition: 'numbers',
    amount: 'number',
  },
  5: {
    redeemer: 'address',
    collateral: 'address',
    parentCollectionId: 'bytes32',
    conditionId: 'condition',
    indexSets: 'numbers',
    payout: 'number',
  },
  6: { operator: 'address', from: 'address', to: 'address', tokenId: 'token', value: 'number' },
  7: { operator: 'address', from: 'address', to: 'address', tokenIds: 'tokens', values: 'numbers' },
  8: {
    exchange: 'exchange',
    orderHash: 'bytes32',
    maker: 'address',
    taker: 'address',
    makerAssetId: 'token',
    takerAssetId: 'token',
    makerAmount: 'number',
    takerAmount: 'number',
    fee: 'number',
  },
  9: {
    exchange: 'exchange',
    takerOrderHash: 'bytes32',
    takerOrderMaker: 'address',
    makerAssetId: 'token',
    takerAssetId: 'token',
    makerAmount: 'number',
    takerAmount: 'number',
  },
  10: { exchange: 'exchange', token0: 'token', token1: 'token', conditionId: 'condition' },
  11: { exchange: 'exchange', receiver: 'address', tokenId: 'token', amount: 'number' },
  12: {
    exchange: 'exchange',
    orderHash: 'bytes32',
    maker: 'address',
    taker: 'address',
    side: 'number',
    tokenId: 'token',
    makerAmount: 'number',
    takerAmount: 'number',
    fee: 'number',
    builder: 'bytes32',
    metadata: 'bytes32',
  },
  13: {
    exchange: 'exchange',
    takerOrderHash: 'bytes32',
    takerOrderMaker: 'address',
    side: 'number',
    tokenId: 'token',
    makerAmount: 'number',
    takerAmount: 'number',
  },
  14: { exchange: 'exchange', receiver: 'address', amount: 'number' },
  15: {
    module: 'address',
    orderHash: 'bytes32',
    to: 'address',
    tokenId: 'token',
    refund: 'number',
    feeCharged: 'number',
  },
  16: { marketId: 'bytes32', oracle: 'address', feeBips: 'number', data: 'bytes' },
  17: { marketId: 'bytes32', questionId: 'bytes32', index: 'number', data: 'bytes' },
  18: { marketId: 'bytes32', questionId: 'bytes32', outcome: 'bool' },
  19: { stakeholder: 'address', conditionId: 'condition', amount: 'number' },
  20: { stakeholder: 'address', conditionId: 'condition', amount: 'number' },
  21: { stakeholder: 'address', marketId: 'bytes32', indexSet: 'word', amount: 'number' },
  22: { redeemer: 'address', conditionId: 'condition', amounts: 'numbers', payout: 'number' },
  23: {
    creator: 'address',
    pool: 'address',
    conditionalTokens: 'address',
    collateral: 'address',
    conditionIds: 'conditions',
    fee: 'word',
  },
  24: {
    pool: 'address',
    buyer: 'address',
    investmentAmount: 'number',
    feeAmount: 'number',
    outcomeIndex: 'number',
    outcomeTokensBought: 'number',
  },
  25: {
    pool: 'address',
    seller: 'address',
    returnAmount: 'number',
    feeAmount: 'number',
    outcomeIndex: 'number',
    outcomeTokensSold: 'number',
  },
  26: { pool: 'address', funder: 'address', amountsAdded: 'numbers', sharesMinted: 'number' },
  27: {
    pool: 'address',
    funder: 'address',
    amountsRemoved: 'numbers',
    collateralRemovedFromFeePool: 'number',
    sharesBurnt: 'number',
  },
  28: { feed: 'address', current: 'number', roundId: 'word', updatedAt: 'number' },
  29: { requestId: 'bytes', questionId: 'bytes32', startPrice: 'word', endPrice: 'word', payout: 'number' },
  30: { emitter: 'address', topic0: 'bytes32' },
  ...V2_EVENT_SCHEMA,
};

/** The payload field names of each kind, in EVENT_SCHEMA's order. */
export const EVENT_FIELDS = Object.fromEntries(
  Object.entries(EVENT_SCHEMA).map(([kind, fields]) => [kind, Object.keys(fields)]),
) as unknown as { [K in Kind]: readonly string[] };
