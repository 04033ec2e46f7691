import { parentPort } from 'node:worker_threads';
import { describeDocument, describeSelfie } from './compare-faces.js';
import { loadFaceModel } from './face-model.js';
import { loadLivenessModel } from './liveness-model.js';
import { parseDescribeRequest, type WorkerMessage } from './worker-protocol.js';

/**
 * A worker thread of the face pool: loads the models once when it starts (face-api's, and the
 * liveness network that scores each face photo), then describes one photo at a time, so the
 * service's event loop never runs a network.
 */
const port = parentPort;
if (!port) throw new Error('matcher-worker runs only as a worker thread');
const post = (message: WorkerMessage) => port.postMessage(message);

const started = performance.now();
const model = await loadFaceModel();
const liveness = await loadLivenessModel();
// The first inference compiles the WebAssembly kernels (seconds on a busy core): done here, on a
// blank image through both detectors and the liveness network, so that no person's photo waits for it.
const blank = { pixels: new Uint8Array(160 * 160 * 3).fill(128), width: 160, height: 160 };
await model.detect(blank);
await liveness.score(blank, { x: 40, y: 40, width: 80, height: 80 });
post({ kind: 'ready', loadMs: Math.round(performance.now() - started) });

port.on('message', async (value: unknown) => {
  const request = parseDescribeRequest(value);
  if (!request) return;
  try {
    const described = request.role === 'face' ? await describeSelfie(model, request.photo, liveness) : await describeDocument(model, request.photo);
    post({ kind: 'described', id: request.id, described });
  } catch (error) {
    post({ kind: 'failed', id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
