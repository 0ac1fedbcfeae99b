// `tally keys create | revoke KEY | list`. create prints the new key as its last line.
import { dataPaths } from '../../dataDir.js';
import { API_KEY_PATTERN, createApiKey, listApiKeys, revokeApiKey } from '../../offchain/apiKeys.js';
import { openOffchainStore } from '../../offchain/openOffchainStore.js';

export async function keysCommand(flags: { data: string }, args: string[]): Promise<void> {
  const [action, key] = args;
  const offchain = openOffchainStore({ dir: dataPaths(flags.data).offchain });
  const now = Math.floor(Date.now() / 1000);
  try {
    if (action === 'create') {
      console.log(await createApiKey(offchain, now));
    } else if (action === 'revoke') {
      if (!key || !API_KEY_PATTERN.test(key)) throw new Error('keys revoke needs a key: svc_ followed by 48 hex');
      if (!(await revokeApiKey(offchain, key, now))) throw new Error('no such key');
      console.log('revoked');
    } else if (action === 'list') {
      for (const k of listApiKeys(offchain)) {
        console.log(`${k.prefix}... created ${new Date(k.createdAt * 1000).toISOString()}${k.revokedAt ? ' revoked ' + new Date(k.revokedAt * 1000).toISOString() : ''}`);
      }
    } else {
      throw new Error('usage: tally keys create | revoke KEY | list');
    }
  } finally {
    await offchain.close();
  }
}
