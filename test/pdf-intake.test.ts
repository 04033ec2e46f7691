import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/documents/document-files.js';
import { findProcessByCode, listDocuments, listParticipants } from '../src/documents/queries.js';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { IncrementalUpdate } from '../src/pdf-signing/incremental-update.js';
import { certificatePem } from '../src/pdf-signing/signing-identity.js';
import { encryptedPdf, onePagePdf, pdfWithoutXref, unrepairablePdf } from './support/pdf-files.js';
import { pdfsig, pdfToolsInstalled, pdftotext, trustStore } from './support/pdf-tools.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { readAndSign } from './support/signing.js';

const ENCRYPTED = 'FILE_NOT_VALID: the PDF is encrypted (it has a password or permissions set); upload a copy without them';
const DAMAGED = 'FILE_NOT_VALID: the PDF is damaged and cannot be repaired';

describe.each(dialects)('PDF intake: every PDF is opened by the code that will seal it (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  function upload(org: TestOrganization, body: Record<string, unknown>) {
    return call(svc.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: { email: org.email, name: 'Lease', signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test' }], ...body },
    });
  }

  /** A process waiting for its PDF at an upload URL, and that URL. */
  async function awaiting(org: TestOrganization): Promise<{ code: string; url: string }> {
    const res = await upload(org, { compress: true });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  function put(url: string, pdf: Buffer) {
    return svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'application/pdf' }, payload: pdf });
  }

  async function storedDocument(org: TestOrganization, code: string) {
    const process = await findProcessByCode(svc.deps.db, org.id, code);
    if (!process) throw new Error(`process ${code} not stored`);
    const [document] = await listDocuments(svc.deps.db, process.id);
    if (!document?.file_key) throw new Error('no document');
    return { process, document, bytes: await readBlobBytes(svc.deps.blobs, document.file_key) };
  }

  describe('a PDF without a cross-reference table is repaired at intake: the repair becomes the document and its hash', () => {
    it('sent inline by A and through an upload URL by B: each stores the repair, which the seal opens, with every page and its text', async () => {
      const original = pdfWithoutXref('Walk-through lease, page one');
      expect(await IncrementalUpdate.open(original)).toBeUndefined();

      const inline = await upload(svc.orgA, { file: original.toString('base64') });
      expect(inline.statusCode, inline.body).toBe(200);
      const { code: codeB, url } = await awaiting(svc.orgB);
      expect((await put(url, original)).statusCode).toBe(200);

      for (const [org, code] of [
        [svc.orgA, inline.json().code],
        [svc.orgB, codeB],
      ] as const) {
        const { document, bytes } = await storedDocument(org, code);
        if (!bytes) throw new Error('no stored bytes');
        expect(bytes.equals(original)).toBe(false);
        expect(document.sha256).toBe(sha256(bytes));
        expect(document.file_ready).toBe(1);
        expect(await IncrementalUpdate.inspect(bytes)).toEqual({ pages: 1 });
        if (pdfToolsInstalled) expect(pdftotext(bytes).trim()).toBe('Walk-through lease, page one');
      }
      // Each organization sees its own process only.
      const crossed = await call(svc.app, 'GET', '/document', { key: svc.orgB.publicKey, query: { code: inline.json().code } });
      expect(crossed.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    });

    it.runIf(pdfToolsInstalled)('the repaired document is sealed: its final file is signed and pdfsig finds the signature valid', async () => {
      const res = await upload(svc.orgA, { file: pdfWithoutXref('Sealed after repair').toString('base64') });
      const { process, bytes } = await storedDocument(svc.orgA, res.json().code);
      const [participant] = await listParticipants(svc.deps.db, process.id);
      await readAndSign(svc.deps, { token: participant?.link_token ?? '', ip: '192.0.2.1' });
      expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
      const keys = await finalFileKeys(svc.deps.db, process.id);
      const final = await readBlobBytes(svc.deps.blobs, keys?.documents[0] ?? '');
      if (!final || !bytes) throw new Error('no final file');
      expect(final.subarray(0, bytes.length).equals(bytes)).toBe(true);
      expect(final.length).toBeGreaterThan(bytes.length);
      const report = pdfsig(final, trustStore(certificatePem(svc.deps.documentSigner.identity.certificate)));
      expect(report).toContain('Signature Validation: Signature is Valid.');
      expect(report).toContain('Total document signed');
      expect(pdftotext(final)).toContain('Sealed after repair');
    });

    it('a whole PDF is kept byte for byte', async () => {
      const pdf = onePagePdf('Already whole');
      const res = await upload(svc.orgA, { file: pdf.toString('base64') });
      const { document, bytes } = await storedDocument(svc.orgA, res.json().code);
      expect(bytes?.equals(pdf)).toBe(true);
      expect(document.sha256).toBe(sha256(pdf));
    });
  });

  describe('a PDF that cannot be repaired is refused with 400 FILE_NOT_VALID and a plain reason; an encrypted one with its own message', () => {
    for (const [label, pdf, message] of [
      ['damaged beyond repair (a page refers to content that is not in the file)', unrepairablePdf(), DAMAGED],
      ['only a header', Buffer.from('%PDF-1.4\n%%EOF\n'), DAMAGED],
      ['encrypted', encryptedPdf('Secret lease'), ENCRYPTED],
    ] as const) {
      it(`${label}: inline, in a package, and through the upload URL, where the process keeps waiting for a valid file`, async () => {
        const inline = await upload(svc.orgA, { file: pdf.toString('base64') });
        expect(inline.statusCode).toBe(400);
        expect(inline.json()).toEqual({ message });

        const pack = await call(svc.app, 'POST', '/document/many', {
          key: svc.orgA.privateKey,
          body: {
            email: svc.orgA.email,
            name: 'Pack',
            signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test' }],
            documents: [
              { name: 'One', file: onePagePdf('One').toString('base64') },
              { name: 'Two', file: pdf.toString('base64') },
            ],
          },
        });
        expect(pack.statusCode).toBe(400);
        expect(pack.json()).toEqual({ message });

        const { code, url } = await awaiting(svc.orgB);
        const refused = await put(url, pdf);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual({ message });
        const waiting = await storedDocument(svc.orgB, code);
        expect(waiting.process.status).toBe('CREATED');
        expect(waiting.document.file_ready).toBe(0);
        expect(waiting.bytes).toBeUndefined();
        // A valid file then completes it, through the same URL.
        expect((await put(url, onePagePdf('The right one'))).statusCode).toBe(200);
        expect((await storedDocument(svc.orgB, code)).document.file_ready).toBe(1);
        const view = await call(svc.app, 'GET', '/document', { key: svc.orgA.publicKey, query: { code } });
        expect(view.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      });
    }
  });
});
