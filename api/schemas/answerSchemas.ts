// The answers' typebox schemas (spec sections 2 and 4): compiled into validators for the tests and serialized
// into the OpenAPI document, so the published shapes and the checked ones are the same objects.
import Type, { type TSchema } from 'typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Wallet = Type.String({ pattern: '^0x[0-9a-f]{40}$' });
// A condition id, or a Protocol V2 condition's bytes31 id (docs/design.md 10).
const ConditionId = Type.String({ pattern: '^0x(?:[0-9a-f]{64}|[0-9a-f]{62})$' });
const LegacyConditionId = Type.String({ pattern: '^0x[0-9a-f]{64}$' });
const V2ConditionId = Type.String({ pattern: '^0x[0-9a-f]{62}$' });
const Decimal = Type.String({ pattern: '^[0-9]+$' });

export const MarketSchema = Type.Object({
  question: Nullable(Type.String()),
  slug: Nullable(Type.String()),
  eventSlug: Nullable(Type.String()),
  image: Nullable(Type.String()),
  category: Nullable(Type.String()),
  outcomes: Nullable(Type.Array(Type.String())),
  negRisk: Type.Boolean(),
});

const ComboStatus = Type.Union(
  ['OPEN', 'PARTIAL', 'RESOLVED_WIN', 'RESOLVED_LOSS', 'RESOLVED_PARTIAL'].map((status) => Type.Literal(status)),
);

/**
 * ComboExtras (spec 2.3 "not shown", docs/design.md 10): on every row of a Protocol V2 position, absent on the CTF's.
 */
function comboExtrasProperties() {
  const Fraction = Type.Number({ minimum: 0, maximum: 1 });
  const Leg = Type.Object({
    legIndex: Type.Integer({ minimum: 0 }),
    positionId: Decimal,
    moduleId: Type.Integer({ minimum: 1, maximum: 2 }),
    conditionId: ConditionId,
    outcomeIndex: Type.Integer({ minimum: 0, maximum: 1 }),
    outcome: Nullable(Type.String()),
    status: ComboStatus,
    settle: Nullable(Fraction),
    resolvedAt: Nullable(Type.Integer()),
    mark: Nullable(Type.Number()),
  });
  return {
    ledger: Type.Optional(Type.Literal('v2')),
    moduleId: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
    v2ConditionId: Type.Optional(V2ConditionId),
    comboStatus: Type.Optional(ComboStatus),
    legsTotal: Type.Optional(Type.Integer({ minimum: 1 })),
    legsResolved: Type.Optional(Type.Integer({ minimum: 0 })),
    legsPending: Type.Optional(Type.Integer({ minimum: 0 })),
    resolvedFactor: Type.Optional(Fraction),
    legacyConditionId: Type.Optional(Nullable(LegacyConditionId)),
    migrated: Type.Optional(Type.Boolean()),
    legs: Type.Optional(Type.Array(Leg)),
  };
}

const positionProperties = {
  wallet: Wallet,
  outcomeIndex: Type.Integer({ minimum: -1, maximum: 1 }),
  shares: Type.Number(),
  costBasis: Type.Number(),
  avgPrice: Type.Number(),
  avgBuyPrice: Type.Number(),
  realizedPnl: Type.Number(),
  boughtShares: Type.Number(),
  boughtUsd: Type.Number(),
  soldShares: Type.Number(),
  soldUsd: Type.Number(),
  avgSellPrice: Type.Number(),
  splitShares: Type.Number(),
  mergedShares: Type.Number(),
  mergeUsd: Type.Number(),
  redeemedShares: Type.Number(),
  redeemUsd: Type.Number(),
  fees: Type.Number(),
  fills: Type.Integer(),
  firstTradeAt: Type.Integer(),
  lastTradeAt: Type.Integer(),
  partialHistory: Type.Boolean(),
  basisApprox: Type.Boolean(),
  converted: Type.Boolean(),
  amm: Type.Boolean(),
  ...comboExtrasProperties(),
};
export const PositionSchema = Type.Object(positionProperties);

const walletRowProperties = {
  ...positionProperties,
  tokenId: Decimal,
  conditionId: Nullable(ConditionId),
  resolved: Type.Boolean(),
  settle: Nullable(Type.Number()),
  resolvedAt: Nullable(Type.Integer()),
  settledPnl: Type.Number(),
  invested: Type.Number(),
  sharesIn: Type.Number(),
  entryPrice: Type.Number(),
  pnlPct: Nullable(Type.Number()),
  avgExitPrice: Nullable(Type.Number()),
  open: Type.Boolean(),
  redeemable: Type.Boolean(),
  exitAt: Nullable(Type.Integer()),
};
export const WalletRowSchema = Type.Object({ ...walletRowProperties, market: Nullable(MarketSchema) });
export const OpenRowSchema = Type.Object({
  ...walletRowProperties,
  market: Nullable(MarketSchema),
  mark: Nullable(Type.Number()),
  markTs: Nullable(Type.Integer()),
  value: Nullable(Type.Number()),
  unrealizedPnl: Nullable(Type.Number()),
});

const tradeProperties = {
  ts: Type.Integer(),
  block: Type.Integer(),
  logIndex: Type.Integer(),
  tx: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
  wallet: Wallet,
  side: Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]),
  asset: Decimal,
  conditionId: Nullable(ConditionId),
  outcomeIndex: Type.Integer(),
  price: Type.Number(),
  size: Type.Number(),
  usd: Type.Number(),
  fee: Type.Number(),
  feeUnit: Type.Union([Type.Literal('usd'), Type.Literal('shares')]),
  role: Type.Union([Type.Literal('taker'), Type.Literal('maker')]),
  counterparty: Wallet,
  exchange: Type.String(),
};
export const TradeSchema = Type.Object(tradeProperties);
export const WalletTradeSchema = Type.Object({
  ...tradeProperties,
  market: Type.Object({ ...MarketSchema.properties, outcome: Type.String() }),
});

export const ErrorSchema = Type.Object({ error: Type.String() });

const Hex64 = Type.String({ pattern: '^[0-9a-f]{64}$' });

/** A field with its description in the OpenAPI document. */
const described = <T extends TSchema>(schema: T, description: string) => ({ ...schema, description }) as T;

export const HealthAnswer = Type.Object({
  status: described(
    Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
    "'degraded' while the state backfills, while the fold trails the source's finalized head by more than the configured blocks (config.json readiness.maxLagBlocks, 64 by default), and while the source does not answer; 'ok' otherwise.",
  ),
  ready: described(
    Type.Boolean(),
    'Whether a load balancer should send this server traffic, as `/v1/ready` answers: not backfilling, within readiness.maxLagBlocks of the finalized head, the source not away longer than readiness.maxOutageSeconds (60 by default).',
  ),
  block: described(
    Type.Integer(),
    'The served block: the last folded block with venue events; every answer reflects it.',
  ),
  blockTs: described(Type.Integer(), 'The served block\'s time (Unix seconds): the "now" of every answer.'),
  checksum: Type.String({
    pattern: '^[0-9a-f]{64}$',
    description:
      'The chained checksum of the served block (engine/README.md, Checksums): equal on every replica that holds that block.',
  }),
  answers: Type.Object(
    {
      checksum: Hex64,
      metadata: Hex64,
      profiles: Hex64,
      keys: Hex64,
      tags: Nullable(Hex64),
    },
    {
      description:
        "What every answer is made from: `checksum` covers the served block's checksum, the board's rollup (its block and the metadata it read), the latest wallet-tag run, the market metadata, the profiles, the API keys, the fold's mode and the version, so two servers with equal `answers.checksum` answer every request with the same bytes. `metadata`, `profiles` and `keys` are digests of those off-chain tables' contents (equal content, equal digest, however it was written), `tags` the sha256 of the latest run (null before one).",
    },
  ),
  stream: Nullable(
    Type.Object(
      { name: Type.String(), sequence: Type.Integer({ minimum: 1 }) },
      {
        description:
          "A replica's JetStream stream and the sequence of the last message its state holds; null on a server that is not a replica.",
      },
    ),
  ),
  sourceHead: described(
    Type.Integer(),
    "The source's newest block: the node's finalized head (RPC), the stream's last published block (a replica), else the served block.",
  ),
  lagBlocks: described(
    Type.Integer(),
    'Blocks from the block the fold has read the chain through (the served block, or further when the chain went quiet after it) to the source head.',
  ),
  lagSeconds: described(
    Type.Integer(),
    "Seconds between the source head's time and the time of the block read through, plus the outage's seconds while the source does not answer.",
  ),
  outage: Nullable(
    Type.Object(
      {
        since: Type.Integer(),
        seconds: Type.Integer(),
        failedAttempts: Type.Integer(),
        lastError: Type.String(),
      },
      {
        description:
          "While the source's requests fail: since when (Unix seconds), for how long, how many attempts failed and the last error; null while it answers.",
      },
    ),
  ),
  log: described(
    Type.Object({ events: Type.Integer(), segments: Type.Integer() }),
    "The log: events folded into the served state, and the log's segment files.",
  ),
  fold: Type.Object(
    {
      mode: Type.Union([Type.Literal('backfill'), Type.Literal('live')]),
      target: Nullable(Type.Integer()),
      blocksPerSecond: Type.Number(),
      etaSeconds: Nullable(Type.Integer()),
    },
    {
      description:
        "The fold's mode: 'backfill' while it catches up from far behind (the state routes answer 503 `catching up` until its hand-off), with the block it folds towards, its rate over the last minute and the seconds left at that rate (null until known); 'live' otherwise.",
    },
  ),
  unknownTopics: described(
    Type.Record(Type.String({ pattern: '^0x[0-9a-f]{64}$' }), Type.Integer({ minimum: 1 })),
    'Logs of the Protocol V2 contracts with a topic0 tally does not decode (upgraded contracts), counted by topic0: kept in the log, never dropped silently.',
  ),
  rollups: described(
    Type.Object({
      leaderboard: Nullable(Type.Integer()),
      tags: Nullable(Type.Integer()),
      heat: Nullable(Type.Integer()),
    }),
    "`leaderboard`: the block the board was rolled up as of (null before the first rollup); `tags`: the latest wallet-tag run's number (its UTC day, null before one); `heat`: the minute (Unix seconds) event heat is measured at (null with the trade store off).",
  ),
  version: described(Type.String(), "tally's version."),
});

export const ReadyAnswer = Type.Object({
  ready: Type.Literal(true),
  block: Type.Integer(),
  sourceHead: Type.Integer(),
  lagBlocks: Type.Integer(),
  lagSeconds: Type.Integer(),
  maxLagBlocks: Type.Integer(),
  maxOutageSeconds: Type.Integer(),
});

const page = { total: Type.Integer(), offset: Type.Integer(), next: Nullable(Type.Integer()) };
export const RawPositionsAnswer = Type.Object({
  wallet: Wallet,
  block: Type.Integer(),
  positions: Type.Array(Type.Object({ ...positionProperties, tokenId: Decimal, conditionId: Nullable(ConditionId) })),
});
export const OpenPositionsAnswer = Type.Object({
  wallet: Wallet,
  block: Type.Integer(),
  tooLarge: Type.Boolean(),
  maxPositions: Type.Integer(),
  ...page,
  rows: Type.Array(OpenRowSchema),
});
export const ClosedPositionsAnswer = Type.Object({
  wallet: Wallet,
  block: Type.Integer(),
  ...page,
  rows: Type.Array(WalletRowSchema),
  tooLarge: Type.Optional(Type.Boolean()),
  maxPositions: Type.Optional(Type.Integer()),
});
export const WalletTradesAnswer = Type.Object({
  wallet: Wallet,
  block: Type.Integer(),
  complete: Type.Boolean(),
  truncated: Type.Boolean(),
  trades: Type.Array(WalletTradeSchema),
  next: Nullable(Type.String({ pattern: '^\\d+,\\d+,\\d+$' })),
  market: Type.Optional(ConditionId),
  query: Type.Optional(Type.String()),
  returned: Type.Optional(Type.Integer()),
  moreMatched: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Type.Integer()),
});

export const MarketTradesAnswer = Type.Object({
  conditionId: ConditionId,
  block: Type.Integer(),
  complete: Type.Boolean(),
  trades: Type.Array(TradeSchema),
  next: Nullable(Type.String({ pattern: '^\\d+,\\d+,\\d+$' })),
});

export const TradeCountsAnswer = Type.Object({
  conditionId: ConditionId,
  block: Type.Integer(),
  complete: Type.Boolean(),
  counts: Type.Record(Type.String(), Type.Integer()),
  lastTs: Type.Record(Type.String(), Type.Integer()),
});

export const MarketAnswer = Type.Object({
  conditionId: ConditionId,
  block: Type.Integer(),
  market: MarketSchema,
  tokens: Nullable(Type.Array(Decimal, { minItems: 2, maxItems: 2 })),
  lastFills: Type.Array(Nullable(Type.Object({ price: Type.Number(), ts: Type.Integer() })), {
    minItems: 2,
    maxItems: 2,
  }),
  fills: Type.Integer({ minimum: 0 }),
  resolved: Type.Boolean(),
  resolvedAt: Nullable(Type.Integer()),
  payouts: Nullable(Type.Array(Type.Number({ minimum: 0, maximum: 1 }), { minItems: 2, maxItems: 2 })),
  negRiskMarketId: Nullable(Type.String({ pattern: '^0x[0-9a-f]{64}$' })),
  legs: Nullable(
    Type.Array(
      Type.Object({
        positionId: Decimal,
        conditionId: ConditionId,
        outcomeIndex: Type.Integer({ minimum: 0, maximum: 1 }),
        question: Nullable(Type.String()),
        outcome: Nullable(Type.String()),
        settle: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
      }),
    ),
  ),
});

/** A market as a search or an event lists it. */
export const MarketListing = Type.Object({
  conditionId: ConditionId,
  market: MarketSchema,
  fills: Type.Integer(),
  resolved: Type.Boolean(),
});
export const MarketSearchAnswer = Type.Object({
  q: Type.String(),
  block: Type.Integer(),
  matched: Type.Integer({ minimum: 0 }),
  more: Type.Boolean(),
  markets: Type.Array(MarketListing),
});

export const EventAnswer = Type.Object({
  eventSlug: Type.String(),
  title: Type.Union([Type.String(), Type.Null()], { description: "the event's title from the market metadata" }),
  block: Type.Integer(),
  markets: Type.Array(MarketListing, { description: 'its indexed markets, most fills first' }),
});

export const TraderRowSchema = Type.Object({
  wallet: Wallet,
  realizedPnl: Type.Number(),
  unrealizedPnl: Type.Number(),
  totalPnl: Type.Number(),
  shares: Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }),
  outcomes: Type.Array(PositionSchema),
});
export const MarketTradersAnswer = Type.Object({
  conditionId: ConditionId,
  block: Type.Integer(),
  sort: Type.Union([Type.Literal('total'), Type.Literal('realized')]),
  marks: Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }),
  traderCount: Type.Integer(),
  traders: Type.Array(TraderRowSchema),
});
export const TopTradersAnswer = Type.Object({
  conditionId: ConditionId,
  block: Type.Integer(),
  marks: Type.Record(Type.String(), Type.Number()),
  traders: Type.Array(TraderRowSchema),
});

const HolderGroupSchema = Type.Object({
  wallets: Type.Integer(),
  shares: Type.Number(),
  avgEntry: Type.Number(),
  avgBuy: Type.Number(),
  avgSell: Type.Number(),
  sellers: Type.Integer(),
  members: Type.Array(
    Type.Object({
      wallet: Wallet,
      shares: Type.Number(),
      avgEntry: Type.Number(),
      avgBuy: Type.Number(),
      avgSell: Type.Number(),
      realizedPnl: Type.Number(),
    }),
  ),
});
export const HolderLinesAnswer = Type.Object({
  conditionId: ConditionId,
  block: Type.Integer(),
  resolved: Type.Boolean(),
  top: Type.Integer(),
  outcomes: Type.Array(
    Type.Object({
      outcomeIndex: Type.Integer(),
      tokenId: Decimal,
      mark: Nullable(Type.Number()),
      holders: HolderGroupSchema,
      traders: HolderGroupSchema,
    }),
  ),
});

export const FillsFeedAnswer = Type.Object({
  block: Type.Integer(),
  completeThroughTs: Type.Integer(),
  fills: Type.Array(Type.Array(Type.Integer(), { minItems: 11, maxItems: 11 }), {
    description:
      "One row of 11 integers a fill, by position (spec 4.9): 0 market, the index of its market in the request's `markets`; 1 ts (Unix seconds); 2 block; 3 logIndex; 4 outcome (outcome index); 5 side (0 buy, 1 sell); 6 shares (micro-shares); 7 usd (micro-USD); 8 exchange (1 ctf, 2 neg-risk, 3 ctf-v2, 4 neg-risk-v2, 6 v3; AMM trades and combo fills are not in the feed); 9 isTaker (1 the taker order's fill, 0 a maker's); 10 fee (micro-shares on a V1 buy, exchange 1 or 2 with side 0; micro-USD otherwise).",
  }),
  next: Nullable(Type.String({ pattern: '^\\d+,\\d+,\\d+$' })),
});

export const EventHeatAnswer = Type.Object({
  window: Type.String(),
  since: Type.Integer(),
  block: Type.Integer(),
  events: Type.Array(Type.Object({ eventSlug: Type.String(), uniqueTraders: Type.Integer() })),
  complete: Type.Boolean(),
});

const RankedMarketSchema = Nullable(
  Type.Object({
    pnl: Type.Number(),
    conditionId: ConditionId,
    question: Type.String(),
    slug: Type.String(),
    eventSlug: Type.String(),
    image: Nullable(Type.String()),
  }),
);
const boardCategories = [
  'global',
  'Politics',
  'Sports',
  'Crypto',
  'Finance',
  'Culture',
  'Mentions',
  'Weather',
  'Economics',
  'Tech',
  'Other',
];
// One of the board's categories: the literals for the document and the validators, a string for the routes' types
// (a union built by map() has no tuple type to infer the names from).
const BoardCategorySchema = Type.Unsafe<string>(Type.Union(boardCategories.map((name) => Type.Literal(name))));
export const BoardRowSchema = Type.Object({
  wallet: Wallet,
  category: BoardCategorySchema,
  totalPnl: Type.Number(),
  realizedPnl: Type.Number(),
  unrealizedPnl: Type.Number(),
  capital: Type.Number(),
  roi: Type.Number(),
  volume: Type.Number(),
  buyVolume: Type.Number(),
  sellVolume: Type.Number(),
  shareVolume: Type.Number(),
  fees: Type.Number(),
  fills: Type.Integer(),
  marketsTraded: Type.Integer(),
  marketsDecided: Type.Integer(),
  marketsWon: Type.Integer(),
  marketsLost: Type.Integer(),
  winRate: Type.Number(),
  profitFactor: Type.Number(),
  profitFactorInfinite: Type.Boolean(),
  winsUsd: Type.Number({ minimum: 0 }),
  lossesUsd: Type.Number({ maximum: 0 }),
  avgWin: Type.Number(),
  avgLoss: Type.Number({ maximum: 0 }),
  best: RankedMarketSchema,
  worst: RankedMarketSchema,
  avgHoldSeconds: Type.Number(),
  redemptions: Type.Integer(),
  firstActivityAt: Type.Integer(),
  lastActivityAt: Type.Integer(),
  updatedAt: Type.Integer(),
  open: Type.Object({ count: Type.Integer(), value: Type.Number(), cost: Type.Number() }),
  approxMarkets: Type.Integer(),
});
const boardWindow = {
  block: Type.Integer(),
  asOf: Type.Integer(),
  period: Type.String(),
  category: BoardCategorySchema,
  from: Type.Integer(),
  to: Type.Integer(),
  basis: Type.Union([Type.Literal('board'), Type.Literal('settled')]),
};
export const WalletStatsAnswer = Type.Object({ ...boardWindow, wallet: Wallet, row: BoardRowSchema });
export const WalletCategoriesAnswer = Type.Object({ ...boardWindow, wallet: Wallet, rows: Type.Array(BoardRowSchema) });
export const LeaderboardAnswer = Type.Object({
  ...boardWindow,
  sort: Type.String(),
  total: Type.Integer(),
  offset: Type.Integer(),
  rows: Type.Array(BoardRowSchema),
  next: Nullable(Type.Integer()),
});

export const WalletProfileSchema = Type.Object({
  name: Type.String(),
  pseudonym: Type.String(),
  image: Nullable(Type.String()),
});
export const WalletProfilesAnswer = Type.Object({
  profiles: Type.Record(Type.String({ pattern: '^0x[0-9a-f]{40}$' }), Nullable(WalletProfileSchema)),
});

const UpDown = Nullable(Type.Union([Type.Literal('Up'), Type.Literal('Down')]));
export const StrikeRowSchema = Type.Object({
  conditionId: ConditionId,
  eventSlug: Nullable(Type.String()),
  asset: Type.String(),
  interval: Type.String(),
  startTs: Type.Integer(),
  endTs: Type.Integer(),
  strike: Nullable(Type.Number()),
  close: Nullable(Type.Number()),
  outcome: UpDown,
  resolution: UpDown,
  feed: Nullable(Wallet),
  source: Type.Union([Type.Literal('reporter'), Type.Literal('metadata'), Type.Literal('feed')]),
});
export const CryptoStrikesAnswer = Type.Object({
  block: Type.Integer(),
  asset: Nullable(Type.String()),
  from: Type.Integer(),
  to: Nullable(Type.Integer()),
  total: Type.Integer(),
  offset: Type.Integer(),
  rows: Type.Array(StrikeRowSchema),
  next: Nullable(Type.Integer()),
});

export const WalletTagsAnswer = Type.Object({
  run: Type.Integer(),
  rulesVersion: Type.Integer(),
  windowStart: Type.String(),
  windowEnd: Type.String(),
  computedAt: Type.String(),
  count: Type.Integer(),
  tags: Type.Record(
    Type.String({ pattern: '^0x[0-9a-f]{40}$' }),
    Type.Object({
      kind: Type.String(),
      text: Type.String(),
      facts: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()])),
      since: Type.String(),
    }),
  ),
});
