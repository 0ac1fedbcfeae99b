// GET /v1/leaderboard in the venue's Data API shape (docs/venue-api.md, Leaderboard): the path of tally's own board,
// answered in that API's rows when the request names one of its parameters (timePeriod, orderBy, user, userName),
// from the same rollup and rankings; the offset is not capped.
import Type, { type Static } from 'typebox';
import { AssertionFailure } from '../../engine/assert.js';
import { ID_SPACE } from '../../engine/log/idDictionary.js';
import { CATEGORIES } from '../../engine/offchain/marketMetadata.js';
import { boardCategoryOf, GLOBAL } from '../../engine/rollup/boardCategories.js';
import { askedWindow } from '../board/boardWindow.js';
import { createBoardRankings } from '../board/boardRankings.js';
import { boardRowView } from '../board/boardRowView.js';
import { requireBoard, walletRowIn } from '../board/readBoard.js';
import { ERROR_DOCS } from '../errorTexts.js';
import { choiceParam, clampedParam, textParam } from '../query/queryParams.js';
import { VenueLeaderboardRow } from '../schemas/venueSchemas.js';
import { venueAnswer } from '../venueApi/venueAnswer.js';
import { venueProfile } from '../venueApi/venueProfile.js';
import { OFFSET_PARAM, USER_PARAM } from '../venueApi/venueQuery.js';
import type { RouteContext } from '../routeContext.js';
import { walletsNamed } from '../../engine/offchain/openOffchainStore.js';
import { defineRoute } from './route.js';

type Row = Static<typeof VenueLeaderboardRow>;

/** The Data API's windows, as the board's periods. */
const PERIODS = { DAY: '1d', WEEK: '7d', MONTH: '30d', ALL: 'all' } as const;
/** Its orders, as the board's sorts: PnL is realized plus unrealized, volume the USD bought and sold. */
const ORDERS = { PNL: 'totalPnl', VOL: 'volume' } as const;
/** Its categories: OVERALL is the board's `global`, the nine are the board's own. */
const CATEGORY_NAMES = ['OVERALL', ...CATEGORIES.map((name) => name.toUpperCase())];

export const venueLeaderboardRoute = defineRoute({
  pattern: '/v1/leaderboard',
  operationId: 'getVenueLeaderboard',
  tag: 'Data API shapes',
  summary: "The venue's Data API /v1/leaderboard: wallets ranked by PnL or volume in a window, in that API's rows",
  claimedBy: ['timePeriod', 'orderBy', 'user', 'userName'],
  errors: {
    503: `${ERROR_DOCS.boardNotBuilt[503]}; or ${ERROR_DOCS.heavyBusy[503]}`,
  },
  query: {
    category: choiceParam(`${CATEGORY_NAMES.join(', ')}; default OVERALL`, CATEGORY_NAMES, 'OVERALL'),
    timePeriod: choiceParam(
      'DAY (default), WEEK, MONTH or ALL',
      Object.keys(PERIODS) as (keyof typeof PERIODS)[],
      'DAY',
    ),
    orderBy: choiceParam('PNL (default) or VOL', Object.keys(ORDERS) as (keyof typeof ORDERS)[], 'PNL'),
    limit: clampedParam('rows, 1 to 50 (out of range is clamped), default 25', 1, 50, 25),
    offset: OFFSET_PARAM,
    user: USER_PARAM,
    userName: textParam(
      "a loaded profile's name (any letter case): that wallet's row",
      '^.{1,100}$',
      'userName is 1 to 100 characters',
    ),
  },
  answer: Type.Array(VenueLeaderboardRow),
  // A window other than the lifetime sums every wallet's market results; a name is looked for among the profiles.
  heavy: (query) => query.timePeriod !== 'ALL' || query.userName !== undefined,
  open: (ctx) => ({ ctx, rankings: createBoardRankings(ctx.state) }),
  handle({ ctx, rankings }, request) {
    const { query } = request;
    const info = requireBoard(ctx);
    const asked = askedWindow({ period: PERIODS[query.timePeriod] }, info.asOf);
    const category = query.category === 'OVERALL' ? GLOBAL : boardCategoryOf(query.category)!;
    const order = rankings.order(info, asked, category, ORDERS[query.orderBy]);
    const rowAt = (at: number): Row => {
      const walletId = order[at]!;
      const wallet = ctx.state.idText(ID_SPACE.address, walletId);
      const row = walletRowIn(ctx, walletId, asked, category);
      if (!row) throw new AssertionFailure(`board: wallet ${walletId} is ranked in category ${category} without a row`);
      const view = boardRowView(ctx, wallet, '', info.asOf, row);
      const profile = venueProfile(ctx, wallet);
      return {
        rank: String(at + 1),
        proxyWallet: wallet,
        userName: profile.name,
        xUsername: '',
        verifiedBadge: false,
        vol: view.volume,
        pnl: view.totalPnl,
        profileImage: profile.profileImage,
      };
    };
    const wanted = namedWallets(ctx, query.user, query.userName);
    const rows: Row[] = [];
    if (wanted === null)
      for (let at = query.offset; at < Math.min(order.length, query.offset + query.limit); at++) rows.push(rowAt(at));
    else
      for (const walletId of wanted) {
        const at = order.indexOf(walletId);
        if (at >= 0) rows.push(rowAt(at));
      }
    return venueAnswer(rows, info.block);
  },
});

/** The wallet ids `user` and `userName` name (both: the wallets both name), null when neither is given. */
function namedWallets(ctx: RouteContext, user: string | undefined, userName: string | undefined): number[] | null {
  if (user === undefined && userName === undefined) return null;
  const named = userName === undefined ? null : walletsNamed(ctx.offchain, userName);
  const wallets =
    user === undefined ? named! : named === null || named.includes(user.toLowerCase()) ? [user.toLowerCase()] : [];
  return wallets.flatMap((wallet) => {
    const id = ctx.state.idNumber(ID_SPACE.address, wallet);
    return id === null ? [] : [id];
  });
}
