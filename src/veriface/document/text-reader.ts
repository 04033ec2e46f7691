import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { fail } from '../../domain-error.js';

/**
 * The English model shipped by @tesseract.js-data/eng, read from node_modules: with langPath left
 * unset tesseract.js would fetch it from a CDN, which this service never does.
 */
function englishDataFolder(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0');
}

/**
 * Text printed on a document photo, read by tesseract.js in its own worker thread (the event loop
 * only passes the image). One worker, started at the first image and kept: it takes about a
 * second to load its model; tesseract.js queues the images it is given meanwhile.
 */
export class TextReader {
  private worker: Promise<Worker> | undefined;

  async read(image: Buffer): Promise<string> {
    this.worker ??= createWorker('eng', OEM.LSTM_ONLY, { langPath: englishDataFolder(), gzip: true, cacheMethod: 'none' }).then(async (worker) => {
      // A document is a page of scattered blocks of text, not one column.
      // A declared resolution also keeps tesseract from printing its estimate of one for each image.
      await worker.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: '300' });
      return worker;
    });
    try {
      const worker = await this.worker;
      const { data } = await worker.recognize(image);
      return data.text;
    } catch {
      // A worker that failed to start or to read is dropped, so the next image starts a new one.
      const failed = this.worker;
      this.worker = undefined;
      void failed?.then((worker) => worker.terminate()).catch(() => undefined);
      throw fail('DOCUMENT_READER_FAILED', 'the text of the document could not be read, send the image again');
    }
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker).terminate();
  }
}
