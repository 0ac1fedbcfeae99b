// Decoded chain events: what the log stores, one record per chain log the venue's contracts emitted.
// Addresses and 32-byte ids are lowercase hex; token ids are 64 hex digits without 0x (decimal only at the
// API edge); amounts are micro-units as safe integers (decode refuses larger values, see decodeLog).

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
} as const;
export type Kind = (typeof KIND)[keyof typeof KIND];

/** Exchange codes, as the fills feed shows them (engine/README.md, Chain model). */
export const EXCHANGE = { ctf: 1, negRisk: 2, ctfV2: 3, negRiskV2: 4, amm: 5 } as const;
export type ExchangeCode = (typeof EXCHANGE)[keyof typeof EXCHANGE];
export const EXCHANGE_LABEL: Record<ExchangeCode, string> = {
  1: 'ctf', 2: 'neg-risk', 3: 'ctf-v2', 4: 'neg-risk-v2', 5: 'amm',
};

interface Base<K extends Kind> {
  kind: K;
  logIndex: number;
  txIndex: number;
  tx: string;
}

export interface ConditionPreparation extends Base<typeof KIND.conditionPreparation> {
  conditionId: string; oracle: string; questionId: string; outcomeSlotCount: number;
}
export interface ConditionResolution extends Base<typeof KIND.conditionResolution> {
  conditionId: string; oracle: string; questionId: string; outcomeSlotCount: number; payoutNumerators: number[];
}
export interface CtfSplit extends Base<typeof KIND.ctfSplit> {
  stakeholder: string; collateral: string; parentCollectionId: string; conditionId: string; partition: number[]; amount: number;
}
export interface CtfMerge extends Base<typeof KIND.ctfMerge> {
  stakeholder: string; collateral: string; parentCollectionId: string; conditionId: string; partition: number[]; amount: number;
}
export interface CtfRedemption extends Base<typeof KIND.ctfRedemption> {
  redeemer: string; collateral: string; parentCollectionId: string; conditionId: string; indexSets: number[]; payout: number;
}
export interface TransferSingle extends Base<typeof KIND.transferSingle> {
  operator: string; from: string; to: string; tokenId: string; value: number;
}
export interface TransferBatch extends Base<typeof KIND.transferBatch> {
  operator: string; from: string; to: string; tokenIds: string[]; values: number[];
}
export interface OrderFilledV1 extends Base<typeof KIND.orderFilledV1> {
  exchange: ExchangeCode; orderHash: string; maker: string; taker: string;
  makerAssetId: string; takerAssetId: string; makerAmount: number; takerAmount: number; fee: number;
}
export interface OrdersMatchedV1 extends Base<typeof KIND.ordersMatchedV1> {
  exchange: ExchangeCode; takerOrderHash: string; takerOrderMaker: string;
  makerAssetId: string; takerAssetId: string; makerAmount: number; takerAmount: number;
}
export interface TokenRegistered extends Base<typeof KIND.tokenRegistered> {
  exchange: ExchangeCode; token0: string; token1: string; conditionId: string;
}
export interface FeeChargedV1 extends Base<typeof KIND.feeChargedV1> {
  exchange: ExchangeCode; receiver: string; tokenId: string; amount: number;
}
export interface OrderFilledV2 extends Base<typeof KIND.orderFilledV2> {
  exchange: ExchangeCode; orderHash: string; maker: string; taker: string; side: number; tokenId: string;
  makerAmount: number; takerAmount: number; fee: number; builder: string; metadata: string;
}
export interface OrdersMatchedV2 extends Base<typeof KIND.ordersMatchedV2> {
  exchange: ExchangeCode; takerOrderHash: string; takerOrderMaker: string; side: number; tokenId: string;
  makerAmount: number; takerAmount: number;
}
export interface FeeChargedV2 extends Base<typeof KIND.feeChargedV2> {
  exchange: ExchangeCode; receiver: string; amount: number;
}
export interface FeeRefunded extends Base<typeof KIND.feeRefunded> {
  module: string; orderHash: string; to: string; tokenId: string; refund: number; feeCharged: number;
}
export interface MarketPrepared extends Base<typeof KIND.marketPrepared> {
  marketId: string; oracle: string; feeBips: number; data: string;
}
export interface QuestionPrepared extends Base<typeof KIND.questionPrepared> {
  marketId: string; questionId: string; index: number; data: string;
}
export interface OutcomeReported extends Base<typeof KIND.outcomeReported> {
  marketId: string; questionId: string; outcome: boolean;
}
export interface AdapterSplit extends Base<typeof KIND.adapterSplit> {
  stakeholder: string; conditionId: string; amount: number;
}
export interface AdapterMerge extends Base<typeof KIND.adapterMerge> {
  stakeholder: string; conditionId: string; amount: number;
}
export interface PositionsConverted extends Base<typeof KIND.positionsConverted> {
  stakeholder: string; marketId: string; indexSet: string; amount: number;
}
export interface AdapterRedemption extends Base<typeof KIND.adapterRedemption> {
  redeemer: string; conditionId: string; amounts: number[]; payout: number;
}
export interface FpmmCreation extends Base<typeof KIND.fpmmCreation> {
  creator: string; pool: string; conditionalTokens: string; collateral: string; conditionIds: string[]; fee: string;
}
export interface FpmmBuy extends Base<typeof KIND.fpmmBuy> {
  pool: string; buyer: string; investmentAmount: number; feeAmount: number; outcomeIndex: number; outcomeTokensBought: number;
}
export interface FpmmSell extends Base<typeof KIND.fpmmSell> {
  pool: string; seller: string; returnAmount: number; feeAmount: number; outcomeIndex: number; outcomeTokensSold: number;
}
export interface FpmmFundingAdded extends Base<typeof KIND.fpmmFundingAdded> {
  pool: string; funder: string; amountsAdded: number[]; sharesMinted: number;
}
export interface FpmmFundingRemoved extends Base<typeof KIND.fpmmFundingRemoved> {
  pool: string; funder: string; amountsRemoved: number[]; collateralRemovedFromFeePool: number; sharesBurnt: number;
}
export interface AnswerUpdated extends Base<typeof KIND.answerUpdated> {
  feed: string; current: number; roundId: string; updatedAt: number;
}

export type ChainEvent =
  | ConditionPreparation | ConditionResolution | CtfSplit | CtfMerge | CtfRedemption | TransferSingle | TransferBatch
  | OrderFilledV1 | OrdersMatchedV1 | TokenRegistered | FeeChargedV1 | OrderFilledV2 | OrdersMatchedV2 | FeeChargedV2
  | FeeRefunded | MarketPrepared | QuestionPrepared | OutcomeReported | AdapterSplit | AdapterMerge
  | PositionsConverted | AdapterRedemption | FpmmCreation | FpmmBuy | FpmmSell | FpmmFundingAdded
  | FpmmFundingRemoved | AnswerUpdated;

/** One finalized block's events, in log-index order: the unit the log appends and the fold commits. */
export interface BlockEvents {
  block: number;
  ts: number;
  hash: string;
  events: ChainEvent[];
}

/**
 * The payload fields of each kind, in the order the log codec writes them after the common
 * [kind, logIndex, txIndex, tx] prefix. Changing an existing entry changes the log format.
 */
export const EVENT_FIELDS: { [K in Kind]: readonly string[] } = {
  1: ['conditionId', 'oracle', 'questionId', 'outcomeSlotCount'],
  2: ['conditionId', 'oracle', 'questionId', 'outcomeSlotCount', 'payoutNumerators'],
  3: ['stakeholder', 'collateral', 'parentCollectionId', 'conditionId', 'partition', 'amount'],
  4: ['stakeholder', 'collateral', 'parentCollectionId', 'conditionId', 'partition', 'amount'],
  5: ['redeemer', 'collateral', 'parentCollectionId', 'conditionId', 'indexSets', 'payout'],
  6: ['operator', 'from', 'to', 'tokenId', 'value'],
  7: ['operator', 'from', 'to', 'tokenIds', 'values'],
  8: ['exchange', 'orderHash', 'maker', 'taker', 'makerAssetId', 'takerAssetId', 'makerAmount', 'takerAmount', 'fee'],
  9: ['exchange', 'takerOrderHash', 'takerOrderMaker', 'makerAssetId', 'takerAssetId', 'makerAmount', 'takerAmount'],
  10: ['exchange', 'token0', 'token1', 'conditionId'],
  11: ['exchange', 'receiver', 'tokenId', 'amount'],
  12: ['exchange', 'orderHash', 'maker', 'taker', 'side', 'tokenId', 'makerAmount', 'takerAmount', 'fee', 'builder', 'metadata'],
  13: ['exchange', 'takerOrderHash', 'takerOrderMaker', 'side', 'tokenId', 'makerAmount', 'takerAmount'],
  14: ['exchange', 'receiver', 'amount'],
  15: ['module', 'orderHash', 'to', 'tokenId', 'refund', 'feeCharged'],
  16: ['marketId', 'oracle', 'feeBips', 'data'],
  17: ['marketId', 'questionId', 'index', 'data'],
  18: ['marketId', 'questionId', 'outcome'],
  19: ['stakeholder', 'conditionId', 'amount'],
  20: ['stakeholder', 'conditionId', 'amount'],
  21: ['stakeholder', 'marketId', 'indexSet', 'amount'],
  22: ['redeemer', 'conditionId', 'amounts', 'payout'],
  23: ['creator', 'pool', 'conditionalTokens', 'collateral', 'conditionIds', 'fee'],
  24: ['pool', 'buyer', 'investmentAmount', 'feeAmount', 'outcomeIndex', 'outcomeTokensBought'],
  25: ['pool', 'seller', 'returnAmount', 'feeAmount', 'outcomeIndex', 'outcomeTokensSold'],
  26: ['pool', 'funder', 'amountsAdded', 'sharesMinted'],
  27: ['pool', 'funder', 'amountsRemoved', 'collateralRemovedFromFeePool', 'sharesBurnt'],
  28: ['feed', 'current', 'roundId', 'updatedAt'],
};
