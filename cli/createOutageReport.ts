// What `tally run` says while its node is away: the first failure at once, then one line a minute at most (an
// outage of hours is a few hundred lines, not one per retry), and the node's return with how long it was gone.
import type { SourceOutage } from '../engine/state/sourceOutage.js';

const EVERY_MS = 60_000;

export interface OutageReport {
  /** A request failed (it is retried) or a follow failed (it starts again): `cause` says why. */
  failed(cause: string): void;
  recovered(outage: SourceOutage): void;
}

/** `2 h 5 min`, `3 min 10 s`, `42 s`. */
function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

export function createOutageReport(options: {
  label: string;
  maxBackoffMs: number;
  print: (line: string) => void;
  now?: () => number;
}): OutageReport {
  const now = options.now ?? Date.now;
  let began: number | null = null;
  let failures = 0;
  let saidAt = 0;
  return {
    failed(cause) {
      const at = now();
      failures++;
      if (began === null) {
        began = at;
        saidAt = at;
        options.print(
          `tally ${options.label}: the node stopped answering (${cause}); still serving the folded state, retrying every ` +
            `${duration(options.maxBackoffMs / 1000)} at most`,
        );
      } else if (at - saidAt >= EVERY_MS) {
        saidAt = at;
        options.print(
          `tally ${options.label}: the node has not answered for ${duration((at - began) / 1000)} (${failures} failed attempts; ` +
            `last: ${cause})`,
        );
      }
    },
    recovered(outage) {
      options.print(
        `tally ${options.label}: the node answers again after ${duration(now() / 1000 - outage.since)} ` +
          `(${outage.failedAttempts} failed attempts); following on`,
      );
      began = null;
      failures = 0;
    },
  };
}
