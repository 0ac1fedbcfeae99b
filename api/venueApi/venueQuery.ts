// The Data API's query parameters (docs/venue-api.md), as its clients send them: `user` an address, `market` a
// comma-separated list of condition ids, `eventId` one of Gamma event ids, booleans `true`/`false`, enums in capitals.
import { ApiError } from '../apiError.js';
import { choiceParam, integerParam, textParam } from '../query/queryParams.js';
import { WALLET_PATTERN } from '../query/readQuery.js';

const HEX_CONDITION = '0x(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{62})';

export const USER_PARAM = textParam(
  'the wallet (its proxy address): 0x plus 40 hex',
  WALLET_PATTERN.source,
  'user must be 0x plus 40 hex',
);
export const MARKET_LIST_PARAM = textParam(
  'condition ids, comma separated (not with eventId)',
  `^${HEX_CONDITION}(,${HEX_CONDITION})*$`,
  'market must be condition ids (0x plus 64 hex), comma separated',
);
export const EVENT_LIST_PARAM = textParam(
  'Gamma event ids, comma separated (not with market)',
  '^\\d{1,15}(,\\d{1,15})*$',
  'eventId must be event ids (integers), comma separated',
);
export const SORT_DIRECTION_PARAM = choiceParam('`ASC` or `DESC` (default)', ['ASC', 'DESC'], 'DESC');
export const SIDE_PARAM = choiceParam('`BUY` or `SELL`', ['BUY', 'SELL']);
export const TITLE_PARAM = textParam(
  'words of the market title (at most 100 characters)',
  '^.{1,100}$',
  'title is at most 100 characters',
);
export const OFFSET_PARAM = integerParam('rows to skip (not capped)', { minimum: 0, default: 0 });

/** `sortBy`, one of the sorts' names (capitals, as the Data API's), `fallback` when absent. */
export function sortByParam<const S extends string>(sorts: Record<S, string>, fallback: NoInfer<S>) {
  const names = Object.keys(sorts) as S[];
  return choiceParam(`${names.join(', ')}; default ${fallback}`, names, fallback);
}

/** A boolean parameter, `true` or `false`, `fallback` when absent. */
export function booleanParam(description: string, fallback: 'true' | 'false') {
  return choiceParam(description, ['true', 'false'], fallback);
}

/** A non-negative number (shares or USD): decimal text, as the Data API takes it. */
export function amountParam(description: string) {
  return textParam(description, '^\\d{1,15}(\\.\\d{1,12})?$', (name) => `${name} must be a number, 0 or more`);
}

/** The required `user`, lowercase. */
export function requiredUser(user: string | undefined): string {
  if (user === undefined) throw new ApiError(400, 'user is required: 0x plus 40 hex');
  return user.toLowerCase();
}

/** The market and eventId filters, which the Data API refuses together. */
export function marketFilter(market: string | undefined, eventId: string | undefined) {
  if (market !== undefined && eventId !== undefined) throw new ApiError(400, 'give market or eventId, not both');
  return {
    // A 62-hex Protocol V2 condition id as the 32-byte word the answers show it in (venueConditionId).
    markets:
      market === undefined
        ? null
        : new Set(
            market
              .toLowerCase()
              .split(',')
              .map((id) => id.padEnd(66, '0')),
          ),
    events: eventId === undefined ? null : new Set(eventId.split(',').map(Number)),
  };
}
