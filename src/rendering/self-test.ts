import { Worker } from 'node:worker_threads';
import type { PdfRenderer } from './renderer.js';

/** Accented text, so a renderer without fonts (a PDF with no text at all) is caught. */
const PROBE = 'Autoprueba de firma: ÁÉÍÓÚ ñ 12345';

/** A run of text as pdfjs reads it: `transform` places its baseline-left at (e, f) in the page's user space; `width` and `height` in points. */
export interface TextRun {
  text: string;
  transform: number[];
  width: number;
  height: number;
}

function isTextRuns(value: unknown): value is TextRun[][] {
  return (
    Array.isArray(value) && value.every((page) => Array.isArray(page) && page.every((run) => typeof run?.text === 'string' && Array.isArray(run.transform)))
  );
}

/**
 * The text runs of a PDF, page after page. Read in a worker thread of its own, never in the
 * service's: pdfjs's Node build installs polyfills (core-js) over the built-ins of the realm that
 * loads it, JSON.stringify and JSON.parse and Array.prototype.push among them, each several times
 * slower than V8's own. Loaded by the start-up self-test in the service's thread, they slowed every
 * request and delivery that followed (issue 24).
 */
export function pdfTextRuns(pdf: Buffer): Promise<TextRun[][]> {
  return new Promise((resolve, reject) => {
    const data = new Uint8Array(pdf);
    const worker = new Worker(new URL('./pdf-text-worker.mjs', import.meta.url), { workerData: data, transferList: [data.buffer] });
    worker.once('message', (pages: unknown) => (isTextRuns(pages) ? resolve(pages) : reject(new Error('the PDF text reader answered no text'))));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the PDF text reader stopped with code ${code}`)));
  });
}

/** The text of a PDF, page after page, as a reader would copy it. */
export async function pdfText(pdf: Buffer): Promise<string> {
  return (await pdfTextRuns(pdf)).map((runs) => runs.map((run) => run.text).join('')).join('\n');
}

/** Renders a one-line PDF and checks its text came through: answers the time it took, or throws why not. */
export async function rendererSelfTest(renderer: PdfRenderer): Promise<number> {
  const started = Date.now();
  const pdf = await renderer.render(`<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"></head><body><p>${PROBE}</p></body></html>`);
  const text = await pdfText(pdf);
  if (!text.includes(PROBE)) throw new Error(`the renderer's PDF lacks its text (found ${JSON.stringify(text.slice(0, 80))}): are fonts installed?`);
  return Date.now() - started;
}
