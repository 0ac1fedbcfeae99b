// `tally profiles --file F | --url U`: wallet profiles in the venue's public-profile shape
// ({ proxyWallet, name, pseudonym, profileImage }), a JSON array.
import { readFileSync } from 'node:fs';
import { dataPaths } from '../../engine/dataDir.js';
import { openOffchainStore, type OffchainStore, type WalletProfile } from '../../engine/offchain/openOffchainStore.js';
import { PROFILES_SOURCE_KEY } from '../../engine/offchain/offchainDigest.js';
import { writeOffchain } from '../../engine/offchain/offchainWrites.js';
import { encodeValue } from '../../engine/state/stateCodec.js';
import { InputError } from '../../engine/inputError.js';
import { checkInputFile } from '../checkInputFile.js';
import { fetchText } from '../fetchText.js';
import { requireDataDir } from '../requireDataDir.js';

export async function storeProfiles(offchain: OffchainStore, text: string, source: string): Promise<number> {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (error) {
    throw new InputError(source, 0, `not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(list)) throw new InputError(source, 0, 'expected a JSON array of profiles');
  let count = 0;
  await writeOffchain(offchain, (writes) => {
    for (const entry of list as Array<Record<string, unknown>>) {
      const wallet = String(entry.proxyWallet ?? entry.wallet ?? '').toLowerCase();
      if (!/^0x[0-9a-f]{40}$/.test(wallet)) continue;
      const profile: WalletProfile = {
        name: String(entry.name ?? ''),
        pseudonym: String(entry.pseudonym ?? ''),
        image: typeof entry.profileImage === 'string' && entry.profileImage ? entry.profileImage : null,
      };
      writes.put('profiles', wallet, encodeValue(profile));
      count++;
    }
    // A source is configured from then on, even an empty one.
    writes.put('meta', PROFILES_SOURCE_KEY, encodeValue(source));
  });
  return count;
}

export async function profilesCommand(flags: { data: string; file?: string; url?: string }): Promise<void> {
  // Read before the store is opened: a source that cannot be read leaves the data directory untouched.
  requireDataDir(flags.data);
  const source = flags.file ?? flags.url!;
  if (flags.file) checkInputFile(flags.file, 'file');
  const text = flags.file ? readFileSync(flags.file, 'utf8') : await fetchText(flags.url!);
  const offchain = openOffchainStore({ dir: dataPaths(flags.data).offchain });
  try {
    process.stderr.write(`profiles: ${await storeProfiles(offchain, text, source)} wallets from ${source}\n`);
  } finally {
    await offchain.close();
  }
}
