// GET /v1/wallets/tags (spec 4.10, docs/design.md 6): the latest wallet-tag run whole, one tag a wallet; the answer
// carries an ETag and If-None-Match gets 304 until the next run (createServer). 503 `no wallet-tags run yet`
// before the first run (the rollup makes one once the fold passes a UTC midnight); with the trade store off there
// are no fills to tag: 503 `trades are off`.
import { WalletTagsAnswer } from '../schemas/answerSchemas.js';
import { ApiError } from '../apiError.js';
import { ERROR } from '../errorTexts.js';
import { requireTrades } from '../requireTrades.js';
import { defineRoute } from './route.js';

export const walletTagsRoute = defineRoute({
  pattern: '/v1/wallets/tags',
  operationId: 'getWalletTags',
  errors: { 503: `${ERROR.noTagsRun}: the fold has not passed a UTC midnight yet (or trades are off)` },
  tag: 'Wallets',
  summary:
    'The latest daily wallet-tag run whole (rules version 1, the 7 days before its UTC midnight); ETag, 304 on If-None-Match',
  answer: WalletTagsAnswer,
  query: {},
  etag: true,
  open: (ctx) => ctx,
  handle(ctx) {
    requireTrades(ctx);
    const run = ctx.state.latestTagRun();
    if (run === null) throw new ApiError(503, ERROR.noTagsRun);
    return run;
  },
});
