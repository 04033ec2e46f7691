import { parentPort } from 'node:worker_threads';
import { isRecord } from '../../is-record.js';
import { decodePdf417 } from './barcode.js';

/** The barcode reader's worker thread: one grey image at a time, answered with the text of its PDF417 barcode, or null. */
const port = parentPort;
if (!port) throw new Error('barcode-worker runs only as a worker thread');

port.on('message', (value: unknown) => {
  if (!isRecord(value)) return;
  const { id, width, height, luminances } = value;
  if (typeof id !== 'number' || typeof width !== 'number' || typeof height !== 'number' || !(luminances instanceof Uint8Array)) return;
  const grey = new Uint8ClampedArray(luminances.buffer, luminances.byteOffset, luminances.byteLength);
  port.postMessage({ id, text: decodePdf417(grey, width, height) ?? null });
});
