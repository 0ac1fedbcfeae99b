// The heavy-work thread of a serving thread (api/heavy/createHeavyWork.ts): answers that read the whole board (a
// leaderboard over a window other than the lifetime sums every wallet's market results) or tens of thousands of
// fills (a page of the fills feed) run here, on their own reads of the state, at the lowest CPU priority, so that
// the serving thread goes on answering cheap requests and the kernel gives the core to them first. Its caches (the
// board orders) are its own, and live as long as it does.
import { AssertionFailure } from '../../engine/assert.js';
import { dataPaths } from '../../engine/dataDir.js';
import { lowerThisThreadsPriority } from '../../engine/lowerThreadPriority.js';
import { openOffchainStore } from '../../engine/offchain/openOffchainStore.js';
import { openStateStore } from '../../engine/state/openStateStore.js';
import type { ReadinessLimits } from '../loadReadiness.js';
import type { RouteContext } from '../routeContext.js';
import type { Route, ServingParts } from '../routes/route.js';
import { routeResult } from '../routes/routeResult.js';
import { ROUTES } from '../routes/routeTable.js';
import { compressNow, gzipRowsNow, worthCompressing } from '../transport/sendAnswer.js';
import { createRouteContext } from '../createRouteContext.js';
import type { HeavyResult, HeavyTask } from './heavyTask.js';
import { Piscina } from 'piscina';

/**
 * The ArrayBuffers to move with a result's bytes, not copy (a fills page is megabytes, and the copy would be made on
 * the serving thread as it receives them). Only a buffer of Node's pool size or more holds its ArrayBuffer alone: a
 * smaller one may sit in the pool beside others, and is copied.
 */
function movable(bytes: Buffer, transfer: ArrayBuffer[]): Uint8Array {
  if (bytes.byteLength < Buffer.poolSize >>> 1) return new Uint8Array(bytes);
  transfer.push(bytes.buffer as ArrayBuffer);
  return bytes;
}

export interface HeavyWorkerData {
  dataRoot: string;
  version: string;
  readiness: ReadinessLimits;
}

interface HeavyRoutes {
  ctx: RouteContext;
  /** The table's heavy routes, by operationId, each opened on this thread's context. */
  routes: Map<string, { route: Route; opened: unknown }>;
}

let opened: HeavyRoutes | null = null;

function open(data: HeavyWorkerData): HeavyRoutes {
  lowerThisThreadsPriority();
  const paths = dataPaths(data.dataRoot);
  const ctx = createRouteContext({
    // Read only, whatever the serving thread's opening: this process's threads share one environment, and a
    // read-write opening of one a read-only server made fails (its databases are opened in a write transaction).
    store: openStateStore({ dir: paths.state, readOnly: true, randomReads: true }),
    offchain: openOffchainStore({ dir: paths.offchain }),
    paths,
    version: data.version,
  });
  // Heavy routes read the state alone: the fold's rate is sampled by the serving thread, which answers health.
  const serving: ServingParts = {
    catchUp: () => {
      throw new AssertionFailure('heavy work: a heavy route read the catch-up, which only serving threads sample');
    },
    readiness: data.readiness,
  };
  const routes: HeavyRoutes['routes'] = new Map();
  for (const route of ROUTES)
    if (route.heavy) routes.set(route.operationId, { route, opened: route.open(ctx, serving) });
  return { ctx, routes };
}
export default function answerHeavy(task: HeavyTask & HeavyWorkerData): HeavyResult {
  const { json, compressed, status, generation, headers } = heavyAnswer(task);
  const transfer: ArrayBuffer[] = [];
  const result: HeavyResult = {
    status,
    json: movable(json, transfer),
    compressed: compressed === null ? null : movable(compressed, transfer),
    generation,
  };
  if (headers !== undefined) result.headers = headers;
  // Piscina moves what a result given to move() names under its transferable symbol, and answers its value.
  const moved = { [Piscina.transferableSymbol]: transfer, [Piscina.valueSymbol]: result };
  return Piscina.move(moved as unknown as Parameters<typeof Piscina.move>[0]) as unknown as HeavyResult;
}

function heavyAnswer(task: HeavyTask & HeavyWorkerData) {
  opened ??= open(task);
  const generation = opened.ctx.reads.refresh();
  const heavy = opened.routes.get(task.operationId);
  if (!heavy) throw new AssertionFailure(`heavy work: no heavy route ${task.operationId}`);
  const { status, json, headers } = routeResult(heavy.route, heavy.opened, {
    parameters: task.parameters,
    query: task.query,
  });
  let compressed: Buffer | null = null;
  if (task.coding !== null && status === 200) {
    // The server asks the fills feed for gzip alone (spec 4.9): rows of integers, gzipped by Huffman coding alone.
    if (heavy.route.gzipOnly) compressed = gzipRowsNow(json);
    else if (worthCompressing(json)) compressed = compressNow(json, task.coding);
  }
  return { status, json, compressed, generation, headers };
}
