// The system's refusals (a file that is not there, no permission, a full disk, a port in use) are the user's to
// fix, not bugs: one line, naming the path where the system gave one. Anything else is not described (null).

const CAUSES: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  EMFILE: 'too many open files',
  EADDRINUSE: 'address already in use',
  EADDRNOTAVAIL: 'address not available on this machine',
  EIO: 'input/output error',
  EFBIG: 'file too large (past the size limit of ulimit -f, or of the file system)',
};

// Every write of the log and the state can be cut short without loss: a torn log frame is cut back at the next
// open, and a failed commit leaves the last one whole.
const FULL_DISK_ADVICE =
  '. Nothing written before is lost: free some space and run the command again, it resumes where it stopped';

export function describeSystemError(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const { code, path, syscall } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return null;
  const cause =
    (CAUSES[code] ?? error.message) + (['ENOSPC', 'EDQUOT', 'EFBIG'].includes(code) ? FULL_DISK_ADVICE : '');
  return path ? `${path}: ${cause}` : `${syscall ? syscall + ': ' : ''}${cause} (${code})`;
}
