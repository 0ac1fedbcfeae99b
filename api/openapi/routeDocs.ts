// What each route is, for the OpenAPI document and the server: tag, summary, query parameters (the schemas the
// server validates requests with) and the answer's schema.
import Type from 'typebox';
import type { RouteDoc } from './openApiDocument.js';
import { choiceParam, integerParam, textParam } from '../query/queryParams.js';
import {
  ClosedPositionsAnswer,
  EventHeatAnswer,
  FillsFeedAnswer,
  HealthAnswer,
  ReadyAnswer,
  HolderLinesAnswer,
  MarketTradersAnswer,
  MarketTradesAnswer,
  OpenPositionsAnswer,
  RawPositionsAnswer,
  TopTradersAnswer,
  TradeCountsAnswer,
  WalletTradesAnswer,
  WalletStatsAnswer,
  WalletCategoriesAnswer,
  LeaderboardAnswer,
  MarketAnswer,
  MarketSearchAnswer,
  EventAnswer,
  WalletProfilesAnswer,
  CryptoStrikesAnswer,
  WalletTagsAnswer,
} from '../schemas/answerSchemas.js';
import { BOARD_SORTS } from '../board/boardRankings.js';
import { ERROR } from '../errorTexts.js';
import { FEED_ERRORS } from '../routes/fillsFeedRoute.js';

// A condition id, or a Protocol V2 condition's bytes31 id (docs/design.md 10).
const CONDITION = '0x(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{62})';
const NOT_INDEXED = { 404: 'market not indexed: the log never prepared this condition' };
const BOARD_NOT_BUILT = { 503: `${ERROR.boardNotBuilt}: no rollup has run yet (one runs after each fold)` };
const periodParams = [
  {
    ...textParam(
      'period',
      "`1d`, `7d`, `30d`, `90d`, `1y`: a rolling window ending at the rollup's block time; `all` (default): the lifetime board row",
      '^(1d|7d|30d|90d|1y|all)$',
      ERROR.badPeriod,
    ),
    ignoredWith: 'from',
  },
  integerParam('from', 'custom window start, Unix seconds (used instead of period)', { minimum: 0 }),
  integerParam('to', "custom window end, Unix seconds, exclusive; the rollup's block time when left out (needs from)", {
    minimum: 0,
  }),
];
const boardCategory = textParam(
  'category',
  '`global` (default), `Other`, or one of the nine categories (any letter case)',
);
const TRADES_OFF = {
  503: 'trades are off: the state was folded with the trade store off (config.json "trades": false)',
};

const limit = (max: number, fallback: string) =>
  integerParam('limit', `rows, 1 to ${max} (out of range is clamped), default ${fallback}`);
const offset = integerParam('offset', 'rows to skip', { minimum: 0 });
const category = textParam('category', 'one of the nine categories, or `other` for markets in none (any letter case)');
const text = textParam(
  'q',
  "only markets whose question, or the row's outcome name, contains the text (any letter case)",
);

export const routeDocs = {
  health: {
    operationId: 'getHealth',
    tag: 'Health',
    summary: 'The folded block, the lag behind the source and the log size',
    query: [],
    answer: HealthAnswer,
  },
  ready: {
    operationId: 'getReady',
    tag: 'Health',
    summary:
      "200 while this server should take traffic; 503 `not ready: ...` naming why not (backfilling, more than config.json's readiness.maxLagBlocks behind the source's finalized head, the source away longer than readiness.maxOutageSeconds): a load balancer's check",
    query: [],
    answer: ReadyAnswer,
    errors: {
      503: "`not ready: ` and the reasons, `; ` between them: the state is backfilling, it is N blocks behind the source's finalized head (at most M), the source has not answered for S s (at most T)",
    },
  },
  walletPositions: {
    operationId: 'getWalletPositions',
    tag: 'Wallets',
    summary:
      "A wallet's positions: raw (no status), open or closed. The raw form answers every position of the wallet " +
      '(both outcomes of each market it touched), narrowed only by `conditions`: it ignores limit, offset, category and q',
    answer: Type.Union([RawPositionsAnswer, OpenPositionsAnswer, ClosedPositionsAnswer]),
    query: [
      choiceParam('status', '`open` or `closed`; omitted selects the raw form', ['open', 'closed']),
      ...[limit(2500, '100'), offset, category, text].map((param) => ({
        ...param,
        description: `${param.description}; open and closed forms only`,
      })),
      textParam(
        'conditions',
        'raw form: condition ids, comma separated, no spaces',
        `^${CONDITION}(,${CONDITION})*$`,
        'conditions must be condition ids (0x plus 64 hex), comma separated',
      ),
      choiceParam('sort', 'closed form: `exit` (latest exit first, default) or `pnl`', ['exit', 'pnl']),
    ],
  },
  closedPositions: {
    operationId: 'getClosedPositions',
    tag: 'Wallets',
    summary: "A wallet's closed positions",
    answer: ClosedPositionsAnswer,
    query: [
      limit(2500, '100'),
      offset,
      category,
      text,
      choiceParam('sort', '`exit` (latest exit first, default) or `pnl`', ['exit', 'pnl']),
    ],
  },
  walletTrades: {
    operationId: 'getWalletTrades',
    errors: TRADES_OFF,
    tag: 'Wallets',
    summary: "A wallet's trades, newest first",
    answer: WalletTradesAnswer,
    query: [
      limit(500, '100, 300 on a search'),
      // A search covers the whole history in one answer: it ignores the cursor and the market (spec 4.2).
      {
        ...textParam(
          'before',
          "the previous page's `next`: ts,block,logIndex; ignored with q",
          '^\\d{1,12},\\d{1,12},\\d{1,9}$',
          'before must be a cursor ts,block,logIndex',
        ),
        ignoredWith: 'q',
      },
      {
        ...textParam(
          'market',
          "one market's trades (condition id); ignored with q",
          `^${CONDITION}$`,
          'market must be a condition id',
        ),
        ignoredWith: 'q',
      },
      textParam('q', 'search over the whole history: market question or outcome; one answer, no cursor'),
    ],
  },
  marketSearch: {
    operationId: 'searchMarkets',
    tag: 'Markets',
    summary:
      'Indexed markets whose question, slug or event slug holds every word of `q` (any letter case), most fills first; the first 1,000 matches are ranked and `more` says there were others',
    answer: MarketSearchAnswer,
    query: [
      textParam('q', 'the words to find, 2 to 100 characters (required)', undefined, ERROR.badSearch),
      limit(100, '20'),
    ],
  },
  event: {
    operationId: 'getEvent',
    errors: { 404: 'event not indexed: no indexed market carries this event slug' },
    tag: 'Markets',
    summary: 'An event by its slug (exact, percent-decoded): its title and its indexed markets, most fills first',
    answer: EventAnswer,
    query: [],
  },
  market: {
    operationId: 'getMarket',
    errors: NOT_INDEXED,
    tag: 'Markets',
    summary:
      'A market: its question and outcomes (metadata), outcome tokens, last fill by outcome, fill count, resolution ' +
      '(payout per share by outcome) and, for a combo, its legs',
    answer: MarketAnswer,
    query: [],
  },
  marketTraders: {
    operationId: 'getMarketTraders',
    errors: NOT_INDEXED,
    tag: 'Markets',
    summary: 'Every wallet of a market, one row each with both outcome legs, best first',
    answer: MarketTradersAnswer,
    query: [
      limit(1000, '100'),
      choiceParam('sort', '`total` (open legs valued at the marks, default) or `realized`', ['total', 'realized']),
      textParam(
        'marks',
        'prices by outcome index, `<price0>,<price1>`; default the last fill prices, the payout once resolved',
        '^[0-9.]+,[0-9.]+$',
        ERROR.badMarks,
      ),
    ],
  },
  topTraders: {
    operationId: 'getTopTraders',
    errors: NOT_INDEXED,
    tag: 'Markets',
    summary: "A market's best traders by total PnL",
    answer: TopTradersAnswer,
    query: [
      limit(100, '20'),
      textParam(
        'marks',
        'prices by token id, `<tokenId>:<price>,...`; default the last fill prices, the payout once resolved',
      ),
    ],
  },
  holderLines: {
    operationId: 'getHolderLines',
    errors: NOT_INDEXED,
    tag: 'Markets',
    summary: 'Per outcome, the top holders (wallets that bought) and the top traders, with share-weighted averages',
    answer: HolderLinesAnswer,
    query: [
      integerParam('top', 'wallets per group, 1 to 50 (out of range is clamped), default 10'),
      textParam(
        'prices',
        'live prices by token id, `<tokenId>:<price>,...`, ignored once resolved; without one, open shares rank by realized PnL only',
      ),
    ],
  },
  tradeCounts: {
    operationId: 'getTradeCounts',
    errors: { ...NOT_INDEXED, ...TRADES_OFF },
    tag: 'Markets',
    summary: "Fills of up to 200 wallets over the market's whole life",
    answer: TradeCountsAnswer,
    query: [textParam('wallets', 'up to 200 0x addresses, comma separated; malformed entries are skipped')],
  },
  marketTrades: {
    operationId: 'getMarketTrades',
    errors: { ...NOT_INDEXED, ...TRADES_OFF },
    tag: 'Markets',
    summary: "A market's trades, newest first",
    answer: MarketTradesAnswer,
    query: [
      limit(1000, '100'),
      textParam(
        'cursor',
        "the previous page's `next`: ts,block,logIndex",
        '^\\d{1,12},\\d{1,12},\\d{1,9}$',
        'cursor must be a cursor ts,block,logIndex',
      ),
      choiceParam('outcome', 'one outcome only: 0 or 1', ['0', '1']),
      choiceParam('side', 'one side only: BUY or SELL', ['BUY', 'SELL']),
    ],
  },
  fillsFeed: {
    operationId: 'getFillsFeed',
    errors: {
      503: `${TRADES_OFF[503]}; or ${ERROR.heavyBusy}: more than 32 pages and windowed leaderboards wait for the thread that reads them (Retry-After: 1)`,
    },
    tag: 'Markets',
    summary:
      'Every fill of 1 to 100 markets in a window of at most 7 days, oldest first, as rows of 11 integers (gzipped when gzip is accepted)',
    answer: FillsFeedAnswer,
    query: [
      textParam(
        'markets',
        '1 to 100 condition ids, comma separated, no spaces, no repeats',
        `^${CONDITION}(,${CONDITION})*$`,
        FEED_ERRORS.markets,
      ),
      textParam('from', 'Unix seconds, inclusive', '^\\d{1,15}$', 'from must be Unix seconds'),
      textParam('to', 'Unix seconds, exclusive; at most 604,800 after from', '^\\d{1,15}$', 'to must be Unix seconds'),
      textParam('limit', 'rows, 1 to 50,000 (refused outside), default 10,000', '^\\d{1,15}$', FEED_ERRORS.limit),
      textParam(
        'cursor',
        "the previous page's `next`: ts,block,logIndex",
        '^\\d{1,12},\\d{1,12},\\d{1,9}$',
        "cursor must be the previous page's next: ts,block,logIndex",
      ),
    ],
  },
  eventHeat: {
    operationId: 'getEventHeat',
    errors: TRADES_OFF,
    tag: 'Markets',
    summary: 'Distinct wallets per event over the window, busiest first, measured once a minute',
    answer: EventHeatAnswer,
    query: [choiceParam('window', '`1h`, `6h` or `24h` (default)', ['1h', '6h', '24h']), limit(500, '50')],
  },
  walletStats: {
    operationId: 'getWalletStats',
    errors: BOARD_NOT_BUILT,
    tag: 'Wallets',
    summary: "A wallet's leaderboard row in a category, for the lifetime or a window",
    answer: WalletStatsAnswer,
    query: [...periodParams, boardCategory],
  },
  walletCategories: {
    operationId: 'getWalletCategories',
    errors: BOARD_NOT_BUILT,
    tag: 'Wallets',
    summary: "A wallet's leaderboard rows, one per category it traded in the window, biggest realized PnL first",
    answer: WalletCategoriesAnswer,
    query: periodParams,
  },
  leaderboard: {
    operationId: 'getLeaderboard',
    errors: {
      503: `${ERROR.boardNotBuilt}: no rollup has run yet (one runs after each fold); or ${ERROR.heavyBusy}: more than 32 leaderboards over a window other than the lifetime and fills pages wait for the thread that reads them (Retry-After: 1)`,
    },
    tag: 'Leaderboard',
    summary: "Every wallet's leaderboard row in a category and window, best first",
    answer: LeaderboardAnswer,
    query: [
      ...periodParams,
      boardCategory,
      choiceParam('sort', '`totalPnl` (default), `realizedPnl`, `volume` or `roi`', [...BOARD_SORTS]),
      limit(500, '100'),
      offset,
    ],
  },
  walletTags: {
    operationId: 'getWalletTags',
    errors: { 503: `${ERROR.noTagsRun}: the fold has not passed a UTC midnight yet (or trades are off)` },
    tag: 'Wallets',
    summary:
      'The latest daily wallet-tag run whole (rules version 1, the 7 days before its UTC midnight); ETag, 304 on If-None-Match',
    answer: WalletTagsAnswer,
    query: [],
  },
  walletProfiles: {
    operationId: 'getWalletProfiles',
    errors: { 503: `${ERROR.profilesOff}: no profile source was loaded (tally profiles --file F | --url U)` },
    tag: 'Wallets',
    summary: 'Names and avatars of up to 300 wallets: a profile, or null when the source has none',
    answer: WalletProfilesAnswer,
    query: [
      textParam(
        'wallets',
        'up to 300 0x addresses, comma separated; malformed entries are skipped (left out of the answer)',
      ),
    ],
  },
  cryptoStrikes: {
    operationId: 'getCryptoStrikes',
    tag: 'Crypto Strikes',
    summary:
      "Crypto Up/Down rounds, newest start first: strike and close from the price feed, the outcome they imply, the market's resolution",
    answer: CryptoStrikesAnswer,
    query: [
      textParam(
        'asset',
        '`BTC`, `ETH`, `SOL` or `XRP` (any letter case); every asset when left out',
        '^[A-Za-z]{3}$',
        ERROR.badStrikeAsset,
      ),
      integerParam('from', 'rounds starting at or after, Unix seconds', { minimum: 0 }),
      integerParam('to', 'rounds starting before, Unix seconds', { minimum: 0 }),
      limit(1000, '100'),
      offset,
    ],
  },
  openApi: {
    operationId: 'getOpenApi',
    tag: 'Health',
    summary: 'This document',
    query: [],
    answer: Type.Object({ openapi: Type.String() }),
  },
} satisfies Record<string, RouteDoc>;
