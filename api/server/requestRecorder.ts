// Each answered request counted for /metrics and, with an access log, logged: once, when its answer is written,
// whether at once or later (a heavy answer, a compression made off the event loop).
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { accessLogLine, openAccessEntry, type AccessEntry, type AccessLog } from '../accessLog.js';
import type { RouteMetrics } from '../metrics/requestMetrics.js';
import { noteConnectionClose } from '../transport/connectionClose.js';
import { answerFailure } from './requestChecks.js';
import type { ServedRequest } from './servedRequest.js';

/** An answerer's return when the answer is written later (a heavy answer, a compression): its completion records it. */
export const LATER = 0;

/** A request's answerer: writes the answer, or starts it, and returns its status (or LATER). */
export type Answerer = (res: HttpResponse, req: HttpRequest, entry: AccessEntry | null, started: number) => number;

export interface RequestRecorder {
  /** A uWS handler, made once per route and method: times the answerer, records what it answered. */
  handler(route: RouteMetrics, answer: Answerer): (res: HttpResponse, req: HttpRequest) => void;
  /**
   * The completion of a /v1 request answered later, run exactly once however often it is called: its slot goes
   * back, and it is counted (and logged).
   */
  finishLater(request: ServedRequest): (status: number) => void;
}

export function createRequestRecorder(accessLog: AccessLog | null): RequestRecorder {
  const record = (route: RouteMetrics, status: number, started: number, entry: AccessEntry | null) => {
    const milliseconds = performance.now() - started;
    route.observe(status, milliseconds / 1000);
    if (entry !== null) accessLog!(accessLogLine(entry, status, milliseconds));
  };
  return {
    handler: (route, answer) => (res, req) => {
      const started = performance.now();
      noteConnectionClose(res, req);
      const entry = accessLog === null ? null : openAccessEntry(res, req);
      let status: number;
      try {
        status = answer(res, req, entry, started);
      } catch (error) {
        status = answerFailure(res, error);
      }
      if (status !== LATER) record(route, status, started, entry);
    },
    finishLater(request) {
      let pending = true;
      return (status) => {
        if (!pending) return;
        pending = false;
        request.policy?.leave(request.keyId, request.served.route.stream ?? false);
        record(request.served.metrics, status, request.started, request.entry);
      };
    },
  };
}
