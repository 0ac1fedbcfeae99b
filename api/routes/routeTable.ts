// Every route, one line each (docs/recipes.md, Add a route), the /v1 ones and the Data API shapes: the serving
// threads answer them in this order of registration, the heavy-work thread opens the heavy ones, the OpenAPI
// document lists them.
import { closedPositionsRoute } from './closedPositionsRoute.js';
import { cryptoStrikesRoute } from './cryptoStrikesRoute.js';
import { eventHeatRoute } from './eventHeatRoute.js';
import { eventRoute } from './eventRoute.js';
import { fillsFeedRoute } from './fillsFeedRoute.js';
import { healthRoute } from './healthRoute.js';
import { holderLinesRoute } from './holderLinesRoute.js';
import { leaderboardRoute } from './leaderboardRoute.js';
import { marketRoute } from './marketRoute.js';
import { marketSearchRoute } from './marketSearchRoute.js';
import { marketTradersRoute } from './marketTradersRoute.js';
import { marketTradesRoute } from './marketTradesRoute.js';
import { readyRoute } from './readyRoute.js';
import type { Route } from './route.js';
import { topTradersRoute } from './topTradersRoute.js';
import { tradeCountsRoute } from './tradeCountsRoute.js';
import { walletCategoriesRoute } from './walletCategoriesRoute.js';
import { walletPositionsRoute } from './walletPositionsRoute.js';
import { walletProfilesRoute } from './walletProfilesRoute.js';
import { walletStatsRoute } from './walletStatsRoute.js';
import { walletTagsRoute } from './walletTagsRoute.js';
import { walletTradesRoute } from './walletTradesRoute.js';
import { venueActivityRoute } from './venueActivityRoute.js';
import { venueLeaderboardRoute } from './venueLeaderboardRoute.js';
import { venueClosedPositionsRoute } from './venueClosedPositionsRoute.js';
import { venueHoldersRoute } from './venueHoldersRoute.js';
import { venuePositionsRoute } from './venuePositionsRoute.js';
import { venueTradedRoute } from './venueTradedRoute.js';
import { venueTradesRoute } from './venueTradesRoute.js';
import { venueValueRoute } from './venueValueRoute.js';

export const ROUTES: readonly Route[] = [
  walletTagsRoute,
  healthRoute,
  readyRoute,
  walletPositionsRoute,
  closedPositionsRoute,
  walletTradesRoute,
  marketSearchRoute,
  marketRoute,
  marketTradersRoute,
  topTradersRoute,
  holderLinesRoute,
  tradeCountsRoute,
  marketTradesRoute,
  fillsFeedRoute,
  eventHeatRoute,
  eventRoute,
  walletStatsRoute,
  walletCategoriesRoute,
  walletProfilesRoute,
  cryptoStrikesRoute,
  leaderboardRoute,
  // The venue's Data API shapes, at its paths (docs/venue-api.md).
  venuePositionsRoute,
  venueClosedPositionsRoute,
  venueValueRoute,
  venueTradedRoute,
  venueHoldersRoute,
  venueTradesRoute,
  venueActivityRoute,
  venueLeaderboardRoute,
];
