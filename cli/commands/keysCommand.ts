// `tally keys create | add KEY | revoke KEY | list`. create prints the new key as its last line; add stores a key
// made elsewhere (servers that share no publisher: a publisher's keys reach its replicas through the stream); revoke
// takes the whole key or a prefix that `list` shows, when it names one key alone; none creates a data directory.
import { existsSync } from 'node:fs';
import { RefusedError } from '../../engine/refusedError.js';
import { UsageError } from '../usageError.js';
import { dataPaths } from '../../engine/dataDir.js';
import {
  addApiKey,
  API_KEY_PATTERN,
  createApiKey,
  PREFIX_CHARS,
  findApiKeysByPrefix,
  listApiKeys,
  revokeApiKey,
} from '../../engine/offchain/apiKeys.js';
import { openOffchainStore, type OffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { requireDataDir } from '../requireDataDir.js';

const USAGE = 'keys needs an action: tally keys create | add KEY | revoke KEY | list';
const PREFIX_PATTERN = /^svc_[0-9a-f]{0,48}$/;

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

export async function keysCommand(flags: { data: string }, args: string[]): Promise<void> {
  const [action, key, extra] = args;
  if (action !== 'create' && action !== 'add' && action !== 'revoke' && action !== 'list') {
    throw new UsageError(action === undefined ? USAGE : `keys: unknown action ${action}; ${USAGE}`);
  }
  const takesKey = action === 'revoke' || action === 'add';
  if (extra !== undefined || (!takesKey && key !== undefined))
    throw new UsageError(`keys ${action}: unexpected argument ${extra ?? key}`);
  if (action === 'revoke' && key === undefined)
    throw new UsageError('keys revoke needs a key, or a prefix of one that keys list shows');
  if (action === 'add' && (key === undefined || !API_KEY_PATTERN.test(key)))
    throw new UsageError('keys add needs a whole key (svc_ and 48 hex), as tally keys create printed it elsewhere');
  const dir = dataPaths(flags.data).offchain;
  if (action === 'create' || action === 'add') requireDataDir(flags.data);
  else if (!existsSync(dir))
    throw new RefusedError(`${flags.data} holds no keys (no ${dir}): tally keys create makes one`);
  const offchain = openOffchainStore({ dir });
  const now = Math.floor(Date.now() / 1000);
  try {
    if (action === 'create') console.log(await createApiKey(offchain, now));
    else if (action === 'add') {
      const added = await addApiKey(offchain, key!, now);
      console.log(`${added ? 'added' : 'already held:'} ${key!.slice(0, PREFIX_CHARS)}...`);
    } else if (action === 'list') {
      const keys = listApiKeys(offchain);
      for (const k of keys)
        console.log(`${k.prefix}... created ${iso(k.createdAt)}${k.revokedAt ? ' revoked ' + iso(k.revokedAt) : ''}`);
      if (keys.length === 0)
        process.stderr.write(`keys: ${flags.data} holds no keys yet: tally keys create makes one\n`);
    } else {
      const revoked = await revokeKey(offchain, key!.replace(/\.\.\.$/, ''), now);
      console.log(`revoked ${revoked}...`);
    }
  } finally {
    await offchain.close();
  }
}

/** Revokes the key given whole or by a unique prefix; answers the revoked key's prefix. */
async function revokeKey(offchain: OffchainStore, given: string, now: number): Promise<string> {
  if (API_KEY_PATTERN.test(given)) {
    const prefix = await revokeApiKey(offchain, given, now);
    if (prefix === null) throw new RefusedError('keys revoke: no such key');
    return prefix;
  }
  if (!PREFIX_PATTERN.test(given))
    throw new RefusedError(`keys revoke: ${given} is neither a key (svc_ and 48 hex) nor a prefix of one`);
  const matches = findApiKeysByPrefix(offchain, given);
  if (matches === 'too long')
    throw new RefusedError(
      `keys revoke: ${given} is longer than the prefixes tally keeps; give the whole key or the prefix keys list shows`,
    );
  if (matches.length === 0) throw new RefusedError(`keys revoke: no key starts with ${given}`);
  if (matches.length > 1)
    throw new RefusedError(`keys revoke: ${matches.length} keys start with ${given}; give more of the key`);
  await revokeApiKey(offchain, matches[0]!, now);
  return given;
}
