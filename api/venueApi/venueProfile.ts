// A wallet's profile fields in the Data API's shapes (docs/venue-api.md): from the profiles `tally profiles`
// loaded, "" where it has none (tally keeps no bio; the optimized image is the image).
import type { RouteContext } from '../routeContext.js';
import { readWalletProfile } from '../../engine/offchain/openOffchainStore.js';

export function venueProfile(ctx: RouteContext, wallet: string) {
  const profile = readWalletProfile(ctx.offchain, wallet);
  return {
    name: profile?.name ?? '',
    pseudonym: profile?.pseudonym ?? '',
    bio: '',
    profileImage: profile?.image ?? '',
    profileImageOptimized: profile?.image ?? '',
  };
}
