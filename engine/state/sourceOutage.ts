// Why the chain source has stopped answering, kept beside its head (sourceHead.ts) in the state's meta database so
// that /v1/health can show an outage in whichever process serves: since when, how many attempts failed, the last
// cause. Written by the RPC ingest as requests fail and removed at the node's next answer, outside the fold's
// commits: it describes the source, not the folded state.
import { assert } from '../assert.js';
import type { StateStore } from './openStateStore.js';
import { decodeValue, encodeValue } from './stateCodec.js';

const SOURCE_OUTAGE_KEY = 'sourceOutage';

export interface SourceOutage {
  /** When the first request of the outage failed (Unix seconds, the ingest's clock). */
  since: number;
  failedAttempts: number;
  /** The last failure, in the provider's or the network's words. */
  lastError: string;
}

/** The outage after one more failure at `nowSeconds`: a new one, or the same one counted on. */
export function nextOutage(outage: SourceOutage | null, cause: string, nowSeconds: number): SourceOutage {
  // An outage starts with its first failed attempt and counts on from there.
  assert(outage === null || outage.failedAttempts >= 1, 'an outage has failed once at least');
  return outage
    ? { since: outage.since, failedAttempts: outage.failedAttempts + 1, lastError: cause }
    : { since: nowSeconds, failedAttempts: 1, lastError: cause };
}

export function readSourceOutage(store: StateStore): SourceOutage | null {
  const bytes = store.dbs.meta.getBinary(SOURCE_OUTAGE_KEY);
  if (!bytes) return null;
  const outage = decodeValue<SourceOutage>(bytes);
  assert(Number.isSafeInteger(outage.failedAttempts) && outage.failedAttempts >= 1, 'an outage read has failed once');
  return outage;
}

/** Records the outage, or its end (null). */
export async function writeSourceOutage(store: StateStore, outage: SourceOutage | null): Promise<void> {
  assert(outage === null || outage.failedAttempts >= 1, 'an outage written has failed once');
  if (outage === null) await store.dbs.meta.remove(SOURCE_OUTAGE_KEY);
  else
    await store.dbs.meta.put(
      SOURCE_OUTAGE_KEY,
      encodeValue({ since: outage.since, failedAttempts: outage.failedAttempts, lastError: outage.lastError }),
    );
}
