// The Data API's answer shapes (docs/venue-api.md): the fields and types its clients validate, as typebox schemas
// the routes are checked against and the OpenAPI document lists.
import Type from 'typebox';

const ADDRESS = Type.String({ pattern: '^0x[0-9a-f]{40}$' });
const CONDITION = Type.String({ pattern: '^0x[0-9a-f]{64}$' });

/** The market fields the Data API's rows carry, from the metadata, for the row's outcome. */
const MARKET_FIELDS = {
  title: Type.String(),
  slug: Type.String(),
  icon: Type.String(),
  eventSlug: Type.String(),
  outcome: Type.String(),
  outcomeIndex: Type.Integer(),
};

export const VenuePosition = Type.Object({
  proxyWallet: ADDRESS,
  asset: Type.String({ description: 'the token id, decimal' }),
  conditionId: CONDITION,
  size: Type.Number({ description: 'shares held' }),
  avgPrice: Type.Number({ description: "the held shares' cost basis a share, USD" }),
  initialValue: Type.Number({ description: "the held shares' cost basis, USD" }),
  currentValue: Type.Number({ description: 'the held shares at curPrice, USD' }),
  cashPnl: Type.Number({ description: 'currentValue minus initialValue, USD' }),
  percentPnl: Type.Number({ description: 'cashPnl over initialValue, percent (0 when no basis)' }),
  totalBought: Type.Number({ description: 'shares taken in: bought, split and received' }),
  realizedPnl: Type.Number({ description: "tally's realized PnL of the position, USD" }),
  percentRealizedPnl: Type.Number({ description: 'realizedPnl over the USD put in (buys and splits), percent' }),
  curPrice: Type.Number({ description: "the last fill's price of the outcome, or its payout once resolved" }),
  redeemable: Type.Boolean(),
  mergeable: Type.Boolean(),
  ...MARKET_FIELDS,
  oppositeOutcome: Type.String(),
  oppositeAsset: Type.String(),
  endDate: Type.String(),
  negativeRisk: Type.Boolean(),
});

export const VenueValue = Type.Object({
  user: ADDRESS,
  value: Type.Number({ description: 'held positions at curPrice, USD' }),
});

export const VenueTraded = Type.Object({ user: ADDRESS, traded: Type.Integer({ description: 'markets traded' }) });

/** The profile fields the Data API's rows carry. */
const PROFILE = {
  name: Type.String(),
  pseudonym: Type.String(),
  bio: Type.String(),
  profileImage: Type.String(),
  profileImageOptimized: Type.String(),
};

export const VenueHolders = Type.Object({
  token: Type.String({ description: 'the token id, decimal' }),
  holders: Type.Array(
    Type.Object({
      proxyWallet: ADDRESS,
      asset: Type.String(),
      amount: Type.Number({ description: 'shares held' }),
      outcomeIndex: Type.Integer(),
      displayUsernamePublic: Type.Boolean({ description: 'a profile with a name is loaded for the wallet' }),
      ...PROFILE,
    }),
  ),
});

export const VenueTrade = Type.Object({
  proxyWallet: ADDRESS,
  side: Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]),
  asset: Type.String({ description: 'the token id, decimal' }),
  conditionId: CONDITION,
  size: Type.Number({ description: 'shares' }),
  price: Type.Number({ description: 'USD a share' }),
  timestamp: Type.Integer({ description: "the block's time, Unix seconds" }),
  ...MARKET_FIELDS,
  ...PROFILE,
  transactionHash: Type.String(),
});

export const VenueClosedPosition = Type.Object({
  proxyWallet: ADDRESS,
  asset: Type.String({ description: 'the token id, decimal' }),
  conditionId: CONDITION,
  avgPrice: Type.Number({ description: 'the average entry price of every share taken in, USD' }),
  totalBought: Type.Number({ description: 'shares taken in: bought, split and received' }),
  realizedPnl: Type.Number({ description: "the position's settled PnL: realized, and a resolved payout held, USD" }),
  curPrice: Type.Number({ description: "the last fill's price of the outcome, or its payout once resolved" }),
  timestamp: Type.Integer({ description: 'when the position was exited, Unix seconds' }),
  ...MARKET_FIELDS,
  oppositeOutcome: Type.String(),
  oppositeAsset: Type.String(),
  endDate: Type.String(),
});

export const VenueActivity = Type.Object({
  proxyWallet: ADDRESS,
  timestamp: Type.Integer({ description: "the block's time, Unix seconds" }),
  conditionId: Type.String({
    pattern: '^0x[0-9a-f]{64}$',
    description: "the market's condition id; a conversion's neg-risk market id",
  }),
  type: Type.Union([
    Type.Literal('TRADE'),
    Type.Literal('SPLIT'),
    Type.Literal('MERGE'),
    Type.Literal('REDEEM'),
    Type.Literal('CONVERSION'),
  ]),
  size: Type.Number({ description: "shares: a trade's, a split's or merge's sets, a conversion's of each NO leg" }),
  usdcSize: Type.Number({ description: 'USD: paid or received by a trade, put into a split, paid out otherwise' }),
  transactionHash: Type.String(),
  price: Type.Number({ description: "a trade's USD a share; 0 for the other types" }),
  asset: Type.String({ description: "a trade's token id, decimal; empty for the other types" }),
  side: Type.Union([Type.Literal('BUY'), Type.Literal('SELL'), Type.Literal('')]),
  ...MARKET_FIELDS,
  ...PROFILE,
});

export const VenueLeaderboardRow = Type.Object({
  rank: Type.String({ description: "the wallet's place on the board, from 1, as text (as the Data API gives it)" }),
  proxyWallet: ADDRESS,
  userName: Type.String({ description: "the loaded profile's name, empty without one" }),
  xUsername: Type.String({ description: 'empty: tally keeps no X accounts' }),
  verifiedBadge: Type.Boolean({ description: 'false: tally keeps no badges' }),
  vol: Type.Number({ description: 'USD bought and sold in the window' }),
  pnl: Type.Number({ description: "the window's PnL, realized plus unrealized, USD" }),
  profileImage: Type.String({ description: "the loaded profile's image, empty without one" }),
});
