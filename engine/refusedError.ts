// The error tree (docs/style.md 9; issue 22 item 11). The engine and the sources throw typed errors and only the
// command line (cli/main.ts) turns them into exit codes:
// - InputError (inputError.ts): bad input, naming the file and line;
// - RefusedError (here): a request the user can fix (a missing venue, a key never issued, a rewind to do first);
// - EnvironmentError (environmentError.ts): the machine or its surroundings (a full disk, a port in use, a node
//   that does not answer): nothing typed was wrong, and the same command works once they do;
// - AssertionFailure (assert.ts), and any other error: a bug.
// The first three print as one `tally:` line, never a stack.

export class RefusedError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'RefusedError';
  }
}
