import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

export class DataFolderInUseError extends Error {}

export interface DataFolderLock {
  release(): void;
}

/**
 * SQLite serves one instance: a second process on the same data folder would fail writes at random
 * (a deferred transaction cannot upgrade past another process's commit) and serve stale templates
 * from its cache. A serving instance holds an exclusive lock on `service.lock` in the folder, taken
 * through SQLite's own file locking, which the operating system releases when the process ends,
 * however it ends. The admin command does not take it: it runs beside the service.
 */
export function lockDataFolder(dataDir: string): DataFolderLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = new BetterSqlite3(path.join(dataDir, 'service.lock'), { timeout: 0 });
  try {
    // In exclusive locking mode the lock a write takes is kept until the connection closes.
    file.pragma('locking_mode = EXCLUSIVE');
    file.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held_by (pid INTEGER); COMMIT');
  } catch (error) {
    file.close();
    if (error instanceof Error && 'code' in error && (error.code === 'SQLITE_BUSY' || error.code === 'SQLITE_LOCKED')) {
      throw new DataFolderInUseError(
        `The data folder ${path.resolve(dataDir)} is in use by another instance of the service. SQLite serves a single instance: stop the other one, give this one another DATA_DIR, or use PostgreSQL (DATABASE_URL) to run several.`,
      );
    }
    throw error;
  }
  return { release: () => file.close() };
}
