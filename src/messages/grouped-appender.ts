import fsp from 'node:fs/promises';
import path from 'node:path';

interface Queued {
  text: string;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Appends text to one file, flushed before the caller hears of it. Texts appended while a write is
 * under way, or in the same turn of the event loop, go out together in one write and one fdatasync:
 * a flush waits for the disk, and one flush for many texts is what keeps appending cheap under load.
 *
 * A write cut off by a crash, or by an error, may leave a last line without its end: the first
 * write of each appender, and the first after an error, starts on a new line if the file does not
 * end with one. A failed write takes back what it added, as far as the file lets it.
 */
export class GroupedAppender {
  private queued: Queued[] = [];
  private writing = false;
  /** Whether this appender knows the file ends with a newline (or is empty). */
  private endsWhole = false;

  constructor(private readonly file: string) {}

  append(text: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ text, resolve, reject });
      if (this.writing) return;
      this.writing = true;
      // The rest of this turn's texts join the same write.
      setImmediate(() => void this.writeQueued());
    });
  }

  private async writeQueued(): Promise<void> {
    while (this.queued.length > 0) {
      const batch = this.queued;
      this.queued = [];
      try {
        await this.write(batch.map((queued) => queued.text).join(''));
        for (const queued of batch) queued.resolve();
      } catch (error) {
        this.endsWhole = false;
        for (const queued of batch) queued.reject(error);
      }
    }
    this.writing = false;
  }

  private async write(text: string): Promise<void> {
    const folder = path.dirname(this.file);
    await fsp.mkdir(folder, { recursive: true });
    const handle = await fsp.open(this.file, 'a+');
    try {
      const { size } = await handle.stat();
      const start = size > 0 && !this.endsWhole && !(await endsWithNewline(handle, size)) ? '\n' : '';
      try {
        await handle.write(start + text);
        await handle.datasync();
      } catch (error) {
        await handle.truncate(size).catch(() => undefined);
        throw error;
      }
      this.endsWhole = true;
      // A new file is only found again after a power loss once its folder's entry is on disk too.
      if (size === 0) await flushFolder(folder);
    } finally {
      await handle.close();
    }
  }
}

async function endsWithNewline(handle: fsp.FileHandle, size: number): Promise<boolean> {
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

async function flushFolder(folder: string): Promise<void> {
  const handle = await fsp.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
