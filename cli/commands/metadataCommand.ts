// `tally metadata --file F | --url U`: load the venue's market objects (Gamma shape) into the off-chain store; a URL
// is paged through (fetchMarketPages). The source is read and parsed before the store is opened, so one that cannot
// be read, or that holds no market object, leaves the data directory untouched; the directory must exist
// (cli/requireDataDir.ts). Only markets new or changed are written, and only then does the off-chain revision move
// (the server's cached answers go stale) and the board roll up again (its categories come from the metadata).
import { readFileSync } from 'node:fs';
import { dataPaths } from '../../engine/dataDir.js';
import { parseMetadataText, type MarketMetadata } from '../../engine/offchain/marketMetadata.js';
import { openOffchainStore, type OffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { writeOffchain } from '../../engine/offchain/offchainWrites.js';
import { encodeValue } from '../../engine/state/stateCodec.js';
import { checkInputFile } from '../checkInputFile.js';
import { describeRetry } from '../describeRetry.js';
import { fetchMarketPages } from '../fetchMarketPages.js';
import { isEmptyDataDir } from '../openVenue.js';
import { createProgress } from '../progress.js';
import { requireDataDir } from '../requireDataDir.js';
import { rollUpBoardUnlessFolding } from '../rollUpBoard.js';

/** The market objects of a file named by `--flag`, refused in one line when it cannot be read or holds none. */
export function readMetadataFile(file: string, flag: string): MarketMetadata[] {
  checkInputFile(file, flag);
  return parseMetadataText(readFileSync(file, 'utf8'), file);
}

/** How many of the markets stored were not there before, and how many differed from what was. */
export interface StoredMetadata {
  added: number;
  changed: number;
}

export async function storeMetadata(
  offchain: OffchainStore,
  markets: MarketMetadata[],
  source: string,
): Promise<StoredMetadata> {
  const stored: StoredMetadata = { added: 0, changed: 0 };
  await writeOffchain(offchain, (writes) => {
    for (const market of markets) {
      const held = offchain.metadata.getBinary(market.conditionId) !== undefined;
      if (!writes.put('metadata', market.conditionId, encodeValue(market))) continue;
      if (held) stored.changed++;
      else stored.added++;
    }
  });
  const counts = `${stored.added} new, ${stored.changed} changed`;
  process.stderr.write(`metadata: ${markets.length} markets from ${source} (${counts})\n`);
  return stored;
}

/** Pages load quietly for this long: a quick load prints its result alone (and a refusal is its one line). */
const QUIET_MS = 5_000;

/** Every page of the market API at `url`, each retry and (after a few seconds) the pages so far told under `label`. */
export function fetchMetadataPages(url: string, label: string, signal?: AbortSignal): Promise<MarketMetadata[]> {
  const progress = createProgress(label);
  const started = Date.now();
  return fetchMarketPages(url, {
    signal,
    onRetry: (retry) => progress.note(describeRetry(retry)),
    onPage(pages, markets) {
      if (Date.now() - started >= QUIET_MS) progress.update(pages, { pages, markets });
    },
  });
}

export async function metadataCommand(flags: { data: string; file?: string; url?: string }): Promise<void> {
  requireDataDir(flags.data);
  const source = flags.file ?? flags.url!;
  const markets = flags.file ? readMetadataFile(flags.file, 'file') : await fetchMetadataPages(flags.url!, 'metadata');
  const offchain = openOffchainStore({ dir: dataPaths(flags.data).offchain });
  let stored: StoredMetadata;
  try {
    stored = await storeMetadata(offchain, markets, source);
  } finally {
    await offchain.close();
  }
  // Categories and best/worst markets come from the metadata: the board is rolled up again with it.
  if (stored.added + stored.changed === 0 || isEmptyDataDir(flags.data)) return;
  if (!(await rollUpBoardUnlessFolding(dataPaths(flags.data), 'metadata'))) {
    process.stderr.write(
      'metadata: the process folding this venue rolls the leaderboard up with it after its next batch\n',
    );
  }
}
