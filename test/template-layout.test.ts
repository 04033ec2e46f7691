import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readableFile } from '../src/documents/preview/document-preview.js';
import { listDocuments } from '../src/documents/queries.js';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { certificatePem } from '../src/pdf-signing/signing-identity.js';
import { ANSWERS, sampleTemplate } from './support/fixtures.js';
import { pdfsig, pdfToolsInstalled, pdftotext, qpdfCheck, trustStore } from './support/pdf-tools.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { readAndSign, stored, templateWithHtml } from './support/signing.js';

type Body = Record<string, unknown>;

/** A header and a footer whose first, middle and last pages differ, numbered. */
const CUSTOM = {
  header: { height: '12mm', contents: { first: '<b>Contrato ACME portada</b>', default: '<i>Contrato ACME hoja {{page}}</i>' } },
  footer: { height: '10mm', contents: { default: 'Folio {{page}} de {{pages}}', last: 'Ultima hoja {{page}} de {{pages}}' } },
  border: { top: '8mm', bottom: '8mm', left: '20mm', right: '20mm' },
};

/** A Complete HTML long enough for several pages, with both signers' places at its end. */
const LONG_HTML = `<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body>
<p>Comprador: <span name="buyer_name">x</span>. Precio: <span name="price">0</span>.</p>
${Array.from({ length: 110 }, (_, i) => `<p>Clausula numero ${i + 1} del contrato de compraventa.</p>`).join('\n')}
<div class="sign-margin" id="buyer"></div><div class="sign-margin" id="seller"></div>
</body></html>`;

const withCustom = (custom: unknown): Body => sampleTemplate({ custom });

const refused: [rule: string, body: Body, message: string][] = [
  ['unknown keys of custom are refused', withCustom({ watermark: 'x' }), '"custom.watermark" is not allowed'],
  ['a header needs its height', withCustom({ header: { contents: { default: 'x' } } }), '"custom.header.height" is required'],
  ['a header needs its contents', withCustom({ header: { height: '10mm' } }), '"custom.header.contents" is required'],
  [
    'contents are first, default and last only',
    withCustom({ footer: { height: '10mm', contents: { 2: 'second page' } } }),
    '"custom.footer.contents.2" is not allowed',
  ],
  [
    'contents say something for at least one kind of page',
    withCustom({ footer: { height: '10mm', contents: {} } }),
    '"custom.footer.contents" must have at least 1 key',
  ],
  [
    'heights are CSS lengths',
    withCustom({ header: { height: 'tall', contents: { default: 'x' } } }),
    '"custom.header.height" must be a CSS length in mm, cm, in, px or pt, such as "10mm"',
  ],
  ['borders are CSS lengths', withCustom({ border: { top: '10%' } }), '"custom.border.top" must be a CSS length in mm, cm, in, px or pt, such as "10mm"'],
  ['a length is at most 100mm', withCustom({ border: { left: '11cm' } }), '"custom.border.left" must be at most 100mm'],
  [
    'contents are bounded in size',
    withCustom({ header: { height: '10mm', contents: { default: 'x'.repeat(20_001) } } }),
    '"custom.header.contents.default" length must be less than or equal to 20000 characters long',
  ],
  [
    'borders, header and footer leave the text room on the page',
    withCustom({
      header: { height: '90mm', contents: { default: 'x' } },
      footer: { height: '90mm', contents: { default: 'x' } },
      border: { top: '10mm', bottom: '10mm' },
    }),
    '"custom" must leave the text at least 100mm of the A4 page each way: its borders, header and footer take more',
  ],
  ['noShowHeader is a boolean', withCustom({ noShowHeader: 'yes' }), '"custom.noShowHeader" must be a boolean'],
];

describe.each(dialects)('a template’s custom header, footer and borders (%s)', (dialect) => {
  let svc: TestService;
  let nss: string;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    nss = trustStore(certificatePem(svc.deps.documentSigner.identity.certificate));
  });
  afterAll(async () => svc.close());

  async function templateId(org: TestOrganization, body: Body): Promise<string> {
    const res = await call(svc.app, 'POST', '/template', { key: org.privateKey, body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  }

  /** A process of the template, every participant signed and the seal run: its final document and certificate. */
  async function sealedFiles(
    org: TestOrganization,
    template: string,
    change?: () => Promise<void>,
  ): Promise<{ document: Buffer; certificate: Buffer; preview: Buffer }> {
    const res = await call(svc.app, 'POST', '/document/save', {
      key: org.privateKey,
      body: { email: org.email, name: 'Compraventa', document: template, data: ANSWERS, notification: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { process, participants } = await stored(svc, org, res.json().code);
    const [document] = await listDocuments(svc.deps.db, process.id);
    if (!document) throw new Error('no document');
    const preview = await readBlobBytes(svc.deps.blobs, (await readableFile(svc.deps, document)) ?? '');
    await change?.();
    for (const participant of participants) await readAndSign(svc.deps, { token: participant.link_token });
    expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
    const keys = await finalFileKeys(svc.deps.db, process.id);
    const [documentBytes, certificate] = await Promise.all([
      readBlobBytes(svc.deps.blobs, keys?.documents[0] ?? ''),
      readBlobBytes(svc.deps.blobs, keys?.certificate ?? ''),
    ]);
    if (!documentBytes || !certificate || !preview) throw new Error('final files missing');
    return { document: documentBytes, certificate, preview };
  }

  const pages = (pdf: Buffer) => pdftotext(pdf).split('\f').slice(0, -1);

  describe('custom is checked on POST and PUT /template, in Joi’s words', () => {
    it.each(refused)('%s', async (_rule, body, message) => {
      const created = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body });
      expect(created.statusCode).toBe(400);
      expect(created.json()).toEqual({ message });
      const id = await templateId(svc.orgA, sampleTemplate());
      const updated = await call(svc.app, 'PUT', '/template', { key: svc.orgA.privateKey, body: { id, custom: body.custom } });
      expect(updated.statusCode).toBe(400);
      expect(updated.json()).toEqual({ message });
    });

    it('a valid custom is stored and read back as given, by its organization only', async () => {
      const id = await templateId(svc.orgA, withCustom({ ...CUSTOM, noShowHeader: true }));
      const read = await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgA.publicKey });
      expect(read.json().custom).toEqual({ ...CUSTOM, noShowHeader: true });
      expect((await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgB.publicKey })).statusCode).toBe(404);
    });
  });

  describe('the final document carries the header and footer on each page, numbered, and still verifies', () => {
    let own: { document: Buffer; certificate: Buffer; preview: Buffer };
    let plain: { document: Buffer; certificate: Buffer; preview: Buffer };
    beforeAll(async () => {
      const template = await templateWithHtml(svc, svc.orgA, LONG_HTML, withCustom(CUSTOM));
      // Edited once the process exists: the process keeps the layout it was created with.
      own = await sealedFiles(svc.orgA, template, async () => {
        const changed = { ...CUSTOM, footer: { height: '10mm', contents: { default: 'EDITED LATER' } } };
        expect((await call(svc.app, 'PUT', '/template', { key: svc.orgA.privateKey, body: { id: template, custom: changed } })).statusCode).toBe(200);
      });
      // The other organization's template has no custom: the service's own layout.
      plain = await sealedFiles(svc.orgB, await templateWithHtml(svc, svc.orgB, LONG_HTML, sampleTemplate()));
    }, 120_000);

    it.runIf(pdfToolsInstalled)(
      'first page: the first header; middle pages: the default ones; last page: the last footer; {{page}} and {{pages}} count the document’s pages',
      () => {
        for (const pdf of [own.document, own.preview]) {
          const documentPages = pages(pdf).filter((page) => page.includes('Clausula numero'));
          const count = documentPages.length;
          expect(count).toBeGreaterThanOrEqual(3);
          documentPages.forEach((page, index) => {
            const number = index + 1;
            expect(page).toContain(number === 1 ? 'Contrato ACME portada' : `Contrato ACME hoja ${number}`);
            expect(page).toContain(number === count ? `Ultima hoja ${number} de ${count}` : `Folio ${number} de ${count}`);
            expect(page).not.toContain('EDITED LATER');
          });
        }
      },
    );

    it.runIf(pdfToolsInstalled)(
      'the template’s footer takes the place of the verification mark on the document’s pages; the certificate keeps its mark and its own layout',
      () => {
        const all = pages(own.document);
        const documentPages = all.filter((page) => page.includes('Clausula numero'));
        for (const page of documentPages) expect(page).not.toContain('Verifique este documento en');
        const certificatePages = all.slice(documentPages.length);
        expect(certificatePages.length).toBeGreaterThan(0);
        certificatePages.forEach((page, index) => {
          expect(page).toContain('Verifique este documento en');
          expect(page).toContain(`Página ${documentPages.length + index + 1} de ${all.length}`);
          expect(page).not.toMatch(/Contrato ACME|Folio|Ultima hoja/);
        });
        for (const page of pages(own.certificate)) expect(page).not.toMatch(/Contrato ACME|Folio|Ultima hoja/);
      },
    );

    it.runIf(pdfToolsInstalled)('without custom, every page carries the verification mark and no header or footer of another organization', () => {
      const all = pages(plain.document);
      for (const page of all) {
        expect(page).toContain('Verifique este documento en');
        expect(page).not.toMatch(/Contrato ACME|Folio|Ultima hoja/);
      }
    });

    it.runIf(pdfToolsInstalled)('pdfsig reports the signature of both final files valid, covering the whole file, and qpdf finds no error', () => {
      for (const file of [own.document, own.certificate]) {
        const report = pdfsig(file, nss);
        expect(report).toContain('Total document signed');
        expect(report).toContain('Signature Validation: Signature is Valid.');
        expect(qpdfCheck(file).output).toContain('No syntax or stream encoding errors found');
      }
    });
  });
});
