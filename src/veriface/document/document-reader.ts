import { BarcodeReader } from './barcode-reader.js';
import { documentPhotoQuality } from './image-quality.js';
import type { DocumentReading } from './number-check.js';
import { type NumberReading, readNumber } from './read-number.js';
import { TextReader } from './text-reader.js';

/** Readings kept for the decision that needs them: a person takes the next photo in a minute or two. */
const KEPT_MS = 15 * 60_000;
/** Readings kept at most: beyond, the oldest are dropped (the decision then reads the photo again). */
const KEPT_MAX = 500;

/**
 * The readers of identity documents (the PDF417 barcode, OCR and the machine-readable zones in
 * it), each in its own worker thread, and the readings of the photos people just sent. A flow
 * starts reading a document's photo as soon as it is stored (`start`), while the person takes
 * the next photo; the decision that needs it waits for it (`readingOf`), and reads the photo
 * itself when this instance did not start it (another instance stored it, or it was restarted).
 */
export class DocumentReader {
  readonly textReader = new TextReader();
  readonly barcodeReader = new BarcodeReader();
  private readonly started = new Map<string, { at: number; reading: Promise<DocumentReading> }>();

  /** The number on a document photo and what else its source holds; throws DOCUMENT_READER_FAILED when a reader fails. */
  readNumber(image: Buffer): Promise<NumberReading | undefined> {
    return readNumber(this, image);
  }

  /** One photo read for a flow: never throws, a photo that cannot be read says why. */
  async read(image: Buffer): Promise<DocumentReading> {
    const quality = await documentPhotoQuality(image);
    if (!quality) return { read: false, reason: 'IMAGE_UNREADABLE' };
    if (quality.problem) return { read: false, reason: quality.problem };
    try {
      const reading = await this.readNumber(image);
      return reading ? { read: true, reading } : { read: false, reason: 'NUMBER_NOT_FOUND' };
    } catch {
      return { read: false, reason: 'DOCUMENT_READER_FAILED' };
    }
  }

  /** Starts reading the photo stored at `key`. */
  start(key: string, image: Buffer): void {
    this.forgetOld();
    this.started.set(key, { at: Date.now(), reading: this.read(image) });
  }

  /** The reading of the photo at `key`: the one started, or a new one of `image()`. */
  readingOf(key: string, image: () => Promise<Buffer>): Promise<DocumentReading> {
    const started = this.started.get(key);
    if (started) return started.reading;
    const reading = image().then((bytes) => this.read(bytes));
    this.forgetOld();
    this.started.set(key, { at: Date.now(), reading });
    // A photo that could not be loaded is loaded again by the next decision.
    reading.catch(() => this.started.delete(key));
    return reading;
  }

  async close(): Promise<void> {
    this.started.clear();
    await Promise.all([this.textReader.close(), this.barcodeReader.close()]);
  }

  private forgetOld(): void {
    const oldest = Date.now() - KEPT_MS;
    for (const [key, { at }] of this.started) {
      if (at >= oldest && this.started.size < KEPT_MAX) break;
      this.started.delete(key);
    }
  }
}
