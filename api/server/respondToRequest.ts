// The pipeline's last step: the answer written. A 200 carries the key's rate headers and, on routes that offer
// conditional requests, its ETag (304 when If-None-Match names it); the body goes in the coding the client takes,
// a large compression made off the event loop first. The key's slot goes back once the answer is written.
import type { AnswerCache, CachedAnswer } from '../transport/answerCache.js';
import type { Coding } from '../transport/contentCoding.js';
import { matchesEtag } from '../transport/matchesEtag.js';
import { sendAnswer, sendCompressedLater, sendNotModified, type Headers } from '../transport/sendAnswer.js';
import { answerFailure } from './requestChecks.js';
import { LATER, type RequestRecorder } from './requestRecorder.js';
import type { Answered, ServedRequest } from './servedRequest.js';

/** A 200's rate headers: the key's limit and what is left of its minute (none for a key without limits). */
export function rateHeaders(request: ServedRequest): Headers {
  const { policy, decision } = request;
  return policy === null || decision === null
    ? {}
    : { 'x-ratelimit-limit': policy.limitText, 'x-ratelimit-remaining': String(decision.remaining) };
}

/** The respond step: writes the answer and returns its status, or LATER when a compression is made first. */
export function createResponder(answers: AnswerCache, recorder: RequestRecorder) {
  /** Where a compression of a cached answer goes once made: into the cache beside it (none for uncached routes). */
  const cacheMade = (request: ServedRequest, answer: CachedAnswer) => {
    const { generation, cacheKey } = request;
    return cacheKey === null
      ? undefined
      : (coding: Coding, bytes: Buffer) => answers.setCompressed(generation, cacheKey, answer, coding, bytes);
  };
  return (request: ServedRequest, { status, answer }: Answered): number => {
    const { res, coding, head } = request;
    const headers: Headers | null = status !== 200 ? null : rateHeaders(request);
    if (headers !== null && answer.headers !== undefined) Object.assign(headers, answer.headers);
    const leave = () => request.policy?.leave(request.keyId, request.served.route.stream ?? false);
    // Written now, unless a large compression must be made; the slot goes back once written (or on an exception).
    let written = true;
    try {
      if (headers !== null && answer.etag !== undefined) headers.etag = answer.etag;
      if (headers !== null && answer.etag !== undefined && matchesEtag(request.ifNoneMatch, answer.etag)) {
        status = 304;
        sendNotModified(res, headers);
      } else {
        written = sendAnswer(res, status, headers, answer, coding, head, cacheMade(request, answer));
      }
    } finally {
      if (written) leave();
    }
    if (written) return status;
    // Written later (a compression made off the event loop): the slot goes back and the request is recorded exactly
    // once, when the answer is written, the client goes away, or an exception intervenes.
    const finish = recorder.finishLater(request);
    const done = () => finish(status);
    try {
      sendCompressedLater(res, status, headers, answer, coding!, { done, made: cacheMade(request, answer) });
    } catch (error) {
      status = answerFailure(res, error);
      done();
    }
    return LATER;
  };
}
