// GET /v1/crypto/strikes (docs/design.md 5): the crypto Up/Down rounds of the metadata, newest start first, with their
// strike and close from the folded price feeds, the outcome those imply and the market's resolution beside it.
// `asset` (BTC, ETH, SOL, XRP; any letter case; all when left out), `from`/`to` on the round's start (Unix
// seconds, `to` exclusive), `limit` 1-1000 (100, clamped), `offset`.
import type { Static } from 'typebox';
import type { CryptoStrikesAnswer } from '../schemas/answerSchemas.js';
import { ApiError } from '../apiError.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { clampedParam, textOf } from '../query/readQuery.js';
import { readServedBlock } from '../readServedState.js';
import type { RouteContext } from '../routeContext.js';
import type { RoundIndex } from '../strikes/roundIndex.js';
import { roundQuestionId } from '../../engine/chain/roundQuestionId.js';
import { strikeRow } from '../strikes/strikeRow.js';
import { ERROR } from '../errorTexts.js';

const STRIKE_ASSETS = ['BTC', 'ETH', 'SOL', 'XRP'];

export function createCryptoStrikesRoute(ctx: RouteContext, index: RoundIndex) {
  return (request: RouteRequest): Static<typeof CryptoStrikesAnswer> => {
    const asset = textOf(request.query, 'asset')?.toUpperCase() ?? null;
    if (asset !== null && !STRIKE_ASSETS.includes(asset)) throw new ApiError(400, ERROR.badStrikeAsset);
    const from = (request.query.from as number | undefined) ?? 0;
    const to = (request.query.to as number | undefined) ?? null;
    const limit = clampedParam(request.query, 'limit', 1, 1000, 100);
    const offset = (request.query.offset as number | undefined) ?? 0;
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
  };
}
