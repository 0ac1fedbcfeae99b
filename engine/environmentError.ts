// What the machine or its surroundings refuse (refusedError.ts has the error tree): a full disk, a port in use, a
// node that does not answer or answers that it cannot. Nothing the user typed is wrong.

export class EnvironmentError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'EnvironmentError';
  }
}
