// What the data directory's config.json says about what the fold keeps (its contract addresses are
// loadVenueAddresses'). `"trades": false` turns the trade store off: the fold keeps positions and markets but no
// fills table and no fill lists, and the routes that read fills answer `trades are off`. A state folded with
// other options is folded again from the log (stateLayout), as one of another layout is.
import { existsSync, readFileSync } from 'node:fs';
import { InputError } from './inputError.js';

export interface FoldOptions {
  trades: boolean;
}

export const DEFAULT_FOLD_OPTIONS: FoldOptions = { trades: true };

/** The config file's object, or null when there is none. */
export function readConfigFile(configPath: string): Record<string, unknown> | null {
  if (!existsSync(configPath)) return null;
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (error) {
    throw new InputError(configPath, 0, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    throw new InputError(configPath, 0, 'not a JSON object');
  return config as Record<string, unknown>;
}

export function loadFoldOptions(configPath: string): FoldOptions {
  const trades = readConfigFile(configPath)?.trades ?? true;
  if (typeof trades !== 'boolean') throw new InputError(configPath, 0, 'trades must be true or false');
  return { trades };
}
