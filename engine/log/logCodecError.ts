/** A log payload that cannot be encoded or decoded: a decoder bug on the way in, damage on the way out. */
export class LogCodecError extends Error {
  override name = 'LogCodecError';
}
