// Makes a created, renamed or deleted directory entry durable (Linux needs the directory itself fsynced).
import { closeSync, fsyncSync, openSync } from 'node:fs';

export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
