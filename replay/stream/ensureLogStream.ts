// The publisher's stream: created on first use with file storage on STREAM_REPLICAS servers, or checked to take
// the subjects tally writes (a stream of tally's frames made before the off-chain and tag subjects gains them).
import { JetStreamApiCodes, JetStreamApiError, StorageType } from '@nats-io/jetstream';
import { EnvironmentError } from '../../engine/environmentError.js';
import { RefusedError } from '../../engine/refusedError.js';
import type { NatsLink } from './connectNats.js';
import { retryNats } from './retryNats.js';
import { STREAM_REPLICAS, type LogStreamNames } from './logStream.js';

export async function ensureLogStream(
  link: NatsLink,
  names: LogStreamNames,
  replicas = STREAM_REPLICAS,
  onRetry?: (cause: string) => void,
): Promise<void> {
  try {
    const info = await retryNats(() => link.jsm.streams.info(names.stream), { onRetry });
    const subjects = info.config.subjects ?? [];
    if (!subjects.includes(names.subjects.frames))
      throw new RefusedError(
        `stream ${names.stream} exists but does not take ${names.subjects.frames}: it is not a tally log stream (give another --stream)`,
      );
    const missing = Object.values(names.subjects).filter((subject) => !subjects.includes(subject));
    if (missing.length > 0)
      await retryNats(() => link.jsm.streams.update(names.stream, { subjects: [...subjects, ...missing] }), {
        onRetry,
      });
    return;
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.code !== JetStreamApiCodes.StreamNotFound) throw error;
  }
  try {
    await retryNats(
      () =>
        link.jsm.streams.add({
          name: names.stream,
          subjects: Object.values(names.subjects),
          storage: StorageType.File,
          num_replicas: replicas,
        }),
      { onRetry },
    );
  } catch (error) {
    throw new EnvironmentError(
      `cannot create stream ${names.stream} (file storage, ${replicas} replicas): ${(error as Error).message}`,
    );
  }
}
