import { parentPort, workerData } from 'node:worker_threads';
import { bundledChromium } from './bundled-chromium.js';
import { ChromiumRenderer } from './chromium-renderer.js';
import { isRendererThreadOptions, parseRendererRequest, type RendererReply } from './renderer-protocol.js';

// The Chromium renderer, run in a thread of its own by src/rendering/renderer-thread.ts.
if (!parentPort || !isRendererThreadOptions(workerData)) throw new Error('renderer-worker.ts runs as the renderer thread, given its options');
const port = parentPort;
const { chromiumPath, concurrency, engine } = workerData;
const post = (reply: RendererReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
const renderer = new ChromiumRenderer(chromiumPath ? async () => ({ executablePath: chromiumPath, args: [] }) : bundledChromium, {
  concurrency,
  engine,
  warn: (details, message) => post({ kind: 'warn', details, message }),
});

port.on('message', async (value: unknown) => {
  const request = parseRendererRequest(value);
  if (!request) return;
  try {
    if (request.kind === 'render') {
      const pdf = new Uint8Array(await renderer.render(request.html, request.layout));
      post({ id: request.id, kind: 'done', status: renderer.describe(), pdf }, [pdf.buffer]);
    } else if (request.kind === 'selfTest') {
      await renderer.selfTest();
      post({ id: request.id, kind: 'done', status: renderer.describe() });
    } else {
      await renderer.close();
      post({ id: request.id, kind: 'done', status: renderer.describe() });
      port.close();
    }
  } catch (error) {
    post({ id: request.id, kind: 'failed', status: renderer.describe(), error: error instanceof Error ? error.message : String(error) });
  }
});
