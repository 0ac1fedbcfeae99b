// `tally ingest --capture FILE [--metadata FILE]`: fold a capture file (and load market metadata). With neither,
// fold what the log holds beyond the state (after a killed ingest or a full disk).
// A capture that holds more of the log's last block than the log does (an earlier capture ended inside that
// block) is folded whole: the log and state go back to the block before (tally rewind) and the capture is read
// again, so the block is folded as a fresh fold would; that costs a refold of the whole log, and says so. The
// capture is checked whole first: one it refuses leaves the log and state as they were.
import { listRoundMarkets } from '../../engine/offchain/roundMarkets.js';
import { createStateReader } from '../../engine/state/stateReader.js';
import { checkCaptureLines } from '../../replay/ingest/checkCaptureLines.js';
import { ingestCapture } from '../../replay/ingest/ingestCapture.js';
import { BlockContinuedError } from '../../replay/source/blockContinuedError.js';
import { foldWithProgress } from '../foldWithProgress.js';
import { createProgress } from '../progress.js';
import { openVenue, type Venue } from '../openVenue.js';
import { readMetadataFile, storeMetadata } from './metadataCommand.js';
import { rewindCommand } from './rewindCommand.js';
import { rollUpBoardOnce } from '../rollUpBoard.js';
import { checkInputFile } from '../checkInputFile.js';

interface IngestFlags {
  data: string;
  capture?: string;
  metadata?: string;
  workers?: number;
  batchLogs?: number;
  releaseEvery?: number;
  positionCache?: number;
  /** Never backfill (engine/README.md, Backfill). */
  live?: boolean;
}

const venueOptions = (flags: IngestFlags) => ({
  workers: flags.workers,
  positionCache: flags.positionCache,
  backfill: !flags.live,
});

export async function ingestCommand(flags: IngestFlags): Promise<void> {
  // The inputs are checked before the venue is opened: one the user named wrong creates no data directory.
  if (flags.capture) checkInputFile(flags.capture, 'capture');
  const markets = flags.metadata ? readMetadataFile(flags.metadata, 'metadata') : null;
  let venue = openVenue(flags.data, venueOptions(flags));
  try {
    if (markets) await storeMetadata(venue.offchain, markets, flags.metadata!);
    if (!flags.capture) {
      await catchUp(venue);
      await rollUpBoardOnce(venue.paths, 'ingest');
      return;
    }
    try {
      await foldCapture(venue, flags, flags.capture);
    } catch (error) {
      if (!(error instanceof BlockContinuedError)) throw error;
      // The whole capture is checked before anything is undone: a capture refused further on changes nothing.
      checkCaptureLines({ capturePath: flags.capture, configPath: venue.paths.config });
      process.stderr.write(
        `ingest: ${error.message}; folding block ${error.block} again whole, from block ${error.block - 1} (a refold of the log)\n`,
      );
      await venue.close();
      await rewindCommand({ data: flags.data, toBlock: error.block - 1, workers: flags.workers });
      venue = openVenue(flags.data, venueOptions(flags));
      await foldCapture(venue, flags, flags.capture);
    }
    await rollUpBoardOnce(venue.paths, 'ingest');
  } finally {
    await venue.close();
  }
}

async function foldCapture(venue: Venue, flags: IngestFlags, capture: string): Promise<void> {
  const progress = createProgress('ingest');
  const result = await ingestCapture({
    capturePath: capture,
    configPath: venue.paths.config,
    store: venue.store,
    log: venue.log,
    runner: venue.runner,
    batchLogs: flags.batchLogs,
    releaseEveryEvents: flags.releaseEvery,
    onProgress: (p) => progress.update(p.logs, { logs: p.logs, events: p.events, block: p.lastBlock }),
  });
  progress.finish({
    logs: result.logs,
    events: result.events,
    blocks: result.blocks,
    'already in log': result.existing,
    'last block': venue.runner.cursor().block,
    'skipped logs': JSON.stringify(result.skipped ?? {}),
    'events without effect': JSON.stringify(venue.runner.skipped),
  });
  if (result.handOff) {
    const { positions, runFiles, seconds } = result.handOff;
    process.stderr.write(
      `ingest: backfilled; positions built from the working table: ${positions} positions, ${runFiles} sorted runs on disk, in ${seconds.toFixed(1)} s\n`,
    );
  }
  reportUnknownTopics(venue);
  reportMissingFeeds(venue);
  if (result.lines === 0) process.stderr.write(`ingest: ${capture} holds no log lines: nothing was folded\n`);
  else if (venue.log.head().block < 0) {
    process.stderr.write(
      `ingest: none of the ${result.lines} logs of ${capture} is a venue event at the configured contract addresses (${venue.paths.config} may set them): the venue is still empty\n`,
    );
  }
}

/** Logs of Protocol V2 contracts whose topic tally does not know: said at the end, never dropped in silence. */
function reportUnknownTopics(venue: Venue): void {
  const counts = Object.entries(createStateReader(venue.store).unknownTopics());
  if (counts.length === 0) return;
  const total = counts.reduce((sum, [, count]) => sum + count, 0);
  process.stderr.write(
    `ingest: ${total} log${total > 1 ? 's' : ''} of Protocol V2 contracts carry topics tally does not know (an upgraded contract?): ` +
      `${counts.map(([topic, count]) => `${topic} (${count})`).join(', ')}; /v1/health lists them\n`,
  );
}

/**
 * Crypto rounds of an asset no price feed is known for: a capture cannot find the proxies' aggregators (docs/design.md
 * 6), so say how to supply them.
 */
function reportMissingFeeds(venue: Venue): void {
  const covered = new Set(Object.values(venue.addresses.priceFeeds));
  const assets = new Set(listRoundMarkets(venue.offchain).map((round) => round.asset));
  const missing = [...assets].filter((asset) => !covered.has(asset)).sort();
  if (missing.length === 0) return;
  process.stderr.write(
    `ingest: no price feed is known for ${missing.join(', ')}, whose Up/Down rounds the metadata lists: their ` +
      `proxies' aggregators are found by tally ingest --rpc URL (once), or name them in ${venue.paths.config} ` +
      `(addresses.priceFeeds: { "0xaggregator": "BTC" }); until then their rounds' strikes come only from ` +
      `reports or the metadata\n`,
  );
}

async function catchUp(venue: Venue): Promise<void> {
  const events = await foldWithProgress(venue.log, venue.runner, 'ingest');
  if (events === 0) {
    process.stderr.write(
      `ingest: the state already holds every block of the log (through block ${venue.runner.cursor().block}); give --capture FILE or --rpc URL to add logs\n`,
    );
  }
}
