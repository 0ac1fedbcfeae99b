// A wallet's positions for the Data API shapes (readWalletPositions), refused with a 400 past the most a wallet's
// answers read (/v1 answers tooLarge there; these shapes have no field to say it).
import { ApiError } from '../apiError.js';
import { MAX_POSITIONS } from '../apiLimits.js';
import type { RouteContext } from '../routeContext.js';
import { readWalletPositions, type WalletPosition } from '../rows/readWalletPositions.js';

export function readVenuePositions(ctx: RouteContext, wallet: string, held = false): WalletPosition[] {
  const positions = readWalletPositions(ctx, wallet, MAX_POSITIONS, held);
  if (positions === null) throw new ApiError(400, `user holds more than ${MAX_POSITIONS} positions: ask /v1`);
  return positions;
}
