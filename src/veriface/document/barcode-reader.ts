import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { fail } from '../../domain-error.js';
import { isRecord } from '../../is-record.js';

/**
 * Longest side the barcode is looked for at: a PDF417 row is a few pixels high on a phone photo
 * of a card, and the search costs time in proportion to the pixels.
 */
const BARCODE_MAX_SIDE = 1600;
/** A search longer than this is given up and its worker replaced (one takes well under a second). */
const SEARCH_TIMEOUT_MS = 20_000;

interface Pending {
  resolve(text: string | undefined): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

const failed = () => fail('DOCUMENT_READER_FAILED', 'the barcode of the document could not be read, send the image again');

/**
 * PDF417 barcodes found on document photos, in a worker thread of their own (barcode-worker.ts):
 * sharp shrinks and greys the photo on libuv's threads, the worker searches it, and the service's
 * event loop only passes the pixels. One worker, started at the first photo and kept; photos wait
 * their turn in it. A worker that fails or hangs is replaced at the next photo.
 */
export class BarcodeReader {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  async read(image: Buffer): Promise<string | undefined> {
    const { data, info } = await sharp(image)
      .rotate()
      .resize({ width: BARCODE_MAX_SIDE, height: BARCODE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const worker = this.running();
    const id = this.nextId++;
    // A copy the worker can own: sharp's buffer wraps memory of its own, which Node 24 refuses to
    // transfer (DataCloneError), and a view of it would move the whole pooled buffer.
    const luminances = new Uint8Array(data);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.stop(worker), SEARCH_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, width: info.width, height: info.height, luminances }, [luminances.buffer]);
    });
  }

  async close(): Promise<void> {
    if (this.worker) await this.stop(this.worker);
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./barcode-worker.mjs', import.meta.url));
    worker.unref();
    worker.on('message', (value: unknown) => {
      if (!isRecord(value) || typeof value.id !== 'number') return;
      const waiting = this.pending.get(value.id);
      if (!waiting) return;
      this.pending.delete(value.id);
      clearTimeout(waiting.timer);
      waiting.resolve(typeof value.text === 'string' ? value.text : undefined);
    });
    worker.on('error', () => void this.stop(worker));
    worker.on('exit', () => void this.stop(worker));
    this.worker = worker;
    return worker;
  }

  /** Drops the worker and answers every photo it held with an error; the next photo starts another. */
  private async stop(worker: Worker): Promise<void> {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(failed());
    }
    this.pending.clear();
    worker.removeAllListeners();
    worker.on('error', () => undefined);
    await worker.terminate();
  }
}
