/**
 * The service side of the face bench, forked by bench/face.ts: the real service on SQLite with
 * FACE_MATCHER=local, one template to read, and on command a steady load of face comparisons run
 * through the service's own matcher (its worker threads), beside the requests.
 */
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { createOrganization } from '../src/organizations/organizations.js';
import { identityCard, selfie } from '../test/support/face-photos.js';
import { sampleTemplate } from './protocol.js';
import { healthOf, waitUntilReady } from './ready.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: face-server-child.ts <data dir>');
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', FACE_QUEUE_MAX: '1000' });
const deps = await createDeps(config);
const app = await buildApp(config, deps);
const organization = await createOrganization(deps.db, deps.clock, { name: 'Bench', email: 'bench@bench.test' });
const url = await app.listen({ host: '127.0.0.1', port: 0 });
const created = await app.inject({ method: 'POST', url: '/v1.5/ext/template', headers: { authorization: organization.privateKey }, payload: sampleTemplate() });
const templateId = String(created.json().id);
deps.startBackgroundWork();
void deps.startRendererSelfTest();
await waitUntilReady(healthOf(app));

const documents = await Promise.all([identityCard('authorSelected'), identityCard('womanBlonde')]);
const faces = await Promise.all([selfie('authorPhoto'), selfie('womanDarkHair')]);
const workers = config.faceMatcher.kind === 'local' ? config.faceMatcher.workers : 0;

let loading = false;
let compared = 0;
/** One stream of comparisons, one after the other; as many streams as workers keeps each busy. */
async function stream(index: number): Promise<void> {
  for (let i = 0; loading; i++) {
    // A new face each time, and the document of a new process now and then, as real traffic is.
    const documentPhoto = documents[(index + Math.floor(i / 3)) % documents.length] ?? documents[0];
    const facePhoto = faces[(index + i) % faces.length] ?? faces[0];
    if (!documentPhoto || !facePhoto) return;
    // Each stream is one person's link: the pool shares its workers between them.
    await deps.faceMatcher.compare({ documentPhoto, facePhoto, flow: { kind: 'person', id: `stream-${index}` } });
    compared++;
  }
}

let streams: Promise<void>[] = [];
process.on('message', async (message: unknown) => {
  if (message === 'load-start') {
    // Workers start at the first comparison: it is made before the measurement.
    if (documents[0] && faces[0]) await deps.faceMatcher.compare({ documentPhoto: documents[0], facePhoto: faces[0], flow: { kind: 'person', id: 'warm-up' } });
    loading = true;
    compared = 0;
    streams = Array.from({ length: workers }, (_, i) => stream(i));
    process.send?.({ type: 'loading' });
  } else if (message === 'load-stop') {
    loading = false;
    await Promise.all(streams);
    process.send?.({ type: 'load-stopped', compared });
  }
});
process.on('disconnect', async () => {
  loading = false;
  await Promise.all(streams);
  await app.close();
  await deps.close();
  process.exit(0);
});
process.send?.({ type: 'ready', url, templateId, key: organization.publicKey, workers });
