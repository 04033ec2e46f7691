import fs from 'node:fs';

/** Puts what SQLite has written to its write-ahead log on disk. */
export interface WalFlusher {
  /** Resolves once every byte written to the log before the call is on disk (fdatasync, in libuv's pool). */
  flush(): Promise<void>;
  /** The same, on the calling thread, for closing. */
  flushNow(): void;
  close(): void;
}

/**
 * The log's own file opened beside SQLite's handle: fdatasync flushes a file, whichever descriptor
 * names it. The file must exist (SQLite creates it when the connection enters WAL mode) and must
 * stay the same file: SQLite only deletes it when the last connection to the database closes, and
 * the service holds its connections open until it closes this too. The descriptor is never closed
 * before then either: closing any descriptor of a file drops the POSIX locks the process holds on it.
 */
export function openWalFlusher(walPath: string): WalFlusher {
  const fd = fs.openSync(walPath, 'r+');
  return {
    flush: () =>
      new Promise<void>((resolve, reject) => {
        // Looked up at call time: tests hold a flush back by wrapping fs.fdatasync.
        fs.fdatasync(fd, (error) => (error ? reject(error) : resolve()));
      }),
    flushNow: () => fs.fdatasyncSync(fd),
    close: () => fs.closeSync(fd),
  };
}
