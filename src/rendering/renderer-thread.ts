import { Worker } from 'node:worker_threads';
import type { PageLayout } from './page-layout.js';
import type { PdfRenderer, RendererStatus } from './renderer.js';
import { parseRendererReply, type RendererRequest, type RendererThreadOptions } from './renderer-protocol.js';

type Pending = { resolve(pdf: Uint8Array | undefined): void; reject(error: Error): void };

/**
 * The service's renderer: the Chromium renderer (src/rendering/chromium-renderer.ts) in a worker
 * thread of its own, started with the first render or self-test. Why a thread: Playwright keeps an
 * AsyncLocalStorage, and the first time it runs one, Node 20 turns on async hooks for the whole
 * thread for good, making every promise and callback after it dearer (a webhook delivery's CPU by
 * a fifth to a half); in its own thread, the service's promises never pay for them. A thread that
 * dies fails what it was doing and is started again by the next call.
 */
export class RendererThread implements PdfRenderer {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private status: RendererStatus;
  private closed = false;

  constructor(private readonly options: RendererThreadOptions & { warn?: (details: object, message: string) => void }) {
    this.status = { engine: options.engine, running: false, selfTest: 'not run' };
  }

  async render(html: string, layout?: PageLayout): Promise<Buffer> {
    if (this.closed) throw new Error('the renderer is closed');
    const pdf = await this.ask({ kind: 'render', html, ...(layout === undefined ? {} : { layout }) });
    if (!pdf) throw new Error('the renderer answered no PDF');
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  }

  async selfTest(): Promise<void> {
    await this.ask({ kind: 'selfTest' });
  }

  describe(): RendererStatus {
    return this.status;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    await this.ask({ kind: 'close' }).catch(() => undefined);
    await worker.terminate();
  }

  private ask(request: { kind: 'render'; html: string; layout?: PageLayout } | { kind: 'selfTest' } | { kind: 'close' }): Promise<Uint8Array | undefined> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // Referenced while it owes an answer, so a script awaiting a render is not left to exit.
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      const message: RendererRequest = { id, ...request };
      worker.postMessage(message);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const { chromiumPath, concurrency, engine } = this.options;
    const worker = new Worker(new URL('./renderer-worker.mjs', import.meta.url), { workerData: { chromiumPath, concurrency, engine } });
    worker.on('message', (value: unknown) => {
      const reply = parseRendererReply(value);
      if (!reply) return;
      if (reply.kind === 'warn') {
        this.options.warn?.(reply.details, reply.message);
        return;
      }
      this.status = reply.status;
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      // An idle renderer does not keep the process alive, as the browser it holds did not.
      if (this.pending.size === 0) worker.unref();
      if (reply.kind === 'done') pending?.resolve(reply.pdf);
      else pending?.reject(new Error(reply.error));
    });
    const lost = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      this.status = { ...this.status, running: false };
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the renderer thread stopped with code ${code}`)));
    this.worker = worker;
    return worker;
  }
}
