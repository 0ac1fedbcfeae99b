// `tally replica --nats URL` (replay/README.md, Replicas): a server that folds a publisher's stream instead of a
// chain. It reads from the sequence its state holds, folds each frame into the same state a plain ingest of the
// publisher's source would hold (the per-block checksums say so, and /v1/health shows them with the sequence),
// and serves /v1 as `serve` does meanwhile. A NATS server down is waited out; a consumer it took with it is
// made anew (replay/stream/readLogStream.ts). SIGINT/SIGTERM stop it cleanly.
import { loadFoldOptions } from '../../engine/foldOptions.js';
import { createBoardRollup } from '../../engine/rollup/createBoardRollup.js';
import { connectNats } from '../../replay/stream/connectNats.js';
import { foldSettingsDigest } from '../../replay/stream/foldSettingsDigest.js';
import { DEFAULT_STREAM, logStreamNames } from '../../replay/stream/logStream.js';
import { openVenue } from '../openVenue.js';
import { rollUpBoard } from '../rollUpBoard.js';
import { replicaStart, replicateStream } from './replicateStream.js';
import { startFoldingServer } from './serveCommand.js';

/** The board's rollup at rest: once a minute at most, unless metadata changed or it is the first. */
const ROLLUP_EVERY_MS = 60_000;

export async function replicaCommand(flags: {
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
}): Promise<void> {
  const names = logStreamNames(flags.stream ?? DEFAULT_STREAM);
  const venue = openVenue(flags.data, { workers: flags.workers });
  try {
    // Refused before anything listens: a directory of another stream, or not a replica's.
    const start = replicaStart(venue, names);
    const link = await connectNats(flags.nats, 'replica');
    const rollup = createBoardRollup({
      stateDir: venue.paths.state,
      offchainDir: venue.paths.offchain,
      logDir: venue.paths.log,
    });
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
      try {
        await replicateStream(venue, {
          link,
          names,
          start,
          foldSettings: foldSettingsDigest(venue.addresses, loadFoldOptions(venue.paths.config)),
          stallMs: flags.stallMs,
          signal: controller.signal,
          onRecreate: (reason) => process.stderr.write(`replica: ${reason}; reading the stream anew\n`),
          atRest: async (offchainChanged) => {
            if (!offchainChanged && Date.now() - rolledUpAt < ROLLUP_EVERY_MS) return;
            rolledUpAt = Date.now();
            await rollUpBoard(rollup, 'replica');
          },
        });
      } finally {
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
