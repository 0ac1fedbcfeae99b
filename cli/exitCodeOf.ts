// Where errors become exit codes (engine/refusedError.ts has the tree): the command line's one mapping, also used
// to tell what to print of an error a long-running command survives (one line, or the stack of a bug).
import { EnvironmentError } from '../engine/environmentError.js';
import { InputError } from '../engine/inputError.js';
import { RefusedError } from '../engine/refusedError.js';
import { UsageError } from './usageError.js';

/** 2 for a malformed command line, 1 for bad input, a refusal or the surroundings, null for a bug. */
export function exitCodeOf(error: unknown): number | null {
  if (error instanceof UsageError) return 2;
  if (error instanceof InputError || error instanceof RefusedError || error instanceof EnvironmentError) return 1;
  return null;
}
