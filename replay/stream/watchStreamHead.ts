// A replica's view of how far its stream runs ahead of it: every few seconds the stream's last frame chunk names the
// last block published, kept as the source's head (engine/state/sourceHead.ts), so /v1/health's lagBlocks and
// status say when the replica falls behind, as they do for an RPC ingest; a stream that does not answer is kept as
// the source's outage (sourceOutage.ts) until it answers again. The blocks' times do not travel in the stream, so
// the head's time is left 0 (lagSeconds then counts an outage alone).
import type { StateStore } from '../../engine/state/openStateStore.js';
import { writeSourceHead } from '../../engine/state/sourceHead.js';
import { nextOutage, readSourceOutage, writeSourceOutage } from '../../engine/state/sourceOutage.js';
import type { NatsLink } from './connectNats.js';
import { readChunk, type LogStreamNames } from './logStream.js';

/** How often the stream's head is asked for: one small request to the cluster. */
const STREAM_HEAD_EVERY_MS = 2_000;

/** Starts watching; the returned function stops it, once a look under way has ended. */
export function watchStreamHead(link: NatsLink, names: LogStreamNames, store: StateStore): () => Promise<void> {
  let looking: Promise<void> | null = null;
  const look = async (): Promise<void> => {
    try {
      const message = await link.jsm.streams.getMessage(names.stream, { last_by_subj: names.subjects.frames });
      const chunk = message && readChunk(names, message.subject, message.header, message.data.length);
      if (chunk && typeof chunk !== 'string') await writeSourceHead(store, { block: chunk.last, ts: 0 });
      if (readSourceOutage(store) !== null) await writeSourceOutage(store, null);
    } catch (error) {
      const cause = `stream ${names.stream}: ${(error as Error).message}`;
      await writeSourceOutage(store, nextOutage(readSourceOutage(store), cause, Math.floor(Date.now() / 1000)));
    }
  };
  const timer = setInterval(() => {
    looking ??= look().finally(() => (looking = null));
  }, STREAM_HEAD_EVERY_MS);
  return async () => {
    clearInterval(timer);
    await looking;
  };
}
