import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProcessByCode, listParticipants } from '../src/documents/queries.js';
import { listFinalFiles } from '../src/documents/sealing/final-file-queries.js';
import { SEAL_PROCESS_JOB } from '../src/documents/sealing/seal-job-name.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import type { BlobStore } from '../src/files/blob-store.js';
import { jobHandler } from '../src/outbox/jobs.js';
import { OutboxWorker } from '../src/outbox/worker.js';
import { ANSWERS, COMPLETE_HTML, sampleTemplate } from './support/fixtures.js';
import { type LocalS3, S3RVER_CREDENTIALS, startLocalS3 } from './support/s3.js';
import { call, dialects, localPath, PUBLIC_URL, startTestService, type TestDialect, type TestService } from './support/service.js';
import { readAndSign } from './support/signing.js';

/*
 * Scaled out, a seal job whose lease runs out while its run is paused (a frozen VM, a very slow
 * store call) is claimed and sealed by another instance's worker. The paused run then resumes:
 * whatever it does, the final files recorded, downloaded and certified by /verify stay those of
 * the run that recorded them. On the local store, and on s3rver, which ignores If-None-Match as
 * some S3-compatible stores do.
 */

const stores: { store: 'local' | 's3'; dialect: TestDialect }[] = [
  { store: 'local', dialect: 'sqlite' },
  { store: 's3', dialect: dialects.includes('postgres') ? 'postgres' : 'sqlite' },
];

describe.each(stores)('final files are written once, whichever run resumes late ($store store, $dialect)', ({ store, dialect }) => {
  let s3: LocalS3 | undefined;
  let svc: TestService;
  /** A second instance's worker on the same database and store, running the seal job as deps.ts does. */
  let otherWorker: OutboxWorker;
  beforeAll(async () => {
    s3 = store === 's3' ? await startLocalS3() : undefined;
    const s3Env: Record<string, string> = s3
      ? {
          S3_BUCKET: s3.bucket,
          S3_ENDPOINT: s3.endpoint,
          S3_FORCE_PATH_STYLE: 'true',
          AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
          AWS_REGION: 'us-east-1',
        }
      : {};
    svc = await startTestService(dialect, s3Env);
    expect(svc.deps.blobs.kind).toBe(store);
    otherWorker = new OutboxWorker({
      db: svc.deps.db,
      dialect: svc.deps.dialect,
      clock: svc.clock,
      logger: { error: () => undefined },
      leaseMs: svc.config.outboxLeaseMs,
      handlers: {
        job: jobHandler({ [SEAL_PROCESS_JOB]: (data, claim) => sealProcess(svc.deps, { processId: String(data?.processId), claim }) }, svc.clock),
      },
    });
  });
  afterAll(async () => {
    await svc.close();
    await s3?.close();
  });

  /** The bytes behind a URL the service issued: its own files route, or the S3 store's. */
  async function download(url: string): Promise<Buffer> {
    if (url.startsWith(PUBLIC_URL)) return (await svc.app.inject({ method: 'GET', url: localPath(url) })).rawPayload;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  async function upload(url: string, body: string): Promise<void> {
    const headers = { 'content-type': 'text/html' };
    const status = url.startsWith(PUBLIC_URL)
      ? (await svc.app.inject({ method: 'PUT', url: localPath(url), headers, payload: body })).statusCode
      : (await fetch(url, { method: 'PUT', headers, body })).status;
    expect(status).toBe(200);
  }

  /** Everything the outbox holds now, delivered, so the next round claims only what comes after. */
  async function drainOutbox(): Promise<void> {
    while ((await svc.deps.worker.deliverDue()) > 0);
  }

  /** A template process of organization A that both signers signed: its seal job is queued. */
  async function finishedProcess(): Promise<{ code: string; processId: string }> {
    const template = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() });
    expect(template.statusCode, template.body).toBe(200);
    await upload(template.json().urls.complete, COMPLETE_HTML);
    const created = await call(svc.app, 'POST', '/document/save', {
      key: svc.orgA.privateKey,
      body: { email: svc.orgA.email, name: 'Compraventa', document: template.json().id, data: ANSWERS },
    });
    expect(created.statusCode, created.body).toBe(200);
    const code: string = created.json().code;
    const process = await findProcessByCode(svc.deps.db, svc.orgA.id, code);
    if (!process) throw new Error('not stored');
    await drainOutbox();
    for (const participant of await listParticipants(svc.deps.db, process.id)) await readAndSign(svc.deps, { token: participant.link_token });
    return { code, processId: process.id };
  }

  /** The final files as an integrator downloads them, and the recorded rows. */
  async function handedOut(code: string, processId: string) {
    const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json();
    expect(view.certificateUrl).toBeDefined();
    const rows = (await listFinalFiles(svc.deps.db, processId)).map((row) => `${row.file_key} ${row.sha256}`).sort();
    return { rows, document: await download(view.documents[0].signedUrl), certificate: await download(view.certificateUrl) };
  }

  async function verified(bytes: Buffer): Promise<{ result: string; process?: { code: string } }> {
    return (await svc.app.inject({ method: 'POST', url: '/verify', payload: bytes, headers: { 'content-type': 'application/pdf' } })).json();
  }

  /** Pauses the first call `pause` wraps until `release`; `reached` settles once it is paused. */
  function pauseFirst() {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached: () => void = () => undefined;
    const atPause = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let paused = false;
    return {
      atPause,
      release,
      /** Whether this call is the one held (the first); it resolves once released. */
      async hold(): Promise<void> {
        if (paused) return;
        paused = true;
        reached();
        await released;
      },
    };
  }

  /**
   * Marks the bytes of the first render (run A's): two runs of a seal never make the same file in
   * practice (a timestamp authority's tokens differ), but without one the same render can. Answers
   * the renderer's own render, to put back.
   */
  function markFirstRender(before: (html: string) => Promise<void> = async () => undefined) {
    const { renderer } = svc.deps;
    const render = renderer.render.bind(renderer);
    let first = true;
    renderer.render = async (html) => {
      const mine = first;
      first = false;
      if (mine) await before(html);
      const pdf = await render(html);
      return mine ? Buffer.concat([pdf, Buffer.from('% run A\n')]) : pdf;
    };
    return () => {
      renderer.render = render;
    };
  }

  /** Lets run A's lease run out and another instance's worker claim the job and seal. */
  async function otherInstanceSeals(processId: string): Promise<void> {
    svc.clock.advance(svc.config.outboxLeaseMs + 1000);
    expect(await otherWorker.deliverDue()).toBeGreaterThanOrEqual(1);
    expect((await svc.deps.db.selectFrom('processes').select('sealed_at').where('id', '=', processId).executeTakeFirst())?.sealed_at).not.toBeNull();
  }

  it('a run that lost its claim while it rendered writes nothing once it resumes: the recorded files, the downloads and /verify stay those of the run that sealed', async () => {
    const { code, processId } = await finishedProcess();
    const blobs: BlobStore = svc.deps.blobs;
    const write = blobs.writeBytes.bind(blobs);
    const pause = pauseFirst();
    const restoreRender = markFirstRender(() => pause.hold());
    const writesAfterResume: string[] = [];
    let resumed = false;
    blobs.writeBytes = async (...args: Parameters<BlobStore['writeBytes']>) => {
      if (resumed && args[0].includes('/final/')) writesAfterResume.push(args[0]);
      return write(...args);
    };
    try {
      // Run A: this instance's worker claims the seal job and is paused in its render.
      const runA = svc.deps.worker.deliverDue();
      await pause.atPause;
      await otherInstanceSeals(processId);
      const sealed = await handedOut(code, processId);
      expect((await verified(sealed.document)).result).toBe('unchanged');

      resumed = true;
      pause.release();
      expect(await runA).toBe(1);
      const after = await handedOut(code, processId);
      expect(after.rows).toEqual(sealed.rows);
      expect(await verified(after.document)).toMatchObject({ result: 'unchanged', process: { code } });
      expect(await verified(after.certificate)).toMatchObject({ result: 'unchanged', process: { code } });
      expect(after.document.equals(sealed.document)).toBe(true);
      expect(after.certificate.equals(sealed.certificate)).toBe(true);
      expect(writesAfterResume).toEqual([]);
    } finally {
      restoreRender();
      blobs.writeBytes = write;
    }
    const fromB = await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } });
    expect(fromB.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
  });

  it('a write under way when the claim was lost (a very slow store call) lands where nothing recorded reads it, and the late run removes it', async () => {
    const { code, processId } = await finishedProcess();
    const blobs: BlobStore = svc.deps.blobs;
    const write = blobs.writeBytes.bind(blobs);
    const pause = pauseFirst();
    const restoreRender = markFirstRender();
    let heldKey = '';
    blobs.writeBytes = async (...args: Parameters<BlobStore['writeBytes']>) => {
      if (args[0].includes('/final/') && heldKey === '') {
        heldKey = args[0];
        await pause.hold();
      }
      return write(...args);
    };
    try {
      // Run A is paused inside the store call of its first final file, its claim checked before it.
      const runA = svc.deps.worker.deliverDue();
      await pause.atPause;
      await otherInstanceSeals(processId);
      const sealed = await handedOut(code, processId);

      pause.release();
      expect(await runA).toBe(1);
      const after = await handedOut(code, processId);
      expect(after.rows).toEqual(sealed.rows);
      expect(await verified(after.document)).toMatchObject({ result: 'unchanged', process: { code } });
      expect(after.document.equals(sealed.document)).toBe(true);
      expect(after.certificate.equals(sealed.certificate)).toBe(true);
      expect(after.rows.join('\n')).not.toContain(heldKey);
      expect(await readBlobBytes(blobs, heldKey)).toBeUndefined();
    } finally {
      restoreRender();
      blobs.writeBytes = write;
    }
    const fromB = await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } });
    expect(fromB.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
  });
});
