// GET /v1/wallets/profiles (spec 4.11, docs/design.md 5-6): names and avatars for up to 300 `wallets` (comma
// separated) from the loaded profile source (`tally profiles`). A wallet asked is looked up: its profile, or null
// when the source has none; malformed entries are not looked up and are left out. 503 `wallet profiles are off`
// while no source was ever loaded.
import { WalletProfilesAnswer } from '../schemas/answerSchemas.js';
import { profilesConfigured, readWalletProfile, type WalletProfile } from '../../engine/offchain/openOffchainStore.js';
import { ApiError } from '../apiError.js';
import { ERROR } from '../errorTexts.js';
import { walletListParam } from '../query/readQuery.js';
import { textParam } from '../query/queryParams.js';
import { defineRoute } from './route.js';
import { MAX_PROFILE_WALLETS } from '../apiLimits.js';

export const walletProfilesRoute = defineRoute({
  pattern: '/v1/wallets/profiles',
  operationId: 'getWalletProfiles',
  errors: { 503: `${ERROR.profilesOff}: no profile source was loaded (tally profiles --file F | --url U)` },
  tag: 'Wallets',
  summary: 'Names and avatars of up to 300 wallets: a profile, or null when the source has none',
  answer: WalletProfilesAnswer,
  query: {
    wallets: textParam(
      'up to 300 0x addresses, comma separated; malformed entries are skipped (left out of the answer)',
    ),
  },
  open: (ctx) => ctx,
  handle: (ctx, request) => {
    if (!profilesConfigured(ctx.offchain)) throw new ApiError(503, ERROR.profilesOff);
    const profiles: Record<string, WalletProfile | null> = {};
    for (const wallet of walletListParam(request.query.wallets, MAX_PROFILE_WALLETS))
      profiles[wallet] = readWalletProfile(ctx.offchain, wallet);
    return { profiles };
  },
});
