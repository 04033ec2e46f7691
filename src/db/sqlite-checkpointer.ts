import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { isRecord } from '../is-record.js';

/** What one background checkpoint did: WAL frames in the log, and how many of them are now in the database. */
export interface CheckpointReport {
  logFrames: number;
  checkpointedFrames: number;
}

export interface Checkpointer {
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  file: string;
  intervalMs: number;
  onCheckpoint?: (report: CheckpointReport) => void;
  onError?: (error: Error) => void;
}

/**
 * Run in a worker thread, as CommonJS so it needs no TypeScript loader. A PASSIVE checkpoint waits
 * for no reader or writer; it copies what it can and tries again on the next tick.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
// A checkpoint syncs the log before it copies it, and the database before the log may start over.
db.pragma('synchronous = FULL');
if (db.pragma('synchronous', { simple: true }) !== 2) throw new Error('the checkpoint connection did not take synchronous = FULL');
const timer = setInterval(() => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (result && result.log > 0) parentPort.postMessage({ logFrames: result.log, checkpointedFrames: result.checkpointed });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Copies the SQLite WAL into the database from a second connection on a worker thread. better-sqlite3
 * is synchronous: the checkpoint SQLite runs on commit (every 1,000 pages) writes the pages and
 * fsyncs both files on the event loop, stalling every request for as long as the disk takes. With
 * this copying as the WAL grows, the commit's own checkpoint finds little or nothing left to do.
 * The commit's checkpoint stays on as the backstop: it is what lets the WAL start over from its
 * beginning under steady writes, and what keeps it bounded should this worker fall behind or stop.
 */
export function startCheckpointer(options: CheckpointerOptions): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file: options.file, intervalMs: options.intervalMs, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
  });
  // Background upkeep never keeps the process alive by itself.
  worker.unref();
  worker.on('message', (message: unknown) => {
    if (!isRecord(message)) return;
    if (typeof message.error === 'string') options.onError?.(new Error(`SQLite checkpoint: ${message.error}`));
    else if (typeof message.logFrames === 'number' && typeof message.checkpointedFrames === 'number') {
      options.onCheckpoint?.({ logFrames: message.logFrames, checkpointedFrames: message.checkpointedFrames });
    }
  });
  worker.on('error', (error) => options.onError?.(error));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      worker.postMessage('stop');
      // A worker stuck in a long checkpoint is not waited on past a second.
      const timeout = setTimeout(() => void worker.terminate(), 1_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
