import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveDocument } from '../src/documents/participant/signer-flow.js';
import { recordSignatureBoxes } from '../src/documents/placement/box-queries.js';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { updateSettings } from '../src/organizations/settings.js';
import { certificatePem } from '../src/pdf-signing/signing-identity.js';
import { SCREENSHOTS_DIR } from './support/browser.js';
import { type PlacedBox as Box, inkByPlace } from './support/pdf-ink.js';
import { pageImage, pdfsig, pdfToolsInstalled, pdftotext, trustStore } from './support/pdf-tools.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { readAndSign, stored } from './support/signing.js';

/** Pages of 400 × 500 points with a line of text and a signature line, as a contract has. */
async function twoPagePdf(): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const number of [1, 2]) {
    const page = document.addPage([400, 500]);
    page.drawText(`Contract page ${number}`, { x: 40, y: 450, font, size: 14 });
    page.drawLine({ start: { x: 40, y: 140 }, end: { x: 360, y: 140 }, thickness: 1 });
  }
  return Buffer.from(await document.save());
}

/** A drawn signature, as the people's page sends it: a PNG of a stroke. */
async function drawnSignature(): Promise<Buffer> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="90"><path d="M10 70 C 60 5, 90 5, 120 60 S 200 90, 290 20" stroke="#1a237e" stroke-width="4" fill="none"/></svg>';
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe.each(dialects)('the seal draws each participant in their boxes on the document’s pages (%s)', (dialect) => {
  const boxesA: Box[] = [
    { page: 1, left_pt: 50, bottom_pt: 150, width_pt: 150, height_pt: 70 },
    { page: 2, left_pt: 210, bottom_pt: 150, width_pt: 150, height_pt: 70 },
  ];
  const boxesB: Box[] = [
    { page: 2, left_pt: 40, bottom_pt: 260, width_pt: 160, height_pt: 80 },
    { page: 1, left_pt: 220, bottom_pt: 300, width_pt: 120, height_pt: 60 },
  ];
  let a: { code: string; sealed: Buffer };
  let b: { code: string; sealed: Buffer };
  let svc: TestService;
  let nss: string;
  let original: Buffer;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    nss = pdfToolsInstalled ? trustStore(certificatePem(svc.deps.documentSigner.identity.certificate)) : '';
    original = await twoPagePdf();
    await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { language: 'en', timeZone: 'Asia/Tokyo' } });
    a = await sealedWithBoxes(
      svc.orgA,
      'Contrato arrendamiento "Ñuñoa"',
      [
        { name: 'Ana Gómez', email: 'ana@people.test' },
        { name: 'Luis Pérez', email: 'luis@people.test' },
      ],
      boxesA,
    );
    b = await sealedWithBoxes(
      svc.orgB,
      'Lease contract',
      [
        { name: 'Tokyo Signer', email: 'tokyo@people.test' },
        { name: 'Tokyo Approver', email: 'approver@people.test', role: 'APPROVER' },
      ],
      boxesB,
    );
  });
  afterAll(async () => svc.close());

  /**
   * A process of `org` created by today's API, its boxes recorded as placement records them (one
   * box a participant, in order), everyone signed through the people's flow, and sealed.
   */
  async function sealedWithBoxes(org: TestOrganization, name: string, signProfile: Record<string, unknown>[], boxes: Box[]) {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: { email: org.email, name, file: original.toString('base64'), signProfile },
    });
    expect(res.statusCode, res.body).toBe(200);
    const code: string = res.json().code;
    const { process, participants } = await stored(svc, org, code);
    await recordSignatureBoxes(
      svc.deps.db,
      participants.map((participant, index) => ({
        process_id: process.id,
        document_position: 0,
        participant_row_id: participant.id,
        box_index: 0,
        ...(boxes[index] as Box),
      })),
    );
    const image = await drawnSignature();
    for (const participant of participants) {
      if (participant.role === 'APPROVER') await approveDocument(svc.deps, { token: participant.link_token });
      else
        await readAndSign(svc.deps, { token: participant.link_token, ...(participant.position === 0 ? { signature: { kind: 'draw' as const, image } } : {}) });
    }
    expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
    const keys = await finalFileKeys(svc.deps.db, process.id);
    const sealed = keys && (await readBlobBytes(svc.deps.blobs, keys.documents[0] ?? ''));
    if (!sealed) throw new Error('no final file');
    return { code, sealed };
  }

  describe.runIf(pdfToolsInstalled)('ink inside each box and none elsewhere on the page', () => {
    it('A: the drawn signature on page 1 and the name of the signer who sent no image on page 2, each in its own box only', async () => {
      for (const page of [1, 2]) {
        const onPage = boxesA.filter((box) => box.page === page);
        const { inBox, elsewhere } = await inkByPlace(original, a.sealed, page, onPage);
        for (const count of inBox) expect(count).toBeGreaterThan(150);
        expect(elsewhere).toBe(0);
      }
    });

    it('B: the signer’s stamp on page 2 and the approver’s framed stamp on page 1, each in its own box only', async () => {
      for (const page of [1, 2]) {
        const onPage = boxesB.filter((box) => box.page === page);
        const { inBox, elsewhere } = await inkByPlace(original, b.sealed, page, onPage);
        for (const count of inBox) expect(count).toBeGreaterThan(150);
        expect(elsewhere).toBe(0);
      }
    });
  });

  describe.runIf(pdfToolsInstalled)('the stamp writes the name, the date and the reference under the mark', () => {
    it('A (Spanish, Bogotá): both names, the date in Spanish and each reference: the process code and the participant’s number', () => {
      const text = pdftotext(a.sealed).replace(/\s+/g, ' ');
      const pageText = text.slice(0, text.indexOf('Certificado de evidencias'));
      expect(pageText).toContain('Ana Gómez');
      expect(pageText).toContain('Luis Pérez');
      expect(pageText).toContain(`${a.code} · Participante n.º 1`);
      expect(pageText).toContain(`${a.code} · Participante n.º 2`);
      expect(pageText).toMatch(/\d{1,2} de [a-z]+ de \d{4}.{0,12}\d\d:\d\d:\d\d.{0,2}GMT-5/);
      expect(pageText).not.toContain('Tokyo');
    });

    it('B (English, Tokyo): the approver’s stamp says Approved, with the name, the date at GMT+9 and the reference', () => {
      const text = pdftotext(b.sealed).replace(/\s+/g, ' ');
      const pageText = text.slice(0, text.indexOf('Evidence certificate'));
      expect(pageText).toContain('Approved');
      expect(pageText).toContain('Tokyo Approver');
      expect(pageText).toContain(`${b.code} · Participant no. 2`);
      expect(pageText).toMatch(/GMT\+9/);
      expect(pageText).not.toContain('Ana Gómez');
    });
  });

  it.runIf(pdfToolsInstalled)('the final page with its signature in place is rendered for the README (SCREENSHOTS_DIR)', () => {
    fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    const png = pageImage(a.sealed, 1, 110);
    fs.writeFileSync(path.join(SCREENSHOTS_DIR, '23-final-page-signature.png'), png);
    expect(png.length).toBeGreaterThan(0);
  });

  it.runIf(pdfToolsInstalled)('the final file is still signed as a whole, valid for pdfsig, with the certificate pages after the document’s', async () => {
    for (const { sealed } of [a, b]) {
      const report = pdfsig(sealed, nss);
      expect(report).toContain('Total document signed');
      expect(report).toContain('Signature Validation: Signature is Valid.');
      const document = await PDFDocument.load(sealed, { updateMetadata: false });
      expect(document.getPageCount()).toBeGreaterThan(2);
    }
    expect(pdftotext(a.sealed).indexOf('Certificado de evidencias')).toBeGreaterThan(pdftotext(a.sealed).indexOf('Contract page 2'));
  });

  describe('downloads are named after the process, in the organization’s language, not 0.pdf', () => {
    async function downloaded(org: TestOrganization, code: string) {
      const view = (await call(svc.app, 'GET', '/document', { key: org.privateKey, query: { code } })).json();
      const get = (url: string) => svc.app.inject({ method: 'GET', url: localPath(url) });
      return { view, signed: await get(view.documents[0].signedUrl), certificate: await get(view.certificateUrl) };
    }

    it('A (Spanish): “<process name> - firmado.pdf” and “- certificado.pdf”, the quotes of the name left out, UTF-8 in filename*', async () => {
      const { signed, certificate } = await downloaded(svc.orgA, a.code);
      expect(signed.statusCode).toBe(200);
      expect(signed.rawPayload.equals(a.sealed)).toBe(true);
      expect(signed.headers['content-disposition']).toBe(
        `inline; filename="Contrato arrendamiento Nunoa - firmado.pdf"; filename*=UTF-8''Contrato%20arrendamiento%20%C3%91u%C3%B1oa%20-%20firmado.pdf`,
      );
      expect(certificate.headers['content-disposition']).toContain(`filename*=UTF-8''Contrato%20arrendamiento%20%C3%91u%C3%B1oa%20-%20certificado.pdf`);
    });

    it('B (English): “Lease contract - signed.pdf” and “Lease contract - certificate.pdf”; B cannot read A’s process', async () => {
      const { signed, certificate } = await downloaded(svc.orgB, b.code);
      expect(signed.headers['content-disposition']).toBe(`inline; filename="Lease contract - signed.pdf"; filename*=UTF-8''Lease%20contract%20-%20signed.pdf`);
      expect(certificate.headers['content-disposition']).toContain('filename="Lease contract - certificate.pdf"');
      const other = await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code: a.code } });
      expect(other.statusCode).toBe(400);
      expect(other.body).not.toContain('Contrato arrendamiento');
    });

    it('the name is part of the URL’s signature: a URL whose name was changed is refused with 403', async () => {
      const { view } = await downloaded(svc.orgB, b.code);
      const url = new URL(view.documents[0].signedUrl);
      url.searchParams.set('name', 'Invoice paid.pdf');
      const changed = await svc.app.inject({ method: 'GET', url: localPath(url.toString()) });
      expect(changed.statusCode).toBe(403);
      expect(changed.json()).toMatchObject({ message: expect.any(String) });
    });
  });
});
