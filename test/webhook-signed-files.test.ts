import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../src/documents/document-files.js';
import { listFinalFiles } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { ANSWERS } from './support/fixtures.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, endProcess, PDF_BASE64, PDF_BYTES, pdfProcess, stored, templateWithHtml } from './support/signing.js';
import { type ReceivedWebhook, WebhookReceiver } from './support/webhook-receiver.js';

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;

/**
 * REFERENCE §11.2: CREATE, FINISH and EXPIRED carry the document's `url`; and our own
 * `signed_files_ready` says when the sealed files can be downloaded. Real receivers on loopback,
 * one typed and one flat per organization, check the bodies; every URL is downloaded.
 */
describe.each(dialects)('document URLs and signed_files_ready in webhook bodies (%s)', (dialect) => {
  let svc: TestService;
  const typed = new WebhookReceiver();
  const flat = new WebhookReceiver();
  const otherOrg = new WebhookReceiver();

  beforeAll(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    const urls = { typed: await typed.start(), flat: await flat.start(), otherOrg: await otherOrg.start() };
    for (const receiver of [typed, flat, otherOrg]) receiver.now = () => svc.clock.now();
    const webhook = async (org: TestOrganization, body: Record<string, unknown>) => {
      const res = await call(svc.app, 'POST', '/webhooks', { key: org.privateKey, body });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().secret;
    };
    typed.secret = await webhook(svc.orgA, { name: 'default', url: urls.typed });
    flat.secret = await webhook(svc.orgA, { name: 'flat', url: urls.flat, format: 'flat' });
    otherOrg.secret = await webhook(svc.orgB, { name: 'default', url: urls.otherOrg });
  });
  afterAll(async () => {
    await svc.close();
    for (const receiver of [typed, flat, otherOrg]) await receiver.close();
  });
  beforeEach(() => {
    for (const receiver of [typed, flat, otherOrg]) {
      receiver.received.length = 0;
      receiver.respond = () => ({ status: 200 });
    }
  });

  /** Delivers everything due (the seal job too), as the worker does after each commit. */
  const flush = async () => {
    while ((await svc.deps.worker.deliverDue()) > 0);
  };
  const both = { targetWebhooks: ['default', 'flat'] };
  const typedOf = (receiver: WebhookReceiver, code: string) =>
    receiver.received
      .filter((h) => h.body.data?.code === code)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((h) => h.body);
  const flatOf = (code: string) =>
    flat.received
      .filter((h) => h.json.code === code || h.json.package === code)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((h) => h.json);
  /** The bytes a URL of a body serves, fetched as a receiver would. */
  const download = async (url: unknown): Promise<Buffer> => {
    expect(url).toEqual(expect.stringMatching(/^http:\/\/service\.test\/files\/\S+\?expires=\d+&(name=\S+&)?signature=[0-9a-f]+$/));
    const res = await svc.app.inject({ method: 'GET', url: localPath(String(url)) });
    expect(res.statusCode, res.body).toBe(200);
    return res.rawPayload;
  };
  /** The hashes of the final files the seal recorded: the certificate's, and each document's by position. */
  const finalHashes = async (org: TestOrganization, code: string) => {
    const rows = await listFinalFiles(svc.deps.db, (await stored(svc, org, code)).process.id);
    return {
      certificate: rows.find((r) => r.document_position === null)?.sha256,
      documents: rows.filter((r) => r.document_position !== null).map((r) => [r.document_position, r.sha256]),
    };
  };

  describe('CREATE, FINISH and EXPIRED carry the document url, a PDF download signed for 5 minutes', () => {
    it('document.created and the flat CREATE: url downloads the uploaded PDF', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, both));
      await flush();
      const [created] = typedOf(typed, code);
      expect(created).toMatchObject({ type: 'document.created', data: { code, status: 'CREATE', url: expect.any(String) } });
      expect(sha256(await download(created!.data.url))).toBe(sha256(PDF_BYTES));
      const [flatCreate] = flatOf(code);
      expect(flatCreate).toEqual({ code, name: 'Lease', status: 'CREATE', url: expect.any(String) });
      expect(sha256(await download(flatCreate!.url))).toBe(sha256(PDF_BYTES));
    });

    it('document.expired and the flat EXPIRED: url downloads the PDF that was to be signed', async () => {
      const code = await createProcess(
        svc,
        svc.orgA,
        '/document/upload',
        pdfProcess(svc.orgA, { ...both, expiredDate: new Date(svc.clock.now().getTime() + 4 * DAY) }),
      );
      await endProcess(svc, svc.orgA, code, 'EXPIRED');
      await flush();
      const expired = typedOf(typed, code).find((b) => b.type === 'document.expired');
      expect(sha256(await download(expired?.data.url))).toBe(sha256(PDF_BYTES));
      const flatExpired = flatOf(code).find((b) => b.status === 'EXPIRED');
      expect(flatExpired).toEqual({ code, name: 'Lease', status: 'EXPIRED', url: expect.any(String) });
      expect(sha256(await download(flatExpired!.url))).toBe(sha256(PDF_BYTES));
    });

    it('a PDF still awaited (compress) has no url at CREATE; neither has a document made from an HTML template', async () => {
      const compressed = (
        await call(svc.app, 'POST', '/document/upload', { key: svc.orgA.privateKey, body: { ...pdfProcess(svc.orgA, both), file: undefined, compress: true } })
      ).json().code;
      const template = await templateWithHtml(svc, svc.orgA);
      const fromHtml = await createProcess(svc, svc.orgA, '/document/save', {
        email: svc.orgA.email,
        name: 'Sale',
        document: template,
        data: ANSWERS,
        ...both,
      });
      await flush();
      for (const code of [compressed, fromHtml]) {
        const [created] = typedOf(typed, code);
        expect(created?.data).toMatchObject({ code, status: 'CREATE' });
        expect(created?.data).not.toHaveProperty('url');
        expect(flatOf(code)[0]).not.toHaveProperty('url');
      }
    });

    it('a retry sent after the first URL expired carries a fresh one: each attempt signs its own', async () => {
      typed.respond = (_hook, index) => ({ status: index === 0 ? 500 : 200 });
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      await flush();
      svc.clock.advance(10 * MINUTE);
      await flush();
      const attempts = typed.received.filter((h) => h.body.data?.code === code);
      expect(attempts.map((h) => h.id)).toEqual([attempts[0]!.id, attempts[0]!.id]);
      const [first, second] = attempts.map((h) => String(h.body.data.url));
      expect(second).not.toBe(first);
      expect(Number(new URL(second!).searchParams.get('expires'))).toBe(svc.clock.now().getTime() + 5 * MINUTE);
      expect(sha256(await download(second))).toBe(sha256(PDF_BYTES));
    });
  });

  describe('signed_files_ready: once the sealed files are stored and downloadable', () => {
    it('a document: after document.finished, {code, name, status, url, documents [{name, signedUrl}], certificateUrl}, each a recorded final file', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { ...both, tags: ['rent'], custom: { crmId: 'deal-4711' } }));
      await endProcess(svc, svc.orgA, code, 'FINISH');
      await flush();
      const bodies = typedOf(typed, code);
      expect(bodies.map((b) => b.type).slice(-2)).toEqual(['document.finished', 'document.signed_files_ready']);
      const finished = bodies.at(-2)!;
      expect(sha256(await download(finished.data.url))).toBe(sha256(PDF_BYTES));
      const ready = bodies.at(-1)!;
      expect(ready.data).toEqual({
        code,
        name: 'Lease',
        status: 'SIGNED_FILES_READY',
        url: expect.any(String),
        documents: [{ name: 'Lease', signedUrl: expect.any(String) }],
        certificateUrl: expect.any(String),
        custom: { crmId: 'deal-4711' },
        tags: ['rent'],
      });
      const hashes = await finalHashes(svc.orgA, code);
      const documents = ready.data.documents as { signedUrl: string }[];
      expect(sha256(await download(ready.data.url))).toBe(hashes.documents[0]![1]);
      expect(sha256(await download(documents[0]!.signedUrl))).toBe(hashes.documents[0]![1]);
      expect(sha256(await download(ready.data.certificateUrl))).toBe(hashes.certificate);
      expect(new URL(String(ready.data.certificateUrl)).searchParams.get('name')).toBe('Lease - certificado.pdf');
    });

    it('the flat webhook gets FINISH once the seal is done, its url the sealed PDF; no status of its own', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, both));
      await endProcess(svc, svc.orgA, code, 'FINISH');
      // Everyone signed, but the seal job has not run: no FINISH yet.
      await svc.deps.worker.deliverDue();
      expect(flatOf(code).map((b) => b.status)).not.toContain('FINISH');
      await flush();
      const finish = flatOf(code).filter((b) => b.status === 'FINISH');
      expect(finish).toEqual([{ code, name: 'Lease', status: 'FINISH', url: expect.any(String) }]);
      expect(sha256(await download(finish[0]!.url))).toBe((await finalHashes(svc.orgA, code)).documents[0]![1]);
      expect(flatOf(code).map((b) => b.status)).toEqual(['CREATE', 'NOTIFICATION', 'NOTIFICATION', 'FINISH']);
    });

    it('a package: package.signed_files_ready lists every sealed document; the flat SIGNED_PACKAGE each document with its sealed url', async () => {
      const res = await call(svc.app, 'POST', '/document/many', {
        key: svc.orgA.privateKey,
        body: {
          email: svc.orgA.email,
          name: 'Pack',
          ...both,
          documents: [
            { name: 'One', file: PDF_BASE64, signProfile: [{ name: 'Ana', email: 'ana@people.test' }] },
            { name: 'Two', file: PDF_BASE64, signProfile: [{ name: 'Ana', email: 'ana@people.test' }] },
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const pack: string = res.json().package;
      await endProcess(svc, svc.orgA, pack, 'FINISH');
      await flush();
      const hashes = await finalHashes(svc.orgA, pack);
      const ready = typedOf(typed, pack).find((b) => b.type === 'package.signed_files_ready');
      expect(ready?.data).toEqual({
        code: pack,
        name: 'Pack',
        status: 'SIGNED_FILES_READY',
        documents: [
          { name: 'One', signedUrl: expect.any(String) },
          { name: 'Two', signedUrl: expect.any(String) },
        ],
        certificateUrl: expect.any(String),
      });
      const typedDocuments = ready!.data.documents as { signedUrl: string }[];
      const flatSigned = flatOf(pack).filter((b) => b.status === 'SIGNED_PACKAGE');
      expect(flatSigned).toEqual([
        {
          package: pack,
          name: 'Pack',
          status: 'SIGNED_PACKAGE',
          documents: [
            { code: expect.any(String), name: 'One', status: 'FINISH', url: expect.any(String) },
            { code: expect.any(String), name: 'Two', status: 'FINISH', url: expect.any(String) },
          ],
        },
      ]);
      const flatDocuments = flatSigned[0]!.documents as { url: string }[];
      for (const position of [0, 1]) {
        const hash = hashes.documents.find(([p]) => p === position)![1];
        expect(sha256(await download(typedDocuments[position]!.signedUrl))).toBe(hash);
        expect(sha256(await download(flatDocuments[position]!.url))).toBe(hash);
      }
      const flatCreate = flatOf(pack).find((b) => b.status === 'CREATE');
      for (const document of flatCreate!.documents as { url: string }[]) expect(sha256(await download(document.url))).toBe(sha256(PDF_BYTES));
    });

    it('exactly once: two seals racing and a seal run again after it both record nothing more', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      await endProcess(svc, svc.orgA, code, 'FINISH');
      const { process } = await stored(svc, svc.orgA, code);
      const sealed = await Promise.all([sealProcess(svc.deps, { processId: process.id }), sealProcess(svc.deps, { processId: process.id })]);
      expect(sealed.filter(Boolean)).toHaveLength(1);
      expect(await sealProcess(svc.deps, { processId: process.id })).toBe(false);
      await flush();
      expect(typedOf(typed, code).filter((b) => b.type === 'document.signed_files_ready')).toHaveLength(1);
      const trail = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } })).json();
      expect(trail.activityLog.filter((line: { action: string }) => line.action === 'SIGNED_FILES_READY')).toEqual([
        { action: 'SIGNED_FILES_READY', participant: 'ARCHIVE', timestamp: expect.any(String) },
      ]);
    });
  });

  describe('another organization never receives the first one’s events', () => {
    it("B's process reaches B's receiver only, with B's files; A's receivers get nothing of it", async () => {
      const code = await createProcess(svc, svc.orgB, '/document/upload', pdfProcess(svc.orgB));
      await endProcess(svc, svc.orgB, code, 'FINISH');
      await flush();
      expect(typedOf(otherOrg, code).map((b) => b.type)).toEqual([
        'document.created',
        'document.signer_finished',
        'document.signer_finished',
        'document.finished',
        'document.signed_files_ready',
      ]);
      const ready = typedOf(otherOrg, code).at(-1)!;
      expect(sha256(await download(ready.data.url))).toBe((await finalHashes(svc.orgB, code)).documents[0]![1]);
      const seen = (hooks: ReceivedWebhook[]) => hooks.filter((h) => JSON.stringify(h.json).includes(code));
      expect([...seen(typed.received), ...seen(flat.received)]).toEqual([]);
    });
  });
});
