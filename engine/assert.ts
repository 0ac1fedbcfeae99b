// Invariants, in the manner of TigerBeetle: cheap checks that stay on in production. A violated invariant is a
// bug in tally (or a state file damaged behind its back), never bad input (an InputError), a refusal or the
// surroundings (refusedError.ts has the tree); odd but legal chain data is data. The command line reports an
// AssertionFailure as a bug (exit 70, with its stack), so a broken invariant stops the process before it writes
// a wrong answer.

export class AssertionFailure extends Error {
  constructor(message: string) {
    super(`assertion failed: ${message}`);
    this.name = 'AssertionFailure';
  }
}

/**
 * Throws an AssertionFailure saying `what` should hold unless `condition` does. On hot paths pass a constant
 * string: a template literal would be built on every call, true or not.
 */
export function assert(condition: unknown, what: string): asserts condition {
  if (!condition) throw new AssertionFailure(what);
}
