import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/documents/document-files.js';
import { listSignatureBoxes } from '../src/documents/placement/box-queries.js';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { certificatePem } from '../src/pdf-signing/signing-identity.js';
import { pdfsig, pdfToolsInstalled, pdftotext, trustStore } from './support/pdf-tools.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { readAndSign, signers, stored } from './support/signing.js';

/** A PDF of pages of the given sizes, each showing its lines (drawn by pdf-lib, as hex strings) at 72 pt from the left. */
async function pdfWith(pages: { size: [number, number]; lines: { text: string; y: number }[] }[]): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const { size, lines } of pages) {
    const page = document.addPage(size);
    for (const line of lines) page.drawText(line.text, { x: 72, y: line.y, size: 12, font });
  }
  return Buffer.from(await document.save());
}

/** The same kind of page written by hand, its tag in a TJ array cut by kerning, in literal strings. */
function handWrittenPdf(): Buffer {
  const content = 'BT /F1 12 Tf 100 200 Td [(Firma: {{sig) -20 (nature:0}})] TJ ET';
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Resources<</Font<</F1 5 0 R>>>>/Contents 4 0 R>>',
    `<</Length ${content.length}>>\nstream\n${content}\nendstream`,
    '<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<</Size ${offsets.length + 1}/Root 1 0 R>>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const A4: [number, number] = [595, 842];
const LETTER: [number, number] = [612, 792];

describe.each(dialects)('signatures on the document pages (%s)', (dialect) => {
  let svc: TestService;
  let twoPages: Buffer;
  let tagged: Buffer;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    twoPages = await pdfWith([
      { size: A4, lines: [{ text: 'Contrato', y: 780 }] },
      { size: LETTER, lines: [{ text: 'Firmas', y: 700 }] },
    ]);
    tagged = await pdfWith([
      { size: A4, lines: [{ text: 'Arrendador: {{signature:0}}', y: 200 }] },
      { size: LETTER, lines: [{ text: 'Arrendatario: {{signature:1}}', y: 150 }] },
    ]);
  });
  afterAll(async () => svc.close());

  const upload = (org: TestOrganization, pdf: Buffer, signProfile: Record<string, unknown>[]) =>
    call(svc.app, 'POST', '/document/upload', { key: org.privateKey, body: { email: org.email, name: 'Lease', file: pdf.toString('base64'), signProfile } });

  async function boxesOf(org: TestOrganization, code: string) {
    const { process, participants } = await stored(svc, org, code);
    const rows = await listSignatureBoxes(svc.deps.db, process.id);
    return rows.map((row) => ({
      signer: participants.findIndex((p) => p.id === row.participant_row_id),
      document: row.document_position,
      box: row.box_index,
      page: row.page,
      left: row.left_pt,
      bottom: row.bottom_pt,
      width: row.width_pt,
      height: row.height_pt,
    }));
  }

  async function storedDocument(org: TestOrganization, code: string, position = 0): Promise<Buffer> {
    const view = (await call(svc.app, 'GET', '/document', { key: org.privateKey, query: { code } })).json();
    return (await svc.app.inject({ method: 'GET', url: localPath(view.documents[position].url) })).rawPayload;
  }

  describe('signProfile[x].position: boxes by their bottom-right corner (fractions, y from the top) and size in points', () => {
    it("stores each box in points from the page's bottom-left corner: right = x·W, bottom = H − y·H, left = right − w", async () => {
      const [first, second] = signers(2);
      const res = await upload(svc.orgA, twoPages, [
        {
          ...first,
          position: [
            { page: 1, x: 0.5, y: 0.75, w: 150, h: 50 },
            { page: 2, x: 1, y: 1, w: 200, h: 60 },
          ],
        },
        { ...second, position: [{ page: 2, x: 0.9, y: 0.25, w: 120.5, h: 40 }] },
      ]);
      expect(res.statusCode).toBe(200);
      expect(await boxesOf(svc.orgA, res.json().code)).toEqual([
        ...[
          { signer: 0, box: 0, page: 1, left: 297.5 - 150, bottom: 842 - 631.5, width: 150, height: 50 },
          { signer: 0, box: 1, page: 2, left: 612 - 200, bottom: 0, width: 200, height: 60 },
          { signer: 1, box: 0, page: 2, left: 550.8 - 120.5, bottom: 792 - 198, width: 120.5, height: 40 },
        ].map((box) => ({ ...box, document: 0, left: expect.closeTo(box.left, 6), bottom: expect.closeTo(box.bottom, 6) })),
      ]);
      expect((await storedDocument(svc.orgA, res.json().code)).equals(twoPages)).toBe(true);
    });

    it('without any placement nothing is stored: signatures stay on the certificate pages', async () => {
      const res = await upload(svc.orgA, twoPages, signers(2));
      expect(res.statusCode).toBe(200);
      expect(await boxesOf(svc.orgA, res.json().code)).toEqual([]);
    });
  });

  describe('a bad box is refused with 400 naming its field', () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['a page the PDF lacks', { page: 3, x: 0.5, y: 0.5, w: 100, h: 40 }, /^"signProfile\[1\]\.position\[1\]\.page" must be a page of the PDF, which has 2/],
      ['a box past the left edge', { page: 1, x: 0.1, y: 0.5, w: 100, h: 40 }, /^"signProfile\[1\]\.position\[1\]" must lie inside page 1/],
      ['a box past the top edge', { page: 2, x: 0.5, y: 0.01, w: 100, h: 40 }, /^"signProfile\[1\]\.position\[1\]" must lie inside page 2/],
      ['a width of zero', { page: 1, x: 0.5, y: 0.5, w: 0, h: 40 }, /^"signProfile\[1\]\.position\[1\]\.w" must be a positive number/],
      ['a negative height', { page: 1, x: 0.5, y: 0.5, w: 100, h: -1 }, /^"signProfile\[1\]\.position\[1\]\.h" must be a positive number/],
      ['a corner off the page', { page: 1, x: 1.5, y: 0.5, w: 100, h: 40 }, /^"signProfile\[1\]\.position\[1\]\.x" must be less than or equal to 1/],
    ];
    it.each(cases)('%s', async (_, bad, message) => {
      const [first, second] = signers(2);
      const good = { page: 1, x: 0.9, y: 0.9, w: 100, h: 40 };
      const res = await upload(svc.orgA, twoPages, [first ?? {}, { ...second, position: [good, bad] }]);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    });
  });

  describe('signProfile[x].label: the signature goes where the PDF shows {{signature:N}}, and the tag leaves the file', () => {
    it("finds each signer's tag, anchors a box of at least 150 × 50 pt at its baseline-left, and stores the PDF without the tags", async () => {
      const [first, second] = signers(2);
      const res = await upload(svc.orgA, tagged, [
        { ...first, label: true },
        { ...second, label: true },
      ]);
      expect(res.statusCode).toBe(200);
      const boxes = await boxesOf(svc.orgA, res.json().code);
      expect(boxes).toEqual([
        { signer: 0, document: 0, box: 0, page: 1, left: expect.any(Number), bottom: 200, width: 150, height: 50 },
        { signer: 1, document: 0, box: 0, page: 2, left: expect.any(Number), bottom: 150, width: 150, height: 50 },
      ]);
      // After the label's text ("Arrendador: ", at 12 pt Helvetica), not at the line's start.
      expect(boxes[0]?.left).toBeGreaterThan(72 + 50);
      expect(boxes[0]?.left).toBeLessThan(72 + 90);
      const document = await storedDocument(svc.orgA, res.json().code);
      const { process } = await stored(svc, svc.orgA, res.json().code);
      const row = await svc.deps.db.selectFrom('process_documents').select('sha256').where('process_id', '=', process.id).executeTakeFirstOrThrow();
      expect(row.sha256).toBe(sha256(document));
      if (pdfToolsInstalled) {
        const text = pdftotext(document);
        expect(text).toContain('Arrendador:');
        expect(text).not.toContain('{{signature:');
      }
    });

    it('a tag cut by a TJ array in literal strings is found and removed too', async () => {
      const [first] = signers(1);
      const pdf = handWrittenPdf();
      const res = await upload(svc.orgA, pdf, [{ ...first, label: true }]);
      expect(res.statusCode).toBe(200);
      expect(await boxesOf(svc.orgA, res.json().code)).toMatchObject([{ page: 1, bottom: 200, width: 150, height: 50 }]);
      if (pdfToolsInstalled) expect(pdftotext(await storedDocument(svc.orgA, res.json().code))).not.toContain('signature');
    });

    it('a tag not in the PDF is refused with 400 naming the signer', async () => {
      const [first, second, third] = signers(3);
      const res = await upload(svc.orgA, tagged, [first ?? {}, second ?? {}, { ...third, label: true }]);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('"signProfile[2]": the tag {{signature:2}} is not in the PDF');
    });

    it('tags and coordinates add up: the tag box follows the given ones', async () => {
      const [first] = signers(1);
      const res = await upload(svc.orgA, tagged, [{ ...first, label: true, position: [{ page: 2, x: 0.5, y: 0.5, w: 100, h: 30 }] }]);
      expect(res.statusCode).toBe(200);
      expect((await boxesOf(svc.orgA, res.json().code)).map((b) => [b.box, b.page])).toEqual([
        [0, 2],
        [1, 1],
      ]);
    });
  });

  describe('from the API to the sealed file: tags placed, removed, and signed over', () => {
    it('a tagged PDF signed by both signers seals with each name on its page, no tag left, and a valid signature; the other organization cannot read it', async () => {
      const [first, second] = signers(2);
      const res = await upload(svc.orgA, tagged, [
        { ...first, label: true },
        { ...second, label: true },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      const code: string = res.json().code;
      const { process, participants } = await stored(svc, svc.orgA, code);
      for (const participant of participants) await readAndSign(svc.deps, { token: participant.link_token });
      expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
      const keys = await finalFileKeys(svc.deps.db, process.id);
      const sealed = keys && (await readBlobBytes(svc.deps.blobs, keys.documents[0] ?? ''));
      if (!sealed) throw new Error('no final file');
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).statusCode).toBe(400);
      if (!pdfToolsInstalled) return;
      const pages = pdftotext(sealed).split('\f');
      expect(pages[0]).toContain('Signer 0');
      expect(pages[1]).toContain('Signer 1');
      expect(pages.join('')).not.toContain('{{signature:');
      expect(pdfsig(sealed, trustStore(certificatePem(svc.deps.documentSigner.identity.certificate)))).toContain('Signature is Valid');
    });
  });

  describe('with compress, the placement is checked when the PDF arrives through the upload URL', () => {
    const put = (url: string, pdf: Buffer) =>
      svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'application/pdf' }, payload: pdf });

    it("a PDF without a signer's tag is answered 400 naming the signer; the process waits for a good PDF, whose tags are found and removed", async () => {
      const [first, second] = signers(2);
      const res = await call(svc.app, 'POST', '/document/upload', {
        key: svc.orgA.privateKey,
        body: {
          email: svc.orgA.email,
          name: 'Lease',
          compress: true,
          signProfile: [
            { ...first, label: true },
            { ...second, position: [{ page: 2, x: 0.5, y: 0.5, w: 100, h: 30 }] },
          ],
        },
      });
      expect(res.statusCode).toBe(200);
      const { code, url } = res.json();
      const untagged = await put(url, twoPages);
      expect(untagged.statusCode).toBe(400);
      expect(untagged.json().message).toBe('"signProfile[0]": the tag {{signature:0}} is not in the PDF');
      expect((await stored(svc, svc.orgA, code)).participants.map((p) => p.status)).toEqual(['PENDING', 'PENDING']);
      expect(await boxesOf(svc.orgA, code)).toEqual([]);

      const good = await put(url, tagged);
      expect(good.statusCode).toBe(200);
      expect((await stored(svc, svc.orgA, code)).participants.map((p) => p.status)).toEqual(['NOTIFICATION', 'NOTIFICATION']);
      expect((await boxesOf(svc.orgA, code)).map((b) => [b.signer, b.page, b.bottom])).toEqual([
        [0, 1, 200],
        [1, 2, 396],
      ]);
      const document = await storedDocument(svc.orgA, code);
      // Only the tags of signers placed by label leave the file.
      if (pdfToolsInstalled) expect(pdftotext(document)).not.toContain('{{signature:0}}');
      const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json();
      expect(view.documents[0].sha256).toBe(sha256(document));
    });

    it('a box on a page the arriving PDF lacks is answered 400 naming the field', async () => {
      const [first] = signers(1);
      const res = await call(svc.app, 'POST', '/document/upload', {
        key: svc.orgA.privateKey,
        body: { email: svc.orgA.email, name: 'Lease', compress: true, signProfile: [{ ...first, position: [{ page: 3, x: 0.5, y: 0.5, w: 100, h: 30 }] }] },
      });
      const up = await put(res.json().url, twoPages);
      expect(up.statusCode).toBe(400);
      expect(up.json().message).toMatch(/^"signProfile\[0\]\.position\[0\]\.page" must be a page of the PDF, which has 2/);
    });
  });

  describe("packages: placement per document, in each document's signProfile", () => {
    const many = (body: Record<string, unknown>) =>
      call(svc.app, 'POST', '/document/many', { key: svc.orgA.privateKey, body: { email: svc.orgA.email, name: 'Pack', ...body } });

    it("each PDF's boxes are recorded under its position, for the participant its signProfile names by e-mail", async () => {
      const [first, second] = signers(2);
      const res = await many({
        signProfile: [first, second],
        documents: [
          { name: 'Contract', file: twoPages.toString('base64'), signProfile: [{ ...second, position: [{ page: 2, x: 1, y: 1, w: 100, h: 40 }] }] },
          { name: 'Annex', file: tagged.toString('base64'), signProfile: [{ ...first, label: true }] },
        ],
      });
      expect(res.statusCode).toBe(200);
      expect((await boxesOf(svc.orgA, res.json().code)).map((b) => [b.document, b.signer, b.page, b.left, b.bottom])).toEqual([
        [0, 1, 2, 512, 0],
        [1, 0, 1, expect.any(Number), 200],
      ]);
      if (pdfToolsInstalled) expect(pdftotext(await storedDocument(svc.orgA, res.json().code, 1))).not.toContain('{{signature:0}}');
    });

    it("a bad box is refused naming the document's field; a placement of someone outside the package too", async () => {
      const [first, second] = signers(2);
      const bad = await many({
        signProfile: [first],
        documents: [
          { file: twoPages.toString('base64') },
          { file: twoPages.toString('base64'), signProfile: [{ ...first, position: [{ page: 5, x: 1, y: 1, w: 100, h: 40 }] }] },
        ],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^"documents\[1\]\.signProfile\[0\]\.position\[0\]\.page" must be a page of the PDF/);
      const outsider = await many({
        signProfile: [first],
        documents: [{ file: twoPages.toString('base64') }, { file: twoPages.toString('base64'), signProfile: [{ ...second, label: true }] }],
      });
      expect(outsider.statusCode).toBe(400);
      expect(outsider.json().message).toMatch(/^"documents\[1\]\.signProfile\[0\]\.email" places the signature of someone who is not a participant/);
    });

    it('the root signProfile places nothing: it is refused there, naming the field', async () => {
      const [first] = signers(1);
      const res = await many({
        signProfile: [{ ...first, label: true }],
        documents: [{ file: tagged.toString('base64') }, { file: tagged.toString('base64') }],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^"signProfile\[0\]\.label" places signatures on an uploaded PDF only/);
    });
  });

  describe('PDF templates: a PDF kept with the boxes of each signer type, per organization', () => {
    const positions = { arrendador: [{ page: 1, x: 0.5, y: 0.75, w: 150, h: 50 }], arrendatario: [{ page: 2, x: 1, y: 1, w: 200, h: 60 }] };
    const createTemplate = (org: TestOrganization, body: Record<string, unknown>) =>
      call(svc.app, 'POST', '/template/pdf', { key: org.privateKey, body: { name: 'Lease', file: twoPages.toString('base64'), positions, ...body } });

    it("creates, reads, lists and deletes; a process from it signs in the stored boxes of each signer's type; another organization's is not found", async () => {
      const created = await createTemplate(svc.orgA, {});
      expect(created.statusCode).toBe(200);
      const { id } = created.json();
      const read = await call(svc.app, 'GET', '/template/pdf', { key: svc.orgA.privateKey, query: { id } });
      expect(read.json()).toMatchObject({ id, name: 'Lease', positions, sha256: sha256(twoPages) });
      expect((await call(svc.app, 'GET', '/template/pdf', { key: svc.orgA.privateKey })).json().data.map((t: { id: string }) => t.id)).toContain(id);
      expect((await call(svc.app, 'GET', '/template/pdf', { key: svc.orgB.privateKey })).json().data.map((t: { id: string }) => t.id)).not.toContain(id);
      expect((await call(svc.app, 'GET', '/template/pdf', { key: svc.orgB.privateKey, query: { id } })).statusCode).toBe(404);

      const [first, second] = signers(2);
      const body = (org: TestOrganization, signProfile: Record<string, unknown>[]) => ({
        key: org.privateKey,
        body: { email: org.email, name: 'Lease', document: id, signProfile },
      });
      const res = await call(
        svc.app,
        'POST',
        '/document/upload',
        body(svc.orgA, [
          { ...first, type: 'arrendatario' },
          { ...second, type: 'arrendador' },
        ]),
      );
      expect(res.statusCode).toBe(200);
      expect((await boxesOf(svc.orgA, res.json().code)).map((b) => [b.signer, b.page, b.left, b.bottom])).toEqual([
        [0, 2, 412, 0],
        [1, 1, 147.5, 210.5],
      ]);
      expect((await storedDocument(svc.orgA, res.json().code)).equals(twoPages)).toBe(true);

      const unknownType = await call(svc.app, 'POST', '/document/upload', body(svc.orgA, [{ ...first, type: 'fiador' }]));
      expect(unknownType.statusCode).toBe(400);
      expect(unknownType.json().message).toBe('"signProfile[0].type" must be one of the PDF template\'s types [arrendador, arrendatario]');
      const foreign = await call(svc.app, 'POST', '/document/upload', body(svc.orgB, [first ?? {}]));
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().message).toBe('PDF_TEMPLATE_NOT_FOUND');

      expect((await call(svc.app, 'DELETE', '/template/pdf', { key: svc.orgB.privateKey, query: { id } })).statusCode).toBe(404);
      expect((await call(svc.app, 'DELETE', '/template/pdf', { key: svc.orgA.privateKey, query: { id } })).json()).toEqual({ id, deleted: true });
      expect((await call(svc.app, 'GET', '/template/pdf', { key: svc.orgA.privateKey, query: { id } })).statusCode).toBe(404);
    });

    it('its boxes are checked against its PDF when it is created, naming the field', async () => {
      const res = await createTemplate(svc.orgA, { positions: { fiador: [{ page: 3, x: 0.5, y: 0.5, w: 100, h: 40 }] } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^"positions\.fiador\.position\[0\]\.page" must be a page of the PDF/);
      const notPdf = await createTemplate(svc.orgA, { file: Buffer.from('not a pdf at all').toString('base64') });
      expect(notPdf.json().message).toBe('FILE_NOT_VALID: not a PDF');
    });
  });

  describe('placement belongs to uploaded PDFs', () => {
    it('a template document refuses position, naming the field', async () => {
      const [first] = signers(1);
      const res = await call(svc.app, 'POST', '/document/save', {
        key: svc.orgA.privateKey,
        body: {
          email: svc.orgA.email,
          name: 'Lease',
          document: '65f1c0e2a4b5c6d7e8f90123',
          signProfile: [{ ...first, position: [{ page: 1, x: 0.5, y: 0.5, w: 100, h: 30 }] }],
        },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^"signProfile\[0\]\.position" places signatures on an uploaded PDF only/);
    });
  });
});
