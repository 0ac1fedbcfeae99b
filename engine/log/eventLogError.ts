// The event log's refusals: the command line prints them as one line.
import { RefusedError } from '../refusedError.js';

/** The log refuses (locked by another process, damaged, misused): the command line prints it as one line. */
export class EventLogError extends RefusedError {
  override name = 'EventLogError';
}

/** Another live process holds the log's writer lock. */
export class LogLockedError extends EventLogError {
  override name = 'LogLockedError';
}
