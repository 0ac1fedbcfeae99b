// State records of the market side (per condition, token, neg-risk event, AMM pool, price feed). Created only
// through these constructors so their key order, and so their encoded bytes, never vary.
import { assert } from '../assert.js';

/** Last fill of a token: the mark is usd/shares (a plain division at the API edge). */
export interface Mark {
  usd: number;
  shares: number;
  ts: number;
}

export interface MarketRecord {
  conditionId: string;
  oracle: string | null;
  questionId: string | null;
  /** 0 when the log never showed the ConditionPreparation (partial history). */
  preparedAt: number;
  negRisk: boolean;
  /** Outcome token ids [index set 1, index set 2], 64 hex; null until known. */
  tokens: string[] | null;
  negRiskMarketId: string | null;
  questionIndex: number;
  pool: string | null;
  payoutNumerators: number[] | null;
  payoutDenominator: number;
  resolvedAt: number;
  resolvedBlock: number;
  marks: (Mark | null)[];
  fills: number;
  /**
   * A Protocol V2 condition (docs/design.md 10); absent on the first ledger's, whose stored bytes it leaves as they
   * were.
   */
  v2?: V2MarketFacts;
  /**
   * On a CTF condition with a Protocol V2 migration condition (MigrationConditionRegistered): that condition's
   * state key. Its positions are the same market's (docs/design.md 10), on the second ledger. Absent otherwise.
   */
  migration?: string;
}

/** What a V2 condition's record adds: its module, a combo's legs, a migration condition's legacy CTF id. */
export interface V2MarketFacts {
  moduleId: number;
  /** A combo's leg position ids (64 hex, canonical order) from CombinatorialConditionPrepared; null otherwise. */
  legs: string[] | null;
  /** The legacy CTF condition id of a migration condition (MigrationConditionRegistered), else null. */
  legacyConditionId: string | null;
}

export function createMarketRecord(conditionId: string): MarketRecord {
  // A condition's key: a decoded CTF condition id, or a Protocol V2 bytes31 id's 32-byte word, both 0x + 64 hex.
  assert(conditionId.length === 66, "a market is keyed by its condition's 32 bytes");
  return {
    conditionId,
    oracle: null,
    questionId: null,
    preparedAt: 0,
    negRisk: false,
    tokens: null,
    negRiskMarketId: null,
    questionIndex: -1,
    pool: null,
    payoutNumerators: null,
    payoutDenominator: 0,
    resolvedAt: 0,
    resolvedBlock: 0,
    marks: [null, null],
    fills: 0,
  };
}

/**
 * A market is stored as two values: its identity and resolution (`markets`), which change a few times in its
 * life, and its marks and fill count (`marketMarks`), which change with every fill. Each is encoded only when
 * it changes, and a fill re-encodes a few numbers instead of the whole record.
 */
export function marketIdentity(record: MarketRecord): unknown {
  // Every condition the fold stores is binary (setTokens: the two outcomes' position ids).
  assert(record.tokens === null || record.tokens.length === 2, "a market's tokens are its two outcomes");
  return {
    conditionId: record.conditionId,
    oracle: record.oracle,
    questionId: record.questionId,
    preparedAt: record.preparedAt,
    negRisk: record.negRisk,
    tokens: record.tokens,
    negRiskMarketId: record.negRiskMarketId,
    questionIndex: record.questionIndex,
    pool: record.pool,
    payoutNumerators: record.payoutNumerators,
    payoutDenominator: record.payoutDenominator,
    resolvedAt: record.resolvedAt,
    resolvedBlock: record.resolvedBlock,
    ...(record.v2 ? { v2: record.v2 } : {}),
    ...(record.migration ? { migration: record.migration } : {}),
  };
}

export type StoredMark = [usd: number, shares: number, ts: number] | null;

export function marketMarks(record: MarketRecord): [fills: number, ...marks: StoredMark[]] {
  // The fold counts a market's fills up from 0, one a fill.
  assert(Number.isSafeInteger(record.fills) && record.fills >= 0, 'a market counts its fills');
  // A mark an outcome, set by a fill of the outcome's token (its index among the two).
  assert(record.marks.length === 2, "a market's marks are its two outcomes'");
  return [record.fills, ...record.marks.map((mark): StoredMark => (mark ? [mark.usd, mark.shares, mark.ts] : null))];
}

/** The record from its two stored values (`marks` undefined: no fill yet). */
export function joinMarket(identity: MarketRecord, marks: [number, ...StoredMark[]] | undefined): MarketRecord {
  // As marketIdentity stored it: the marks and the fill count live in the other value.
  const stored: Partial<MarketRecord> = identity;
  assert(stored.marks === undefined && stored.fills === undefined, 'a stored identity holds no marks');
  identity.fills = marks ? marks[0] : 0;
  identity.marks = marks
    ? (marks.slice(1) as StoredMark[]).map((mark) => (mark ? { usd: mark[0], shares: mark[1], ts: mark[2] } : null))
    : [null, null];
  return identity;
}

export interface TokenRecord {
  conditionId: string;
  outcomeIndex: number;
}

export interface NegRiskEventRecord {
  marketId: string;
  oracle: string;
  feeBips: number;
  /** Condition ids by question index, in the order QuestionPrepared announced them. */
  questions: string[];
}

export interface PoolRecord {
  pool: string;
  conditionId: string;
  collateral: string;
  fee: string;
}

/** A Chainlink answer, kept per asset for crypto strikes. */
/** A Protocol V2 round's reported prices (RequestReported), kept by question id; prices as in the event. */
export interface RoundReport {
  questionId: string;
  requestId: string;
  startPrice: string;
  endPrice: string;
  payout: number;
  block: number;
}

export interface FeedAnswer {
  asset: string;
  feed: string;
  answer: number;
  roundId: string;
  updatedAt: number;
  block: number;
}
