// The pipeline's second step: the admitted request's answer. From the answer cache when this generation answered
// the same URL already; else its query read (400 on a bad parameter), then handed to the heavy-work thread when
// the route says it is heavy (answered later), or answered here by the route's handler and cached.
import { ERROR } from '../errorTexts.js';
import { HeavyQueueFull, type HeavyWork } from '../heavy/createHeavyWork.js';
import type { HeavyTask } from '../heavy/heavyTask.js';
import type { ServerMetrics } from '../metrics/createServerMetrics.js';
import type { QueryOf, QuerySpec } from '../query/queryParams.js';
import { errorResult, routeResult } from '../routes/routeResult.js';
import type { AnswerCache, CachedAnswer } from '../transport/answerCache.js';
import { acceptsGzip, answerCoding } from '../transport/contentCoding.js';
import { answerEtag, sendAnswer, sendCompressedLater, sendError } from '../transport/sendAnswer.js';
import { RETRY_IN_ONE_SECOND } from './admitRequest.js';
import { LATER, type RequestRecorder } from './requestRecorder.js';
import { rateHeaders } from './respondToRequest.js';
import type { Answered, ServedRequest } from './servedRequest.js';

export interface Answering {
  answers: AnswerCache;
  metrics: ServerMetrics;
  heavyWork: HeavyWork;
  recorder: RequestRecorder;
}

/** The answering step: the answer to write, or LATER when the heavy-work thread writes it. */
export function createAnswering({ answers, metrics, heavyWork, recorder }: Answering) {
  /**
   * A heavy request, answered when the heavy-work thread is done: cached like any answer when it was read at the
   * generation this thread serves; 503 when that thread's queue is full.
   */
  const answerHeavy = (request: ServedRequest, query: QueryOf<QuerySpec>): void => {
    const { res, head, coding, cacheKey, generation, served } = request;
    const task: HeavyTask = { operationId: served.route.operationId, parameters: request.parameters, query, coding };
    const finish = recorder.finishLater(request);
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
      finish(200);
    });
    heavyWork.run(task).then(
      (result) => {
        if (aborted) return;
        const ok = result.status === 200;
        const answer: CachedAnswer = {
          json: Buffer.from(result.json.buffer, result.json.byteOffset, result.json.byteLength),
          compressAlways: ok && served.route.gzipOnly === true,
        };
        if (result.headers !== undefined) answer.headers = result.headers;
        const { compressed } = result;
        if (compressed !== null && coding !== null) {
          answer[coding] = Buffer.from(compressed.buffer, compressed.byteOffset, compressed.byteLength);
        }
        if (ok && cacheKey !== null && result.generation === generation) answers.set(generation, cacheKey, answer);
        const headers = ok ? { ...rateHeaders(request), ...answer.headers } : null;
        const done = () => finish(result.status);
        if (sendAnswer(res, result.status, headers, answer, coding, head)) done();
        else sendCompressedLater(res, result.status, headers, answer, coding!, { done });
      },
      (error: unknown) => {
        if (aborted) return;
        const busy = error instanceof HeavyQueueFull;
        if (!busy) console.error(error);
        const status = busy ? 503 : 500;
        sendError(res, status, busy ? ERROR.heavyBusy : ERROR.internal, busy ? RETRY_IN_ONE_SECOND : null, head);
        finish(status);
      },
    );
  };

  return (request: ServedRequest): Answered | typeof LATER => {
    const { route, opened } = request.served;
    // The fills feed is gzipped when the client takes gzip (spec 4.9); other answers in the coding it prefers.
    request.coding = route.gzipOnly
      ? acceptsGzip(request.acceptEncoding)
        ? 'gzip'
        : null
      : answerCoding(request.acceptEncoding);
    request.cacheKey = route.cached === false ? null : `${request.url}?${request.search}`;
    if (request.cacheKey !== null) {
      const cached = answers.get(request.generation, request.cacheKey);
      metrics.cacheLookup(cached !== undefined);
      if (cached !== undefined) return { status: 200, answer: cached };
    }
    let query: QueryOf<QuerySpec>;
    try {
      query = request.served.readQuery(request.search);
    } catch (error) {
      const { status, json } = errorResult(error);
      return { status, answer: { json } };
    }
    if (route.heavy?.(query)) {
      answerHeavy(request, query);
      return LATER;
    }
    const { status, json, headers } = routeResult(route, opened, { parameters: request.parameters, query });
    const answer: CachedAnswer = headers === undefined ? { json } : { json, headers };
    if (status === 200) {
      if (route.etag) answer.etag = answerEtag(json);
      if (request.cacheKey !== null) answers.set(request.generation, request.cacheKey, answer);
    }
    return { status, answer };
  };
}
