// The path parameters ({wallet}, {conditionId}) checked and normalized, and the wallet lists some queries carry.
import { v2IdWord } from '../../engine/chain/v2ChainEvent.js';
import { ApiError } from '../apiError.js';
import type { RouteRequest } from './routeRequest.js';
import { ERROR } from '../errorTexts.js';

export const WALLET_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** The {wallet} path parameter, in any letter case, answered in lowercase. */
export function walletParam(request: Pick<RouteRequest<unknown>, 'parameters'>): string {
  const wallet = request.parameters[0] ?? '';
  if (!WALLET_PATTERN.test(wallet)) throw new ApiError(400, ERROR.badWallet);
  return wallet.toLowerCase();
}

/**
 * A `wallets` list (comma separated): its addresses in lowercase, each once, the first `max` of them; malformed
 * entries are skipped, and a list with no address at all is refused.
 */
export function walletListParam(list: string | undefined, max: number): string[] {
  const wallets = [
    ...new Set(
      (list ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => WALLET_PATTERN.test(entry))
        .map((entry) => entry.toLowerCase()),
    ),
  ].slice(0, max);
  if (wallets.length === 0) throw new ApiError(400, ERROR.badWalletList);
  return wallets;
}

/** A condition id, or a Protocol V2 condition's bytes31 id (docs/design.md 10), as a pattern's text. */
export const CONDITION_ID = '0x(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{62})';
/** Condition ids, comma separated, no spaces. */
export const CONDITION_LIST_PATTERN = `^${CONDITION_ID}(,${CONDITION_ID})*$`;

export const CONDITION_PATTERN = /^0x[0-9a-fA-F]{64}$/;
const V2_CONDITION_PATTERN = /^0x[0-9a-fA-F]{62}$/;

/**
 * The {conditionId} path parameter, in any letter case, as the state keys the market: a condition id (0x + 64 hex),
 * or a Protocol V2 condition's bytes31 id (0x + 62 hex, docs/design.md 10), kept as its 32-byte word. Answers echo the
 * id they show for the market (publicConditionId).
 */
export function conditionParam(request: Pick<RouteRequest<unknown>, 'parameters'>): string {
  const conditionId = request.parameters[0] ?? '';
  if (V2_CONDITION_PATTERN.test(conditionId)) return v2IdWord(conditionId.toLowerCase());
  if (!CONDITION_PATTERN.test(conditionId)) throw new ApiError(400, ERROR.badConditionId);
  return conditionId.toLowerCase();
}
