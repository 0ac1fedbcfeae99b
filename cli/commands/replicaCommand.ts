// `tally replica --nats URL` (replay/README.md, Replicas): a server that folds a publisher's stream instead of a
// chain. It reads from the sequence its state holds, folds each frame into the same state a plain ingest of the
// publisher's source would hold (the per-block checksums say so, and /v1/health shows them with the sequence),
// and serves /v1 as `serve` does meanwhile. A NATS server down is waited out; a consumer it took with it is
// made anew (replay/stream/readLogStream.ts). SIGINT/SIGTERM stop it cleanly.
import { cleanUpMadeDataDir } from './cleanUpMadeDataDir.js';
import { loadFoldOptions } from '../../engine/foldOptions.js';
import { createBoardRollup } from '../../engine/rollup/createBoardRollup.js';
import { connectNats } from '../../replay/stream/connectNats.js';
import { foldSettingsDigest } from '../../replay/stream/foldSettingsDigest.js';
import { DEFAULT_STREAM, logStreamNames } from '../../replay/stream/logStream.js';
import { watchStreamHead } from '../../replay/stream/watchStreamHead.js';
import { openVenue } from '../openVenue.js';
import { rollUpBoard } from '../rollUpBoard.js';
import { replicaStart, replicateStream } from './replicateStream.js';
import { startFoldingServer } from './serveCommand.js';

/**
 * The board's rollup at rest: once a minute at most, unless off-chain data changed or it is the first; one put off
 * runs when the minute is up if the stream is still quiet.
 */
const ROLLUP_EVERY_MS = 60_000;

interface ReplicaFlags {
  data: string;
  nats: string;
  stream?: string;
  host: string;
  port: number;
  workers?: number;
  threads?: number;
  accessLog?: boolean;
  /** A consumer silent this long while the stream holds more is taken for stalled. */
  stallMs: number;
}

/** A directory made for the replica is removed when it fails before logging anything (no NATS server). */
export function replicaCommand(flags: ReplicaFlags): Promise<void> {
  return cleanUpMadeDataDir(flags.data, () => replicate(flags));
}

async function replicate(flags: ReplicaFlags): Promise<void> {
  const names = logStreamNames(flags.stream ?? DEFAULT_STREAM);
  const venue = openVenue(flags.data, { workers: flags.workers });
  try {
    // Refused before anything listens: a directory of another stream, or not a replica's.
    const start = replicaStart(venue, names);
    const link = await connectNats(flags.nats, 'replica');
    // The board alone: the wallet tags are the publisher's runs, as the stream brings them.
    const rollup = createBoardRollup(
      { stateDir: venue.paths.state, offchainDir: venue.paths.offchain, logDir: venue.paths.log },
      { tagRuns: false },
    );
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      const server = await startFoldingServer(venue, flags);
      console.log(
        `tally replica: serving ${flags.data} on http://${flags.host}:${server.port}/v1, reading stream ${names.stream} after sequence ${start.afterSequence}`,
      );
      let rolledUpAt = -Infinity;
      const stopWatching = watchStreamHead(link, names, venue.store);
      try {
        await replicateStream(venue, {
          link,
          names,
          start,
          foldSettings: foldSettingsDigest(venue.addresses, loadFoldOptions(venue.paths.config)),
          stallMs: flags.stallMs,
          signal: controller.signal,
          onRecreate: (reason) => process.stderr.write(`replica: ${reason}; reading the stream anew\n`),
          atRest: async (offchainChanged, progress) => {
            // Nothing folded yet (the stream began with off-chain changes): no board to roll up.
            if (progress.block < 0) return undefined;
            // Too soon after the last: put off until the minute is up, so a board never stays behind a quiet stream.
            const sinceMs = Date.now() - rolledUpAt;
            if (!offchainChanged && sinceMs < ROLLUP_EVERY_MS) return ROLLUP_EVERY_MS - sinceMs;
            rolledUpAt = Date.now();
            await rollUpBoard(rollup, 'replica');
            return undefined;
          },
        });
      } finally {
        await stopWatching();
        await server.closeAll();
      }
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      await rollup.close();
      await link.close();
    }
  } finally {
    await venue.close();
  }
}
