// A route's answer as bytes and a status, on whichever thread answers it (a serving thread, the heavy-work thread):
// the handler's answer, or what it threw as { "error": text }: an ApiError's status and text, else a 500 (a bug,
// logged; its text is never shown).
import { ApiError } from '../apiError.js';
import { ERROR } from '../errorTexts.js';
import type { QueryOf, QuerySpec } from '../query/queryParams.js';
import type { RouteRequest } from '../query/routeRequest.js';
import { HeadedAnswer } from '../transport/headedAnswer.js';
import { encodeAnswer, type Headers } from '../transport/sendAnswer.js';
import type { Route } from './route.js';

export interface RouteResult {
  status: number;
  json: Buffer;
  /** The answer's own headers (a HeadedAnswer's). */
  headers?: Headers;
}

export function errorResult(error: unknown): RouteResult {
  if (error instanceof ApiError) return { status: error.status, json: encodeAnswer({ error: error.message }).json };
  console.error(error);
  return { status: 500, json: encodeAnswer({ error: ERROR.internal }).json };
}

export function routeResult(route: Route, opened: unknown, request: RouteRequest<QueryOf<QuerySpec>>): RouteResult {
  try {
    const answer = route.handle(opened, request);
    if (answer instanceof HeadedAnswer)
      return { status: 200, json: encodeAnswer(answer.body).json, headers: { ...answer.headers } };
    return { status: 200, json: encodeAnswer(answer).json };
  } catch (error) {
    return errorResult(error);
  }
}
