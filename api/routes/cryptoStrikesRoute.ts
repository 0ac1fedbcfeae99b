// GET /v1/crypto/strikes (docs/design.md 5): the crypto Up/Down rounds of the metadata, newest start first, with their
// strike and close from the folded price feeds, the outcome those imply and the market's resolution beside it.
// `asset` (BTC, ETH, SOL, XRP; any letter case; all when left out), `from`/`to` on the round's start (Unix
// seconds, `to` exclusive), `limit` 1-1000 (100, clamped), `offset`.
import { CryptoStrikesAnswer } from '../schemas/answerSchemas.js';
import { ApiError } from '../apiError.js';
import { integerParam, rowsParam, textParam } from '../query/queryParams.js';
import { PAGE_ROWS } from '../apiLimits.js';
import { readServedBlock } from '../readServedState.js';
import { createRoundIndex } from '../strikes/roundIndex.js';
import { roundQuestionId } from '../../engine/chain/roundQuestionId.js';
import { strikeRow } from '../strikes/strikeRow.js';
import { ERROR } from '../errorTexts.js';
import { defineRoute } from './route.js';

const STRIKE_ASSETS = ['BTC', 'ETH', 'SOL', 'XRP'];

export const cryptoStrikesRoute = defineRoute({
  pattern: '/v1/crypto/strikes',
  operationId: 'getCryptoStrikes',
  tag: 'Crypto Strikes',
  summary:
    "Crypto Up/Down rounds, newest start first: strike and close from the price feed, the outcome they imply, the market's resolution",
  answer: CryptoStrikesAnswer,
  query: {
    asset: textParam(
      '`BTC`, `ETH`, `SOL` or `XRP` (any letter case); every asset when left out',
      '^[A-Za-z]{3}$',
      ERROR.badStrikeAsset,
    ),
    from: integerParam('rounds starting at or after, Unix seconds', { minimum: 0, default: 0 }),
    to: integerParam('rounds starting before, Unix seconds', { minimum: 0 }),
    limit: rowsParam(PAGE_ROWS.cryptoStrikes),
    offset: integerParam('rows to skip', { minimum: 0, default: 0 }),
  },
  open: (ctx) => ({ ctx, index: createRoundIndex(ctx.offchain) }),
  handle({ ctx, index }, request) {
    const asset = request.query.asset?.toUpperCase() ?? null;
    if (asset !== null && !STRIKE_ASSETS.includes(asset)) throw new ApiError(400, ERROR.badStrikeAsset);
    const { from, limit, offset } = request.query;
    const to = request.query.to ?? null;
    const served = readServedBlock(ctx.state);
    const rounds = index
      .rounds(ctx.reads.offchainRevision())
      .filter(
        (round) =>
          (asset === null || round.asset === asset) && round.startTs >= from && (to === null || round.startTs < to),
      );
    const rows = rounds
      .slice(offset, offset + limit)
      .map((round) =>
        strikeRow(
          round,
          ctx.reads.market(round.conditionId).market,
          served.blockTs,
          (ts) => ctx.state.feedAnswerAt(round.asset, ts),
          ctx.state.roundReport(roundQuestionId(round)),
        ),
      );
    return {
      block: served.block,
      asset,
      from,
      to,
      total: rounds.length,
      offset,
      rows,
      next: offset + limit < rounds.length ? offset + limit : null,
    };
  },
});
