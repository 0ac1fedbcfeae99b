// `tally metadata --file F | --url U`: load the venue's market objects (Gamma shape) into the off-chain store.
// The source is read and parsed before the store is opened, so one that cannot be read, or that holds no market
// object, leaves the data directory untouched; the directory must exist (cli/requireDataDir.ts).
import { readFileSync } from 'node:fs';
import { dataPaths } from '../../engine/dataDir.js';
import { parseMetadataText, type MarketMetadata } from '../../engine/offchain/marketMetadata.js';
import { bumpOffchainRevision, openOffchainStore, type OffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { encodeValue } from '../../engine/state/stateCodec.js';
import { checkInputFile } from '../checkInputFile.js';
import { fetchText } from '../fetchText.js';
import { isEmptyDataDir } from '../openVenue.js';
import { requireDataDir } from '../requireDataDir.js';
import { rollUpBoardUnlessFolding } from '../rollUpBoard.js';

/** The market objects of a file named by `--flag`, refused in one line when it cannot be read or holds none. */
export function readMetadataFile(file: string, flag: string): MarketMetadata[] {
  checkInputFile(file, flag);
  return parseMetadataText(readFileSync(file, 'utf8'), file);
}

export async function storeMetadata(offchain: OffchainStore, markets: MarketMetadata[], source: string): Promise<void> {
  await offchain.env.transaction(() => {
    for (const market of markets) offchain.metadata.put(market.conditionId, encodeValue(market));
    bumpOffchainRevision(offchain);
  });
  process.stderr.write(`metadata: ${markets.length} markets from ${source}\n`);
}

export async function metadataCommand(flags: { data: string; file?: string; url?: string }): Promise<void> {
  requireDataDir(flags.data);
  const source = flags.file ?? flags.url!;
  const markets = flags.file
    ? readMetadataFile(flags.file, 'file')
    : parseMetadataText(await fetchText(flags.url!), flags.url!);
  const offchain = openOffchainStore({ dir: dataPaths(flags.data).offchain });
  try {
    await storeMetadata(offchain, markets, source);
  } finally {
    await offchain.close();
  }
  // Categories and best/worst markets come from the metadata: the board is rolled up again with it.
  if (!isEmptyDataDir(flags.data) && !(await rollUpBoardUnlessFolding(dataPaths(flags.data), 'metadata'))) {
    process.stderr.write('metadata: the process folding this venue rolls the leaderboard up with it after its next batch\n');
  }
}
