// `tally publish --nats URL` (replay/README.md, Replicas): the ingester of a replicated venue. It folds its own
// data directory as `tally ingest` does (a capture, or the chain with --rpc) and appends each frame its log takes to
// a JetStream stream, after first publishing whatever the log holds beyond the stream (a publisher killed between
// its append and its publish). The stream is created on first use (file storage, 3 replicas). After the frames go
// the off-chain store's changes (the metadata file, when given, is stored here first; keys, profiles and metadata
// that other commands store in this directory, looked for every second while it runs) and the latest tag run.
// With neither a capture nor --rpc it publishes what the directory holds beyond the stream and stops.
import { cleanUpMadeDataDir } from './cleanUpMadeDataDir.js';
import { readFileSync } from 'node:fs';
import { loadFoldOptions } from '../../engine/foldOptions.js';
import { logHeldEntries } from '../../engine/offchain/offchainWrites.js';
import { parseMetadataText } from '../../engine/offchain/marketMetadata.js';
import { ingestCapture } from '../../replay/ingest/ingestCapture.js';
import { connectNats } from '../../replay/stream/connectNats.js';
import { createLogPublisher, type LogPublisher } from '../../replay/stream/createLogPublisher.js';
import { ensureLogStream } from '../../replay/stream/ensureLogStream.js';
import { foldSettingsDigest } from '../../replay/stream/foldSettingsDigest.js';
import { DEFAULT_STREAM, logStreamNames } from '../../replay/stream/logStream.js';
import { checkInputFile } from '../checkInputFile.js';
import { findFeedAggregators } from '../findFeedAggregators.js';
import { openVenue } from '../openVenue.js';
import { createProgress } from '../progress.js';
import { rollUpBoardOnce } from '../rollUpBoard.js';
import { followChainForever } from './followChainForever.js';
import { storeMetadata } from './metadataCommand.js';

/** How often a running publisher looks for off-chain changes and tag runs to send: one LMDB read each. */
const OFFCHAIN_POLL_MS = 1_000;

export interface PublishFlags {
  data: string;
  nats: string;
  stream?: string;
  capture?: string;
  metadata?: string;
  rpc?: string;
  startBlock?: number;
  workers?: number;
  replicas?: number;
  batchLogs?: number;
}

/**
 * Ships frames in the background as the fold appends them, one ship at a time; `settle` waits for the last and
 * throws the first failure.
 */
function createShipper(publisher: LogPublisher) {
  let running: Promise<void> | null = null;
  let again = false;
  let failure: { error: unknown } | null = null;
  const run = async (): Promise<void> => {
    do {
      again = false;
      await publisher.ship();
    } while (again);
  };
  return {
    poke(): void {
      if (failure) return;
      if (running) {
        again = true;
        return;
      }
      running = run()
        .catch((error: unknown) => void (failure ??= { error }))
        .finally(() => (running = null));
    },
    async settle(): Promise<void> {
      while (running) await running;
      if (failure) throw failure.error;
    },
  };
}

/** A directory made for the publish is removed when it fails before logging anything (no NATS server). */
export function publishCommand(flags: PublishFlags): Promise<void> {
  return cleanUpMadeDataDir(flags.data, () => publish(flags));
}

async function publish(flags: PublishFlags): Promise<void> {
  const names = logStreamNames(flags.stream ?? DEFAULT_STREAM);
  if (flags.capture) checkInputFile(flags.capture, 'capture');
  let metadataText: string | null = null;
  if (flags.metadata) {
    checkInputFile(flags.metadata, 'metadata');
    metadataText = readFileSync(flags.metadata, 'utf8');
  }
  const markets = metadataText === null ? null : parseMetadataText(metadataText, flags.metadata!);
  let timer: NodeJS.Timeout | undefined;
  // As `ingest --rpc` and `run` do: the feeds' aggregators, so that the fold decodes their answers (docs/design.md 6).
  if (flags.rpc) await findFeedAggregators(flags.rpc, flags.data, 'publish');
  const venue = openVenue(flags.data, { workers: flags.workers });
  try {
    const link = await connectNats(flags.nats, 'publish');
    try {
      const progress = createProgress('publish');
      const onRetry = (cause: string) =>
        progress.note(`stream ${names.stream} does not answer yet (${cause}); trying again`);
      await ensureLogStream(link, names, flags.replicas, onRetry);
      if (markets) await storeMetadata(venue.offchain, markets, flags.metadata!);
      // A directory whose keys, metadata or profiles were stored before the change log was kept sends them too.
      await logHeldEntries(venue.offchain);
      const publisher = await createLogPublisher({
        link,
        names,
        log: venue.log,
        offchain: venue.offchain,
        state: venue.store,
        foldSettings: foldSettingsDigest(venue.addresses, loadFoldOptions(venue.paths.config)),
        onRetry: (cause) =>
          progress.note(`stream ${names.stream} does not take the append yet (${cause}); trying again`),
      });
      const shipper = createShipper(publisher);
      shipper.poke();
      // What other processes store here (keys, profiles, metadata) and the rollup's tag runs go out within a second.
      timer = setInterval(() => shipper.poke(), OFFCHAIN_POLL_MS);
      if (flags.capture) {
        await ingestCapture({
          capturePath: flags.capture,
          configPath: venue.paths.config,
          store: venue.store,
          log: venue.log,
          runner: venue.runner,
          batchLogs: flags.batchLogs,
          onProgress: (p) => {
            shipper.poke();
            progress.update(p.logs, { logs: p.logs, block: p.lastBlock, published: publisher.publishedThrough() });
          },
        });
        await rollUpBoardOnce(venue.paths, 'publish');
      } else if (flags.rpc) {
        await followChainForever(venue, {
          rpc: flags.rpc,
          startBlock: flags.startBlock,
          label: 'publish',
          onCommitted: () => shipper.poke(),
        });
      }
      clearInterval(timer);
      shipper.poke();
      await shipper.settle();
      progress.finish({
        stream: names.stream,
        sequence: publisher.sequence(),
        'published through block': publisher.publishedThrough(),
        'log through block': venue.log.head().block,
      });
    } finally {
      clearInterval(timer);
      await link.close();
    }
  } finally {
    await venue.close();
  }
}
