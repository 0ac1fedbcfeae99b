// The pipeline's first step: whether a /v1 request is answered at all. In order: its size (414, 431) and body
// (400); the state generation it is answered from; its key (401); the state catching up (503, no slot taken); the
// key's concurrency (429, refused before it counts against the minute) and its minute (429); a key the counters
// have no room for (503).
import { ERROR, limitsTableFullError, rateLimitError } from '../errorTexts.js';
import { LimitsTableFull } from '../limits/sharedKeyCounters.js';
import type { KeyPolicy } from '../limits/createKeyPolicies.js';
import { catchingUpText, catchUpRetryAfter, type CatchUp } from '../readCatchUp.js';
import type { RouteContext } from '../routeContext.js';
import type { KeyCheck } from '../createKeyCheck.js';
import { bearerKey, refuse, sizeRefusal, unauthorized } from './requestChecks.js';
import type { ServedRequest } from './servedRequest.js';

/** A valid key as the server keeps it (once per key and off-chain revision). */
export interface KeyGrant {
  /** The limiters' id of the key: a hash, never the key. */
  id: string;
  /** For the access log. */
  prefix: string;
  /** null: the key's requests are not limited. */
  policy: KeyPolicy | null;
}

export const RETRY_IN_ONE_SECOND = { 'retry-after': '1' };

export interface Admission {
  ctx: RouteContext;
  checkKey: KeyCheck<KeyGrant>;
  catchUp(): CatchUp;
  now(): number;
}

/** The admission step: null when the request goes on (its slot taken), else the status of the refusal written. */
export function createAdmission({ ctx, checkKey, catchUp, now }: Admission): (request: ServedRequest) => number | null {
  return (request) => {
    const { res, head, served } = request;
    const tooLarge = sizeRefusal(res, request.url, request.search, request.headerBytes, head);
    if (tooLarge !== 0) return tooLarge;
    if (request.hasBody) return refuse(res, 400, ERROR.bodyNotAccepted, null, head);
    request.generation = ctx.reads.refresh();
    if (!served.route.keyless) {
      const grant = checkKey(bearerKey(request.authorization), ctx.reads.offchainRevision());
      if (grant === null) return unauthorized(res, request.authorization, head);
      request.keyId = grant.id;
      request.policy = grant.policy;
      if (request.entry !== null) request.entry.key = grant.prefix;
    }
    // Until a backfill's hand-off the owner-first tables are stale: no answer from a torn state, and no slot taken.
    if (!served.route.whileCatchingUp && ctx.reads.backfilling()) {
      const state = catchUp();
      return refuse(res, 503, catchingUpText(state), { 'retry-after': catchUpRetryAfter(state) }, head);
    }
    const { policy, keyId } = request;
    if (policy === null) return null;
    const stream = served.route.stream ?? false;
    const nowMs = now();
    let entered: boolean;
    try {
      entered = policy.enter(keyId, stream, nowMs);
    } catch (error) {
      if (!(error instanceof LimitsTableFull)) throw error;
      const retry = { 'retry-after': String(error.retryAfterSeconds) };
      return refuse(res, 503, limitsTableFullError(error.retryAfterSeconds), retry, head);
    }
    if (!entered) return refuse(res, 429, policy.inFlightText, RETRY_IN_ONE_SECOND, head);
    const decision = policy.take(keyId, nowMs);
    if (!decision.allowed) {
      policy.leave(keyId, stream);
      const retry = { 'retry-after': String(decision.retryAfterSeconds) };
      return refuse(res, 429, rateLimitError(policy.limits.perMinute, decision.retryAfterSeconds), retry, head);
    }
    request.decision = decision;
    return null;
  };
}
