// The aggregators behind each Chainlink feed proxy (every phase: phaseAggregators(1..phaseId)), found over
// JSON-RPC by `ingest --rpc` and `run` and kept in the data directory beside config.json, so a later capture
// ingest decodes their AnswerUpdated logs too. { "<proxy>": ["<aggregator of phase 1>", ...] }.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { InputError } from '../inputError.js';

export type FeedAggregators = Record<string, string[]>;

export function feedAggregatorsPath(configPath: string): string {
  return join(dirname(configPath), 'feedAggregators.json');
}

export function readFeedAggregators(configPath: string): FeedAggregators {
  const path = feedAggregatorsPath(configPath);
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as FeedAggregators;
  } catch (error) {
    throw new InputError(path, 0, `not valid JSON (${(error as Error).message}); delete it and run once with --rpc`);
  }
}

/** Written whole and renamed, so a reader never sees half a file. */
export function writeFeedAggregators(configPath: string, found: FeedAggregators): void {
  const path = feedAggregatorsPath(configPath);
  writeFileSync(path + '.tmp', JSON.stringify(found, null, 2) + '\n');
  renameSync(path + '.tmp', path);
}
