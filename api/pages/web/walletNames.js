// Names of wallets from the server's profile source (/v1/wallets/profiles), asked once per wallet and kept for
// the page's life. A server without profiles answers 503: the pages then show addresses.
import { getJson } from './api.js';

const known = new Map();
let profilesOff = false;
const MAX_WALLETS = 300;

/** Wallet -> display name, for those of `wallets` that have a profile. */
export async function walletNames(wallets) {
  const missing = [...new Set(wallets)].filter((wallet) => !known.has(wallet));
  if (!profilesOff) {
    for (let i = 0; i < missing.length; i += MAX_WALLETS) {
      const batch = missing.slice(i, i + MAX_WALLETS);
      try {
        const { profiles } = await getJson('/wallets/profiles', { wallets: batch.join(',') });
        for (const wallet of batch) known.set(wallet, profiles[wallet] ?? null);
      } catch (error) {
        if (error.status !== 503) throw error;
        profilesOff = true;
        break;
      }
    }
  }
  const names = {};
  for (const wallet of wallets) {
    const profile = known.get(wallet);
    if (profile) names[wallet] = profile.name || profile.pseudonym;
  }
  return names;
}
