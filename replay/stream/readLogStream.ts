// `tally replica`'s reading of the stream: an ordered consumer from the sequence after the one the state holds,
// watched. A consumer lives on one server; when that server dies the consumer stops delivering and says nothing
// (a trial on this machine: it stalls for the whole outage). So while messages wait in the stream and none has
// come for `stallMs`, the consumer is dropped and a new one made from the next sequence not yet read, on whichever
// server now answers.
import { DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import { RefusedError } from '../../engine/refusedError.js';
import { sleep } from '../source/retryRpc.js';
import type { NatsLink } from './connectNats.js';
import { readChunk, type Chunk, type LogStreamNames } from './logStream.js';

export interface StreamMessage {
  sequence: number;
  chunk: Chunk;
  data: Uint8Array;
  /** Messages in the stream after this one when it was delivered: 0 means the reader has caught up. */
  pending: number;
}

/** Chunks a consumer may hold unread: up to about 1 MiB each. */
const CONSUMER_BUFFER_MESSAGES = 8;
const RECREATE_WAIT_MS = 500;

export async function* readLogStream(options: {
  link: NatsLink;
  names: LogStreamNames;
  afterSequence: number;
  stallMs: number;
  signal: AbortSignal;
  /** Told when the consumer is made anew, and why. */
  onRecreate?: (reason: string) => void;
}): AsyncGenerator<StreamMessage> {
  const { link, names, signal } = options;
  let next = options.afterSequence + 1;
  let reason: string | null = null;
  let told: string | null = null;
  // Each consumer its own name: one made again under a name the cluster still knows (its server died with it)
  // would be refused as a change of that consumer's start.
  for (let made = 0; !signal.aborted; made++) {
    if (reason !== null) {
      // A cause told once until another comes (a stream not created yet would be told twice a second).
      if (reason !== told) options.onRecreate?.(reason);
      told = reason;
      await sleep(RECREATE_WAIT_MS, signal);
      if (signal.aborted) return;
    }
    let messages: ConsumerMessages;
    try {
      const consumer = await link.js.consumers.get(names.stream, {
        name_prefix: `tally_replica_${process.pid}_${made}`,
        deliver_policy: DeliverPolicy.StartSequence,
        opt_start_seq: next,
      });
      messages = await consumer.consume({ max_messages: CONSUMER_BUFFER_MESSAGES });
    } catch (error) {
      reason = `no consumer from sequence ${next}: ${(error as Error).message}`;
      continue;
    }
    let lastDelivery = Date.now();
    /** While the caller works on a message, silence is not a stall. */
    let working = false;
    reason = null;
    const watchdog = setInterval(
      () => {
        if (working || Date.now() - lastDelivery < options.stallMs) return;
        lastDelivery = Date.now();
        link.jsm.streams
          .info(names.stream)
          .then((info) => {
            if (info.state.last_seq < next) return;
            reason = `the consumer delivered nothing for ${options.stallMs} ms with sequence ${next} waiting`;
            messages.stop();
          })
          .catch((error: unknown) => {
            reason = `the stream does not answer (${(error as Error).message})`;
            messages.stop();
          });
      },
      Math.max(50, options.stallMs / 4),
    );
    const stop = () => messages.stop();
    signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const message of messages) {
        lastDelivery = Date.now();
        // An ordered consumer delivers each sequence once and in order; anything else ends this consumer.
        if (message.seq !== next) {
          reason = `the consumer delivered sequence ${message.seq} where ${next} was due`;
          break;
        }
        const chunk = readChunk(names, message.subject, message.headers, message.data.length);
        if (typeof chunk === 'string')
          throw new RefusedError(`stream ${names.stream}, sequence ${message.seq}: ${chunk}: not a tally log stream`);
        next++;
        told = null;
        working = true;
        yield { sequence: message.seq, chunk, data: message.data, pending: message.info.pending };
        working = false;
        lastDelivery = Date.now();
      }
    } catch (error) {
      if (error instanceof RefusedError) throw error;
      reason = `the consumer failed: ${(error as Error).message}`;
    } finally {
      clearInterval(watchdog);
      signal.removeEventListener('abort', stop);
      messages.stop();
    }
    reason ??= 'the consumer ended';
  }
}
