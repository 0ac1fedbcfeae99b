// GET /v1/wallets/profiles (spec 4.11, docs/design.md 5-6): names and avatars for up to 300 `wallets` (comma
// separated) from the loaded profile source (`tally profiles`). A wallet asked is looked up: its profile, or null
// when the source has none; malformed entries are not looked up and are left out. 503 `wallet profiles are off`
// while no source was ever loaded.
import type { Static } from 'typebox';
import type { WalletProfilesAnswer } from '../schemas/answerSchemas.js';
import { profilesConfigured, readWalletProfile, type WalletProfile } from '../../engine/offchain/openOffchainStore.js';
import { ApiError } from '../apiError.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { ERROR } from '../errorTexts.js';
import { walletListParam } from '../query/readQuery.js';
import type { RouteContext } from '../routeContext.js';

const MAX_PROFILE_WALLETS = 300;

export function walletProfilesRoute(ctx: RouteContext, request: RouteRequest): Static<typeof WalletProfilesAnswer> {
  if (!profilesConfigured(ctx.offchain)) throw new ApiError(503, ERROR.profilesOff);
  const profiles: Record<string, WalletProfile | null> = {};
  for (const wallet of walletListParam(request.query, MAX_PROFILE_WALLETS))
    profiles[wallet] = readWalletProfile(ctx.offchain, wallet);
  return { profiles };
}
