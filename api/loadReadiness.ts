// When a server counts as ready to take traffic (readReadiness.ts), from the data directory's config.json, read
// when the server starts: "readiness": { "maxLagBlocks": 64, "maxOutageSeconds": 60 }. The defaults: about two
// minutes of Polygon's blocks behind the node's finalized head, and a node away for a minute.
import { readConfigFile } from '../engine/foldOptions.js';
import { InputError } from '../engine/inputError.js';

export interface ReadinessLimits {
  /** Blocks the fold may trail the source's finalized head. */
  maxLagBlocks: number;
  /** Seconds the source may have been away. */
  maxOutageSeconds: number;
}

export const DEFAULT_READINESS: ReadinessLimits = { maxLagBlocks: 64, maxOutageSeconds: 60 };
const MAX = 100_000_000;

export function loadReadiness(configPath: string): ReadinessLimits {
  const value = readConfigFile(configPath)?.readiness;
  if (value === undefined) return DEFAULT_READINESS;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InputError(configPath, 0, 'readiness must be an object: { "maxLagBlocks": 64, "maxOutageSeconds": 60 }');
  const given = value as Record<string, unknown>;
  const limits = { ...DEFAULT_READINESS };
  for (const name of Object.keys(given)) {
    if (!(name in limits))
      throw new InputError(configPath, 0, `readiness: unknown field ${name} (maxLagBlocks, maxOutageSeconds)`);
    const figure = given[name];
    if (typeof figure !== 'number' || !Number.isInteger(figure) || figure < 0 || figure > MAX)
      throw new InputError(configPath, 0, `readiness.${name} must be an integer from 0 to ${MAX}`);
    limits[name as keyof ReadinessLimits] = figure;
  }
  return limits;
}
