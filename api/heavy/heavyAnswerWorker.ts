// The heavy-work thread of a serving thread (api/heavy/createHeavyWork.ts): answers that read the whole board (a
// leaderboard over a window other than the lifetime sums every wallet's market results) run here, on their own
// reads of the state, at the lowest CPU priority, so that the serving thread goes on answering cheap requests and
// the kernel gives the core to them first. Its caches (the board orders) are its own, and live as long as it does.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dataPaths } from '../../engine/dataDir.js';
import { openOffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import { ApiError } from '../apiError.js';
import { createBoardRankings } from '../board/boardRankings.js';
import { ERROR } from '../errorTexts.js';
import { compileQuery } from '../query/queryParams.js';
import { routeDocs } from '../routeDocs.js';
import type { RouteContext } from '../routeContext.js';
import type { RouteRequest } from '../routeRequest.js';
import { createLeaderboardRoute } from '../routes/leaderboardRoute.js';
import { compressNow, encodeAnswer, worthCompressing } from '../transport/sendAnswer.js';
import { createRouteContext } from '../createRouteContext.js';
import type { HeavyResult, HeavyTask } from './heavyTask.js';

export interface HeavyWorkerData {
  dataRoot: string;
  version: string;
}

/** Linux: nice 19 for this thread alone (setpriority on a thread id sets that thread's). Elsewhere, as it is. */
function lowerThisThreadsPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid)) setPriority(tid, 19);
  } catch {
    // No /proc/thread-self, or not allowed: the thread runs at the process's priority.
  }
}

interface HeavyRoutes {
  ctx: RouteContext;
  routes: Map<string, { handle: (request: RouteRequest) => unknown; query: ReturnType<typeof compileQuery> }>;
}

let opened: HeavyRoutes | null = null;

function open(data: HeavyWorkerData): HeavyRoutes {
  lowerThisThreadsPriority();
  const paths = dataPaths(data.dataRoot);
  const ctx = createRouteContext({
    store: openStateStore({ dir: paths.state }),
    offchain: openOffchainStore({ dir: paths.offchain }),
    paths,
    version: data.version,
  });
  const routes: HeavyRoutes['routes'] = new Map([
    [
      '/v1/leaderboard',
      {
        handle: createLeaderboardRoute(ctx, createBoardRankings(ctx.state)),
        query: compileQuery(routeDocs.leaderboard.query),
      },
    ],
  ]);
  return { ctx, routes };
}

export default function answerHeavy(task: HeavyTask & HeavyWorkerData): HeavyResult {
  opened ??= open(task);
  const { ctx, routes } = opened;
  const generation = ctx.reads.refresh();
  const route = routes.get(task.pattern);
  let status = 200;
  let json: Buffer;
  try {
    if (!route) throw new Error(`heavy work: no route ${task.pattern}`);
    json = encodeAnswer(route.handle({ parameters: task.parameters, query: route.query(task.query) })).json;
  } catch (error) {
    if (error instanceof ApiError) status = error.status;
    else {
      console.error(error);
      status = 500;
    }
    json = encodeAnswer({ error: status === 500 ? ERROR.internal : (error as Error).message }).json;
  }
  const compressed =
    task.coding !== null && status === 200 && worthCompressing(json) ? compressNow(json, task.coding) : null;
  return { status, json, compressed, generation };
}
