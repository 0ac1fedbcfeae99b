// `tally profiles --file F | --url U`: wallet profiles in the venue's public-profile shape
// ({ proxyWallet, name, pseudonym, profileImage }), a JSON array.
import { readFileSync } from 'node:fs';
import { dataPaths } from '../../dataDir.js';
import { bumpOffchainRevision, openOffchainStore, type OffchainStore } from '../../offchain/openOffchainStore.js';
import { encodeValue } from '../../state/stateCodec.js';

export async function storeProfiles(offchain: OffchainStore, text: string, source: string): Promise<number> {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(list)) throw new Error(`${source}: expected a JSON array of profiles`);
  let count = 0;
  await offchain.env.transaction(() => {
    for (const entry of list as Array<Record<string, unknown>>) {
      const wallet = String(entry.proxyWallet ?? entry.wallet ?? '').toLowerCase();
      if (!/^0x[0-9a-f]{40}$/.test(wallet)) continue;
      const profile = {
        name: String(entry.name ?? ''), pseudonym: String(entry.pseudonym ?? ''),
        image: typeof entry.profileImage === 'string' && entry.profileImage ? entry.profileImage : null,
      };
      offchain.profiles.put(wallet, encodeValue(profile));
      count++;
    }
    bumpOffchainRevision(offchain);
  });
  return count;
}

export async function profilesCommand(flags: { data: string; file?: string; url?: string }): Promise<void> {
  if (!flags.file && !flags.url) throw new Error('profiles needs --file F or --url U');
  const offchain = openOffchainStore({ dir: dataPaths(flags.data).offchain });
  try {
    const source = flags.file ?? flags.url!;
    let text: string;
    if (flags.file) text = readFileSync(flags.file, 'utf8');
    else {
      const response = await fetch(flags.url!);
      if (!response.ok) throw new Error(`${flags.url}: HTTP ${response.status}`);
      text = await response.text();
    }
    process.stderr.write(`profiles: ${await storeProfiles(offchain, text, source)} wallets from ${source}\n`);
  } finally {
    await offchain.close();
  }
}
