// What every answer of a server is made from, hashed into one checksum for /v1/health: the served block's chained
// checksum (the folded state), the board's rollup (its block and the metadata digest it read), the latest tag run's
// sha256, the off-chain tables' content digests (metadata, profiles, keys), whether the fold backfills (the state
// routes answer 503 meanwhile) and the version. Replicas behind a load balancer answer every request alike exactly
// when these agree, which the block checksum alone cannot say (replay/README.md, Replicas).
import { createHash } from 'node:crypto';
import { digestHex } from '../engine/offchain/offchainDigest.js';
import type { RouteContext } from './routeContext.js';

export interface AnswerInputs {
  checksum: string;
  metadata: string;
  profiles: string;
  keys: string;
  tags: string | null;
}

export function readAnswerInputs(ctx: RouteContext, mode: 'backfill' | 'live'): AnswerInputs {
  const digests = ctx.reads.offchainDigests();
  const board = ctx.state.board();
  const inputs = {
    metadata: digestHex(digests.metadata),
    profiles: digestHex(digests.profiles),
    keys: digestHex(digests.keys),
    tags: ctx.state.latestTagRunSha(),
  };
  const parts = [
    'tally-answers-1',
    ctx.state.cursor().checksum,
    board ? `${board.block}:${board.metadata ?? ''}` : '-',
    inputs.tags ?? '-',
    inputs.metadata,
    inputs.profiles,
    inputs.keys,
    mode,
    ctx.version,
  ];
  return { checksum: createHash('sha256').update(parts.join('\n')).digest('hex'), ...inputs };
}
