// `tally metadata --file F | --url U`: load the venue's market objects (Gamma shape) into the off-chain store.
import { readFileSync } from 'node:fs';
import { dataPaths } from '../../engine/dataDir.js';
import { parseMetadataText } from '../../engine/offchain/marketMetadata.js';
import { bumpOffchainRevision, openOffchainStore, type OffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { encodeValue } from '../../engine/state/stateCodec.js';
import { fetchText } from '../fetchText.js';
import { isEmptyDataDir } from '../openVenue.js';
import { rollUpBoardUnlessFolding } from '../rollUpBoard.js';

export async function storeMetadata(offchain: OffchainStore, text: string, source: string): Promise<number> {
  const markets = parseMetadataText(text, source);
  await offchain.env.transaction(() => {
    for (const market of markets) offchain.metadata.put(market.conditionId, encodeValue(market));
    bumpOffchainRevision(offchain);
  });
  return markets.length;
}

export async function loadMetadataFile(offchain: OffchainStore, file: string): Promise<number> {
  const count = await storeMetadata(offchain, readFileSync(file, 'utf8'), file);
  process.stderr.write(`metadata: ${count} markets from ${file}\n`);
  return count;
}

export async function metadataCommand(flags: { data: string; file?: string; url?: string }): Promise<void> {
  // Fetched before the store is opened: a URL that cannot be fetched leaves the data directory untouched.
  const fetched = flags.url ? await fetchText(flags.url) : null;
  const offchain = openOffchainStore({ dir: dataPaths(flags.data).offchain });
  try {
    if (flags.file) await loadMetadataFile(offchain, flags.file);
    if (flags.url) {
      const count = await storeMetadata(offchain, fetched!, flags.url);
      process.stderr.write(`metadata: ${count} markets from ${flags.url}\n`);
    }
  } finally {
    await offchain.close();
  }
  // Categories and best/worst markets come from the metadata: the board is rolled up again with it.
  if (!isEmptyDataDir(flags.data) && !(await rollUpBoardUnlessFolding(dataPaths(flags.data), 'metadata'))) {
    process.stderr.write('metadata: the process folding this venue rolls the leaderboard up with it after its next batch\n');
  }
}
