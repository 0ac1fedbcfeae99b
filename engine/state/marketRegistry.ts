// What the derive step reads and writes of the markets (engine/fold/deriveContext.ts): the records the fold's main
// thread keeps (createMarketRegistry.ts), each change going into the current block's writes.
import type {
  FeedAnswer,
  RoundReport,
  MarketRecord,
  NegRiskEventRecord,
  PoolRecord,
  TokenRecord,
} from './marketRecords.js';

export interface MarketRegistry {
  market(conditionId: string): MarketRecord | undefined;
  /** After a change of the market's identity or resolution. */
  putMarket(record: MarketRecord): void;
  /** After a change of its marks or fill count only. */
  putMarks(record: MarketRecord): void;
  token(token: string): TokenRecord | undefined;
  putToken(token: string, record: TokenRecord): void;
  negRiskEvent(marketId: string): NegRiskEventRecord | undefined;
  putNegRiskEvent(record: NegRiskEventRecord): void;
  pool(address: string): PoolRecord | undefined;
  putPool(record: PoolRecord): void;
  putFeedAnswer(answer: FeedAnswer): void;
  putRoundReport(report: RoundReport): void;
  /** One more log of a Protocol V2 contract with this unknown topic0. */
  countUnknownTopic(topic0: string): void;
}
