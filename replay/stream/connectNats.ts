// One connection to a NATS cluster for `tally publish` and `tally replica`: every server named, reconnecting for
// ever (a server down, or the whole cluster for a while, is an outage to wait out, not the end of the process).
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { EnvironmentError } from '../../engine/environmentError.js';
import { retryNats } from './retryNats.js';

export interface NatsLink {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** The largest message the server takes. */
  maxPayload: number;
  close(): Promise<void>;
}

/** `nats://h:p,nats://h2:p2` or `h:p`: the servers to try. */
export function natsServers(url: string): string[] {
  return url
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server.length > 0);
}

const JETSTREAM_WAIT_MS = 60_000;

export async function connectNats(url: string, label: string): Promise<NatsLink> {
  const servers = natsServers(url);
  let nc: NatsConnection;
  try {
    nc = await connect({ servers, name: `tally ${label}`, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
  } catch (error) {
    throw new EnvironmentError(
      `${label}: no NATS server answers at ${servers.join(', ')}: ${(error as Error).message}`,
    );
  }
  try {
    // Fails on a server without JetStream, which would otherwise show as timeouts later. A cluster that lost a
    // server may take seconds to elect its JetStream leader again: asked for a minute before giving up.
    const jsm = await retryNats(() => jetstreamManager(nc, { timeout: 10_000 }), { maxMs: JETSTREAM_WAIT_MS });
    return {
      nc,
      js: jetstream(nc, { timeout: 10_000 }),
      jsm,
      maxPayload: nc.info?.max_payload ?? 1024 * 1024,
      close: async () => {
        await nc.drain().catch(() => nc.close());
      },
    };
  } catch (error) {
    await nc.close();
    throw new EnvironmentError(
      `${label}: NATS at ${servers.join(', ')} offers no JetStream: ${(error as Error).message}`,
    );
  }
}
