import fs from 'node:fs';
import path from 'node:path';
import { type DefaultTreeAdapterTypes, parse } from 'parse5';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillFinalFilePositions } from '../src/db/migrations/016_final_file_positions.js';
import type { ParticipantRow } from '../src/db/schema.js';
import { sha256 } from '../src/documents/document-files.js';
import { closeProcess } from '../src/documents/lifecycle/close-process.js';
import { recordProcessEvent } from '../src/documents/process-events.js';
import { findProcessByCode, listDocuments, listParticipants, type ParticipantPatch, updateParticipant } from '../src/documents/queries.js';
import { finalFileKeys, listFinalFiles } from '../src/documents/sealing/final-file-queries.js';
import { sealLocale } from '../src/documents/sealing/seal-language.js';
import { signaturesSection, stampMarkup } from '../src/documents/sealing/seal-markup.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { startEarly } from '../src/documents/sealing/start-early.js';
import { readBlobBytes, writeBlobBytes } from '../src/files/blob-bytes.js';
import { updateSettings } from '../src/organizations/settings.js';
import { IncrementalUpdate } from '../src/pdf-signing/incremental-update.js';
import { asn1js, OID, parseDer, pkijs, sha256Of } from '../src/pdf-signing/pki.js';
import { fillSignature } from '../src/pdf-signing/seal-signature.js';
import { certificatePem, identityFromStored, makeSelfSignedIdentity } from '../src/pdf-signing/signing-identity.js';
import { RevocationAnswers } from '../src/pdf-signing/validation-data.js';
import { ANSWERS, sampleTemplate } from './support/fixtures.js';
import { pdfWithoutXref } from './support/pdf-files.js';
import { lastSignature, opensslVerify, pdfImages, pdfsig, pdfToolsInstalled, pdftotext, qpdfCheck, trustStore } from './support/pdf-tools.js';
import { readPageQr } from './support/qr-reader.js';
import { refusal as refusalOf } from './support/refusal.js';
import { call, dialects, localPath, PUBLIC_URL, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { readAndSign } from './support/signing.js';
import { startTimestampAuthority, type TimestampAuthority } from './support/timestamp-authority.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

type ParentNode = DefaultTreeAdapterTypes.ParentNode;

const SCRIPT_NAME = 'Eve <script>alert(1)</script>';

/** A Complete HTML with both placeholder styles: the buyer's by id (its name twin is ignored), the seller's by name twice. */
const COMPLETE_HTML = `<!DOCTYPE html>
<html><head><meta charset="UTF-8"><title>Compraventa</title></head>
<body>
<p>Comprador: <span name="buyer_name">x</span>. Vendedor: <span name="seller_name">y</span>. Precio: <span name="price">0</span>.</p>
<p>Firmado el <span name="signDate">[fecha]</span>.</p>
<p name="signComplete" hidden>Documento firmado por todas las partes.</p>
<div class="sign-margin" id="buyer"></div>
<div class="sign-margin" name="buyer"></div>
<div class="sign-margin" name="seller"></div>
<div class="sign-margin" name="seller"></div>
</body></html>`;

const SPANISH_MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];

/** A real PDF with one line of text per page, saved as pdf-lib does by default (object and cross-reference streams). */
async function makePdf(pages: number): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) document.addPage([400, 300]).drawText(`Original page ${i + 1}`, { x: 40, y: 200, font, size: 14 });
  return Buffer.from(await document.save());
}

/** A drawn signature, as the people's page sends it: a PNG of a stroke. */
async function drawnSignature(): Promise<Buffer> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="90"><path d="M10 70 C 60 5, 90 5, 120 60 S 200 90, 290 20" stroke="#1a237e" stroke-width="4" fill="none"/></svg>';
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** The text pdftotext finds, with the line breaks of table cells undone. */
function text(pdf: Buffer): string {
  return pdftotext(pdf).replace(/\s+/g, ' ');
}

/** The text without any space, for values a table cell may break anywhere (hashes, action names). */
function compact(pdf: Buffer): string {
  return pdftotext(pdf).replace(/\s+/g, '');
}

describe.each(dialects)('sealing a finished process (%s)', (dialect) => {
  let svc: TestService;
  let nss: string;
  let pem: string;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    pem = certificatePem(svc.deps.documentSigner.identity.certificate);
    nss = trustStore(pem);
  });
  afterAll(async () => svc.close());

  async function createPdfProcess(signProfile: Record<string, unknown>[], pdf: Buffer, org: TestOrganization = svc.orgA): Promise<string> {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: { email: org.email, name: 'Lease contract', file: pdf.toString('base64'), signProfile },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().code;
  }

  async function createTemplateProcess(extra: Record<string, unknown> = {}, org: TestOrganization = svc.orgA): Promise<string> {
    const template = await call(svc.app, 'POST', '/template', { key: org.privateKey, body: sampleTemplate() });
    expect(template.statusCode, template.body).toBe(200);
    const { id, urls } = template.json();
    const upload = await svc.app.inject({ method: 'PUT', url: localPath(urls.complete), headers: { 'content-type': 'text/html' }, payload: COMPLETE_HTML });
    expect(upload.statusCode, upload.body).toBe(200);
    const res = await call(svc.app, 'POST', '/document/save', {
      key: org.privateKey,
      body: { email: org.email, name: 'Compraventa', document: id, data: ANSWERS, ...extra },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().code;
  }

  async function stored(code: string, org: TestOrganization = svc.orgA) {
    const process = await findProcessByCode(svc.deps.db, org.id, code);
    if (!process) throw new Error(`process ${code} not stored`);
    return { process, documents: await listDocuments(svc.deps.db, process.id), participants: await listParticipants(svc.deps.db, process.id) };
  }

  /** Everyone signs (or approves) one second apart, then the process closes as FINISH, in one transaction. */
  async function finish(code: string, extra: (p: ParticipantRow) => ParticipantPatch = () => ({}), org: TestOrganization = svc.orgA): Promise<string> {
    const { process, participants } = await stored(code, org);
    await svc.deps.db.transaction().execute(async (trx) => {
      for (const participant of participants) {
        svc.clock.advance(1000);
        const at = svc.clock.now().toISOString();
        const updated = await updateParticipant(trx, participant.id, { status: 'FINISH', signed_at: at, updated_at: at, ...extra(participant) }, [
          'PENDING',
          'NOTIFICATION',
        ]);
        expect(updated).toBe(true);
        const action = participant.role === 'APPROVER' ? 'PARTICIPANT_APPROVE' : 'PARTICIPANT_SIGN';
        await recordProcessEvent(trx, svc.clock, {
          process,
          action,
          participant,
          platform: 'EMAIL',
          detail: { ip: '203.0.113.7', userAgent: 'Mozilla/5.0 <test>' },
        });
      }
      svc.clock.advance(1000);
      expect(await closeProcess(trx, svc.clock, { process, to: 'FINISH' })).toBeDefined();
    });
    return process.id;
  }

  async function blob(key: string): Promise<Buffer> {
    const bytes = await readBlobBytes(svc.deps.blobs, key);
    if (!bytes) throw new Error(`no file at ${key}`);
    return bytes;
  }

  /** The final files the seal of a process recorded. */
  async function recorded(processId: string) {
    const keys = await finalFileKeys(svc.deps.db, processId);
    if (!keys) throw new Error(`no final files recorded for ${processId}`);
    return keys;
  }

  async function finishedMails(processName: string) {
    const rows = await svc.deps.db.selectFrom('outbox').selectAll().where('kind', '=', 'email').execute();
    return rows
      .map((row) => ({ row, body: JSON.parse(row.payload) as { to: string; template?: string; text: string; subject: string } }))
      .filter(({ body }) => body.template === 'process-finished' && body.subject.includes(processName));
  }

  it('the markup the seal adds is well-formed: names are escaped and every style stays one attribute', async () => {
    const { participants } = await stored(await createPdfProcess([{ name: SCRIPT_NAME, email: 'markup@people.test' }], await makePdf(1)));
    const [participant] = participants;
    if (!participant) throw new Error('no participant');
    const locale = sealLocale('es', 'America/Bogota');
    const html = signaturesSection([stampMarkup(participant, locale, Buffer.from('a PNG')), stampMarkup(participant, locale, undefined)], locale);
    const allowed = new Set(['style', 'class', 'data-participant', 'src', 'alt']);
    const walk = (node: ParentNode): string[] =>
      node.childNodes.flatMap((child) => ('tagName' in child ? [...child.attrs.map((a) => a.name), ...walk(child)] : []));
    const attributes = walk(parse(html));
    expect(attributes.filter((name) => !allowed.has(name))).toEqual([]);
    expect(html).not.toContain('<script>');
  });

  describe('an uploaded PDF', () => {
    let code: string;
    let processId: string;
    let original: Buffer;
    let sealed: Buffer;
    let certificate: Buffer;
    beforeAll(async () => {
      original = await makePdf(2);
      code = await createPdfProcess(
        [
          { name: SCRIPT_NAME, email: 'eve@people.test', otpCode: true, camera: true },
          { name: 'Łukasz Žák', email: 'lukasz@people.test', identification: '12345678', identificationType: 'CC', country: 'CO' },
          { name: 'Quiet Approver', email: 'approver@people.test', role: 'APPROVER', notification: false },
        ],
        original,
      );
      processId = await finish(code, (p) =>
        p.email === 'eve@people.test'
          ? { otp_verified_at: svc.clock.now().toISOString(), camera_verified_at: svc.clock.now().toISOString(), similarity: 93 }
          : {},
      );
    });

    it('shows no final files before sealing, seals once, and answers false afterwards', async () => {
      const before = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json();
      expect(before.status).toBe('FINISH');
      expect(before.certificateUrl).toBeUndefined();
      expect(before.documents[0].signedUrl).toBeUndefined();
      expect(await sealProcess(svc.deps, { processId })).toBe(true);
      expect(await sealProcess(svc.deps, { processId })).toBe(false);
      expect((await stored(code)).process.sealed_at).toBe(svc.clock.now().toISOString());
      const keys = await recorded(processId);
      // The files of the run that sealed, in a folder of its own.
      expect(keys.certificate).toMatch(new RegExp(`^processes/${processId}/final/[0-9a-f]{24}/certificate\\.pdf$`));
      expect(keys.documents).toEqual([keys.certificate.replace('certificate.pdf', '0.pdf')]);
      sealed = await blob(keys.documents[0] ?? '');
      certificate = await blob(keys.certificate);
    });

    it.runIf(pdfToolsInstalled)(
      'keeps the original bytes as they were and adds the certificate pages and the signature after them (incremental update)',
      async () => {
        expect(sealed.subarray(0, original.length).equals(original)).toBe(true);
        const document = await PDFDocument.load(sealed);
        expect(document.getPageCount()).toBeGreaterThan(2);
        const content = text(sealed);
        expect(content).toContain('Original page 1');
        expect(content).toContain('Certificado de evidencias');
        expect(content).toContain((await stored(code)).documents[0]?.sha256);
        expect(content).toContain('Łukasz Žák');
        expect(content).toContain(SCRIPT_NAME);
        expect(compact(sealed)).toContain('PARTICIPANT_APPROVE');
      },
    );

    it.runIf(pdfToolsInstalled)('pdfsig reports the signature valid, ETSI.CAdES.detached, covering the whole file, and the certificate trusted', () => {
      for (const file of [sealed, certificate]) {
        const report = pdfsig(file, nss);
        expect(report).toContain('Signature Type: ETSI.CAdES.detached');
        expect(report).toContain('Total document signed');
        expect(report).toContain('Signature Validation: Signature is Valid.');
        expect(report).toContain('Certificate Validation: Certificate is Trusted.');
      }
    });

    it.runIf(pdfToolsInstalled)('one changed byte gives a digest mismatch', () => {
      const changed = Buffer.from(sealed);
      const at = changed.indexOf('Original page 1') >= 0 ? changed.indexOf('Original page 1') : original.length - 40;
      changed[at] = (changed[at] ?? 0) ^ 0x01;
      expect(pdfsig(changed, nss)).toContain('Digest Mismatch');
    });

    it.runIf(pdfToolsInstalled)('openssl cms -verify agrees, and the signed attributes are those of PAdES B-B', async () => {
      for (const file of [sealed, certificate]) expect(opensslVerify(file, pem).output).toContain('Verification successful');
      const { cms, content } = lastSignature(sealed);
      const signed = new pkijs.SignedData({ schema: parseDer(cms, (schema) => new pkijs.ContentInfo({ schema })).content });
      const attributes = signed.signerInfos[0]?.signedAttrs?.attributes.map((a) => a.type).sort();
      expect(attributes).toEqual([OID.contentType, OID.messageDigest, OID.signingCertificateV2].sort());
      const digest = signed.signerInfos[0]?.signedAttrs?.attributes.find((a) => a.type === OID.messageDigest)?.values[0];
      expect(digest instanceof asn1js.OctetString && Buffer.from(digest.valueBlock.valueHexView).equals(Buffer.from(await sha256Of(content)))).toBe(true);
    });

    it.runIf(pdfToolsInstalled)('qpdf --check finds nothing wrong', () => {
      for (const file of [sealed, certificate]) expect(qpdfCheck(file).output).toContain('No syntax or stream encoding errors found');
    });

    it.runIf(pdfToolsInstalled)(
      'stamps the QR code and the verification link on the pages of a PDF that was not signed before, and on the certificate pages after them',
      async () => {
        const content = text(sealed);
        expect(content).toContain(`${PUBLIC_URL}/verify?code=${code}`);
        const pages = (await PDFDocument.load(sealed)).getPageCount();
        expect(pages).toBeGreaterThan(2);
        const pagesWithImages = new Set(pdfImages(sealed).map((line) => line.trim().split(/\s+/)[0]));
        expect(pagesWithImages).toEqual(new Set(Array.from({ length: pages }, (_, i) => String(i + 1))));
        // Only the certificate's pages, which the service laid out with room for it, are numbered,
        // counting every page of the file: the upload's two come first.
        expect(content).toContain(`Página 3 de ${pages}`);
        expect(content).not.toContain(`Página 1 de`);
      },
    );

    it.runIf(pdfToolsInstalled)(
      'the certificate PDF holds every participant, how each was identified (no similarity figure, identity numbers by their last four characters), the audit trail and the final file hashes',
      async () => {
        const { documents, participants } = await stored(code);
        const content = text(certificate);
        expect(content).toContain(code);
        expect(content).toContain(svc.orgA.email);
        expect(content).toContain(documents[0]?.sha256);
        expect(compact(certificate)).toContain(sha256(sealed));
        // Participants by their number, never by their id (with the process code it opens their flow in the SDK).
        for (const p of participants) {
          expect(content).toContain(`${p.position + 1}. ${p.name}`);
          expect(content).not.toContain(p.participant_id);
        }
        // Every participant receives this certificate: another's identity number shows only its last
        // four characters, and no face similarity figure is shown to anyone.
        expect(content).toContain('CC ••••5678');
        expect(content).not.toContain('12345678');
        expect(content).not.toMatch(/Similitud|93 ?%/);
        expect(content).toContain('código de un solo uso por correo electrónico');
        expect(content).toContain('Dirección IP 203.0.113.7');
        expect(content).toContain('Navegador Mozilla/5.0 <test>');
        expect(content).toContain('America/Bogota');
        expect(content).toMatch(/GMT-5/);
      },
    );

    it('GET /document shows the certificate and the signed document URLs, which download the final files', async () => {
      const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json();
      const downloaded = await svc.app.inject({ method: 'GET', url: localPath(view.certificateUrl) });
      expect(downloaded.statusCode).toBe(200);
      expect(downloaded.headers['content-type']).toContain('application/pdf');
      expect(downloaded.rawPayload.equals(certificate)).toBe(true);
      const signed = await svc.app.inject({ method: 'GET', url: localPath(view.documents[0].signedUrl) });
      expect(signed.statusCode).toBe(200);
      expect(signed.headers['content-type']).toContain('application/pdf');
      expect(signed.rawPayload.equals(sealed)).toBe(true);
    });

    it("queues one process-finished e-mail per notified participant, with their link, in the organization's language (Spanish by default)", async () => {
      const { participants } = await stored(code);
      const mails = await finishedMails('Lease contract');
      const notified = participants.filter((p) => p.notification === 1);
      expect(mails.map((m) => m.body.to).sort()).toEqual(notified.map((p) => p.email).sort());
      for (const p of notified) {
        const mail = mails.find((m) => m.body.to === p.email)?.body;
        expect(mail?.subject).toBe('Documento firmado: «Lease contract»');
        expect(mail?.text).toContain(`Todos firmaron «Lease contract».\n\nDescarga el documento firmado aquí:\n${PUBLIC_URL}/s/${p.link_token}`);
      }
    });

    it("organization B cannot read A's process nor its final files", async () => {
      const res = await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    });
  });

  describe('a template document', () => {
    let code: string;
    let processId: string;
    let pdf: Buffer;
    beforeAll(async () => {
      code = await createTemplateProcess();
      const { participants } = await stored(code);
      const buyer = participants.find((p) => p.signer_type === 'buyer');
      const seller = participants.find((p) => p.signer_type === 'seller');
      if (!buyer || !seller) throw new Error('template signers missing');
      // The buyer draws a signature; the seller sends none and is written by name.
      await readAndSign(svc.deps, {
        token: buyer.link_token,
        ip: '198.51.100.4',
        userAgent: 'Firefox/140',
        signature: { kind: 'draw', image: await drawnSignature() },
      });
      const outcome = await readAndSign(svc.deps, { token: seller.link_token });
      expect(outcome.processStatus).toBe('FINISH');
      processId = (await stored(code)).process.id;
      expect(await sealProcess(svc.deps, { processId })).toBe(true);
      pdf = await blob((await recorded(processId)).documents[0] ?? '');
    });

    it.runIf(pdfToolsInstalled)('renders the filled document to a PDF whose text holds the answers, the signers and the signing date in Spanish', async () => {
      const { process } = await stored(code);
      const content = text(pdf);
      expect(content).toContain('Comprador: ANA GÓMEZ');
      expect(content).toContain('Precio: 50.000');
      expect(content).toContain('Documento firmado por todas las partes.');
      expect(content).toContain('Ana Gómez');
      expect(content).toContain('Luis Pérez');
      expect(content).toContain('Firmado electrónicamente');
      // The day in the organization's time zone (America/Bogota, UTC-5).
      const local = new Date(new Date(process.updated_at).getTime() - 5 * 3_600_000);
      const expected = `${String(local.getUTCDate()).padStart(2, '0')} de ${SPANISH_MONTHS[local.getUTCMonth()]} de ${local.getUTCFullYear()}`;
      expect(content).toContain(`Firmado el ${expected}.`);
      expect(content).toContain(`${PUBLIC_URL}/verify?code=${code}`);
      expect(content).toContain('Dirección IP 198.51.100.4');
    });

    it.runIf(pdfToolsInstalled)('every page carries the verification mark and its number, and its QR code reads as the /verify link', async () => {
      const pages = (await PDFDocument.load(pdf)).getPageCount();
      const content = text(pdf);
      for (let page = 1; page <= pages; page++) expect(content).toContain(`Página ${page} de ${pages}`);
      expect(content.split(`Código: ${code}`).length - 1).toBe(pages);
      for (let page = 1; page <= pages; page++) expect(await readPageQr(pdf, page)).toBe(`${PUBLIC_URL}/verify?code=${code}`);
    });

    it.runIf(pdfToolsInstalled)("places the drawn signature image in the buyer's place and the certificate, and signs the PDF", () => {
      // The buyer's stamp and the certificate's copy of the signature, 300 pixels wide (a QR code has a pixel per module).
      const images = pdfImages(pdf).map((line) => line.trim().split(/\s+/));
      expect(images.filter((columns) => columns[2] === 'image' && columns[3] === '300')).toHaveLength(2);
      const report = pdfsig(pdf, nss);
      expect(report).toContain('Signature Type: ETSI.CAdES.detached');
      expect(report).toContain('Signature Validation: Signature is Valid.');
      expect(report).toContain('Certificate Validation: Certificate is Trusted.');
      expect(qpdfCheck(pdf).output).toContain('No syntax or stream encoding errors found');
    });

    it('the signature image is stored under the participant, flattened on white as 8-bit RGB of its own size, and recorded with the signature', async () => {
      const { participants } = await stored(code);
      const buyer = participants.find((p) => p.signer_type === 'buyer');
      const seller = participants.find((p) => p.signer_type === 'seller');
      expect(buyer?.signature_key).toMatch(new RegExp(`^processes/${processId}/participants/${buyer?.participant_id}/signature-.+\\.png$`));
      const kept = await blob(buyer?.signature_key ?? '');
      const { width, height } = await sharp(await drawnSignature()).metadata();
      expect(await sharp(kept).metadata()).toMatchObject({ format: 'png', width, height, channels: 3, depth: 'uchar', hasAlpha: false });
      const onWhite = await sharp(await drawnSignature())
        .flatten({ background: '#ffffff' })
        .removeAlpha()
        .raw()
        .toBuffer();
      const keptPixels = await sharp(kept).raw().toBuffer();
      expect(keptPixels.length).toBe(onWhite.length);
      expect(keptPixels.every((value, index) => Math.abs(value - (onWhite[index] ?? 0)) <= 1)).toBe(true);
      expect(seller?.signature_key).toBeNull();
    });
  });

  it('the signature image is a PNG of at most 512 KB and 4096 × 4096 pixels that can be decoded: 400 empty, 413 too large, 415 not a PNG, 422 unreadable, and nothing is kept', async () => {
    const code = await createPdfProcess([{ name: 'Picky Signer', email: 'picky@people.test' }], await makePdf(1));
    const { participants } = await stored(code);
    const token = participants[0]?.link_token ?? '';
    const refusal = async (image: Buffer) =>
      refusalOf(readAndSign(svc.deps, { token, signature: { kind: 'draw', image } })).then(({ statusCode, message }) => ({
        statusCode,
        message: message.split(':')[0],
      }));
    const png = await drawnSignature();
    expect(await refusal(Buffer.alloc(0))).toEqual({ statusCode: 400, message: 'SIGNATURE_IMAGE_EMPTY' });
    expect(await refusal(Buffer.concat([png, Buffer.alloc(512 * 1024)]))).toEqual({ statusCode: 413, message: 'SIGNATURE_IMAGE_TOO_LARGE' });
    expect(await refusal(await sharp(png).jpeg().toBuffer())).toEqual({ statusCode: 415, message: 'SIGNATURE_IMAGE_NOT_PNG' });
    const huge = await sharp({ create: { width: 5000, height: 4000, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    expect(huge.length).toBeLessThan(512 * 1024);
    expect(await refusal(huge)).toEqual({ statusCode: 413, message: 'SIGNATURE_IMAGE_TOO_LARGE' });
    const damaged = Buffer.concat([png.subarray(0, 16), Buffer.alloc(200, 7)]);
    expect(await refusal(damaged)).toEqual({ statusCode: 422, message: 'SIGNATURE_IMAGE_UNREADABLE' });
    const { participants: after } = await stored(code);
    expect(after[0]?.status).not.toBe('FINISH');
    expect(after[0]?.signature_key).toBeNull();
  });

  it('a signature refused after its image was stored (a code still to verify) leaves no image behind', async () => {
    const code = await createPdfProcess([{ name: 'Early Signer', email: 'early@people.test', otpCode: true }], await makePdf(1));
    const { process, participants } = await stored(code);
    await expect(
      readAndSign(svc.deps, { token: participants[0]?.link_token ?? '', signature: { kind: 'draw', image: await drawnSignature() } }),
    ).rejects.toThrow('OTP_REQUIRED');
    const folder = path.join(svc.config.dataDir, 'files', 'processes', process.id, 'participants');
    expect(fs.existsSync(folder) ? fs.readdirSync(folder, { recursive: true }).filter((f) => String(f).endsWith('.png')) : []).toEqual([]);
    expect((await stored(code)).participants[0]?.signature_key).toBeNull();
  });

  /** Every recorded final file is stored with the hash recorded, and the certificate lists the recorded documents' hashes. */
  async function expectRecordedSetWhole(processId: string) {
    const keys = await recorded(processId);
    for (const row of await listFinalFiles(svc.deps.db, processId)) expect(sha256(await blob(row.file_key))).toBe(row.sha256);
    const certificate = compact(await blob(keys.certificate));
    for (const key of keys.documents) expect(certificate).toContain(sha256(await blob(key)));
    return keys;
  }

  it('a rerun after a stop before the mark writes and records a whole set of its own; the earlier files are never handed out', async () => {
    const code = await createPdfProcess([{ name: 'Retry Signer', email: 'retry@people.test' }], await makePdf(1));
    const processId = await finish(code);
    expect(await sealProcess(svc.deps, { processId })).toBe(true);
    const first = await recorded(processId);
    // As if the mark had not committed: the files exist, the mark and the records made with it do not.
    await svc.deps.db.updateTable('processes').set({ sealed_at: null }).where('id', '=', processId).execute();
    await svc.deps.db.deleteFrom('final_files').where('process_id', '=', processId).execute();
    svc.clock.advance(60_000);
    expect(await sealProcess(svc.deps, { processId })).toBe(true);
    const second = await recorded(processId);
    expect(second.certificate).not.toBe(first.certificate);
    expect(second.documents[0]).not.toBe(first.documents[0]);
    if (pdfToolsInstalled) await expectRecordedSetWhole(processId);
    const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json();
    const downloaded = await svc.app.inject({ method: 'GET', url: localPath(view.documents[0].signedUrl) });
    expect(downloaded.rawPayload.equals(await blob(second.documents[0] ?? ''))).toBe(true);
    expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
  });

  /**
   * Holds the next write of a final file until `release` is called, as a run stalled in a slow
   * store call while a second run seals; `key` is the key it was writing. `restore` undoes it.
   */
  function holdFirstFinalWrite() {
    const blobs = svc.deps.blobs;
    const write = blobs.writeBytes.bind(blobs);
    let release: () => void = () => undefined;
    let reached: (key: string) => void = () => undefined;
    const atWrite = new Promise<string>((resolve) => {
      reached = resolve;
    });
    let held = false;
    blobs.writeBytes = async (key, bytes, contentType) => {
      if (!held && key.includes('/final/')) {
        held = true;
        reached(key);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      }
      return write(key, bytes, contentType);
    };
    return { atWrite, release: () => release(), restore: () => (blobs.writeBytes = write) };
  }

  it('a second run (a job whose lease expired while it sealed) never replaces a final file once recorded: copies handed out stay verifiable, and the first run removes what it wrote', async () => {
    const code = await createTemplateProcess();
    const processId = await finish(code);
    // The first run is held inside the store call of its first final file, while a second run seals.
    const hold = holdFirstFinalWrite();
    try {
      const first = sealProcess(svc.deps, { processId });
      const heldKey = await hold.atWrite;
      expect(await sealProcess(svc.deps, { processId })).toBe(true);
      const handedOut = await blob((await recorded(processId)).documents[0] ?? '');
      hold.release();
      expect(await first).toBe(false);
      const rows = await listFinalFiles(svc.deps.db, processId);
      expect(rows).toHaveLength(2);
      expect(rows.map((row) => row.file_key)).not.toContain(heldKey);
      expect(await readBlobBytes(svc.deps.blobs, heldKey)).toBeUndefined();
      if (pdfToolsInstalled) await expectRecordedSetWhole(processId);
      const verified = await svc.app.inject({ method: 'POST', url: '/verify', payload: handedOut, headers: { 'content-type': 'application/pdf' } });
      expect(verified.json().result).toBe('unchanged');
    } finally {
      hold.restore();
    }
  });

  it.runIf(pdfToolsInstalled)('a run that stopped half-way records nothing and leaves no file; the next run writes and records a whole set', async () => {
    const code = await createPdfProcess([{ name: 'Half Signer', email: 'half@people.test' }], await makePdf(1));
    const processId = await finish(code);
    const blobs = svc.deps.blobs;
    const write = blobs.writeBytes.bind(blobs);
    blobs.writeBytes = async (key, bytes, contentType) => {
      if (key.includes('/final/') && key.endsWith('/certificate.pdf')) throw new Error('the store is down');
      return write(key, bytes, contentType);
    };
    try {
      await expect(sealProcess(svc.deps, { processId })).rejects.toThrow('the store is down');
    } finally {
      blobs.writeBytes = write;
    }
    expect((await stored(code)).process.sealed_at).toBeNull();
    expect(await listFinalFiles(svc.deps.db, processId)).toEqual([]);
    const finalFolder = path.join(svc.config.dataDir, 'files', 'processes', processId, 'final');
    expect(fs.existsSync(finalFolder) ? fs.readdirSync(finalFolder, { recursive: true }).filter((f) => String(f).endsWith('.pdf')) : []).toEqual([]);
    expect(await sealProcess(svc.deps, { processId })).toBe(true);
    const keys = await expectRecordedSetWhole(processId);
    expect(pdfsig(await blob(keys.certificate), nss)).toContain('Signature is Valid.');
  });

  it('a process sealed before run folders keeps its final files: their positions are read from the keys recorded then', async () => {
    const code = await createPdfProcess([{ name: 'Old Signer', email: 'old@people.test' }], await makePdf(2));
    const processId = await finish(code);
    expect(await sealProcess(svc.deps, { processId })).toBe(true);
    const current = await recorded(processId);
    // As sealed before: the files at processes/<id>/final/<n>.pdf, rows without positions.
    const oldKeys = { document: `processes/${processId}/final/0.pdf`, certificate: `processes/${processId}/final/certificate.pdf` };
    for (const [from, to] of [
      [current.documents[0] ?? '', oldKeys.document],
      [current.certificate, oldKeys.certificate],
    ] as const) {
      await writeBlobBytes(svc.deps.blobs, to, await blob(from), 'application/pdf');
      await svc.deps.db.updateTable('final_files').set({ file_key: to, document_position: null }).where('file_key', '=', from).execute();
    }
    await fillFinalFilePositions(svc.deps.db);
    expect(await recorded(processId)).toEqual({ certificate: oldKeys.certificate, documents: [oldKeys.document] });
    const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json();
    const downloaded = await svc.app.inject({ method: 'GET', url: localPath(view.documents[0].signedUrl) });
    expect(downloaded.rawPayload.equals(await blob(oldKeys.document))).toBe(true);
    expect(view.certificateUrl).toContain('/final/certificate.pdf');
    expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
  });

  it.runIf(pdfToolsInstalled)('a PDF signed before upload keeps its first signature valid after sealing', async () => {
    const earlier = await identityFromStored(await makeSelfSignedIdentity({ commonName: 'Earlier Signer', now: new Date(), years: 1 }));
    const update = await IncrementalUpdate.open(await makePdf(1));
    if (!update) throw new Error('cannot open');
    update.addSignaturePlaceholder({
      page: update.document.getPage(0),
      fieldName: 'Earlier',
      signerName: 'Earlier Signer',
      reason: 'r',
      location: 'l',
      signedAt: new Date(),
    });
    const signedBefore = await fillSignature(await update.bytes(), {
      signer: { identity: earlier, timestamps: undefined, defaultLevel: 'B-B' },
      level: 'B-B',
      revocations: new RevocationAnswers(1000),
    });
    const code = await createPdfProcess([{ name: 'Second Signer', email: 'second@people.test' }], signedBefore);
    const processId = await finish(code);
    expect(await sealProcess(svc.deps, { processId })).toBe(true);
    const sealed = await blob((await recorded(processId)).documents[0] ?? '');
    expect(sealed.subarray(0, signedBefore.length).equals(signedBefore)).toBe(true);
    const report = pdfsig(sealed, nss);
    const signatures = report.split(/Signature #\d+:/).slice(1);
    expect(signatures).toHaveLength(2);
    expect(signatures[0]).toContain('Earlier Signer');
    expect(signatures[0]).toContain('Signature Validation: Signature is Valid.');
    expect(signatures[0]).not.toContain('Total document signed');
    expect(signatures[1]).toContain('Signature Validation: Signature is Valid.');
    expect(signatures[1]).toContain('Total document signed');
  });

  it('a PDF that cannot be opened (encrypted, accepted before intake refused such files) is never kept unsigned: the seal fails and writes nothing', async () => {
    const plain = Buffer.from(await (await PDFDocument.load(await makePdf(1))).save({ useObjectStreams: false })).toString('latin1');
    const encrypted = Buffer.from(plain.replace('trailer\n<<', 'trailer\n<<\n/Encrypt 1 0 R'), 'latin1');
    const code = await createPdfProcess([{ name: 'Locked Signer', email: 'locked@people.test' }], await makePdf(1));
    const { documents } = await stored(code);
    const [document] = documents;
    if (!document?.file_key) throw new Error('no document');
    await writeBlobBytes(svc.deps.blobs, document.file_key, encrypted, 'application/pdf');
    await svc.deps.db
      .updateTable('process_documents')
      .set({ sha256: sha256(encrypted) })
      .where('id', '=', document.id)
      .execute();
    const processId = await finish(code);
    await expect(sealProcess(svc.deps, { processId })).rejects.toThrow('document 0 ("Lease contract") is a PDF the seal cannot open');
    expect(await finalFileKeys(svc.deps.db, processId)).toBeUndefined();
    expect((await stored(code)).process.sealed_at).toBeNull();
  });

  it.runIf(pdfToolsInstalled)(
    'a name in another script is written as given, and a signature image that cannot be read leaves the name in its place, not the process unsealed',
    async () => {
      const code = await createPdfProcess([{ name: 'Łukasz Дмитрий', email: 'lukasz@people.test' }], await makePdf(1));
      const { participants } = await stored(code);
      await readAndSign(svc.deps, { token: participants[0]?.link_token ?? '', signature: { kind: 'draw', image: await drawnSignature() } });
      // As a signature stored before images were decoded on signing: its first bytes say PNG, the rest is not.
      const key = (await stored(code)).participants[0]?.signature_key ?? '';
      await writeBlobBytes(svc.deps.blobs, key, Buffer.concat([(await drawnSignature()).subarray(0, 16), Buffer.alloc(200, 7)]), 'image/png');
      const { process } = await stored(code);
      expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
      const certificate = pdftotext(await blob((await recorded(process.id)).certificate));
      expect(certificate).toContain('Łukasz Дмитрий');
      const fromB = await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } });
      expect(fromB.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    },
  );

  it('a process that is not finished, or unknown, is not sealed and gets no files', async () => {
    const code = await createPdfProcess([{ name: 'Waiting Signer', email: 'waiting@people.test' }], await makePdf(1));
    const { process } = await stored(code);
    expect(await sealProcess(svc.deps, { processId: process.id })).toBe(false);
    expect(await sealProcess(svc.deps, { processId: 'ffffffffffffffffffffffff' })).toBe(false);
    expect(await finalFileKeys(svc.deps.db, process.id)).toBeUndefined();
    expect(fs.existsSync(path.join(svc.config.dataDir, 'files', 'processes', process.id, 'final'))).toBe(false);
    expect((await stored(code)).process.sealed_at).toBeNull();
  });

  it.runIf(pdfToolsInstalled)("an organization set to English in another time zone gets English evidence in its time zone, and A's stays Spanish", async () => {
    await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { language: 'en', timeZone: 'Asia/Tokyo' } });
    const code = await createPdfProcess([{ name: 'Tokyo Signer', email: 'tokyo@people.test' }], await makePdf(1), svc.orgB);
    const processId = await finish(code, () => ({}), svc.orgB);
    expect(await sealProcess(svc.deps, { processId })).toBe(true);
    const certificate = text(await blob((await recorded(processId)).certificate));
    expect(certificate).toContain('Evidence certificate');
    expect(certificate).toContain('Asia/Tokyo');
    expect(certificate).toMatch(/GMT\+9/);
    expect(certificate).not.toContain('Certificado de evidencias');
    expect(certificate).not.toContain(svc.orgA.email);
    const mail = (await finishedMails('Lease contract')).find((m) => m.body.to === 'tokyo@people.test')?.body;
    expect(mail).toMatchObject({ subject: '"Lease contract" is signed', text: expect.stringMatching(/^Everyone has signed "Lease contract"\./) });
  });

  it.runIf(pdfToolsInstalled)('an organization set to Portuguese or French gets its evidence in that language', async () => {
    for (const [language, title, signed] of [
      ['pt', 'Certificado de evidências', 'Validações pedidas'],
      ['fr', 'Certificat de preuves', 'Vérifications demandées'],
    ] as const) {
      await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { language } });
      const code = await createPdfProcess([{ name: `Signer ${language}`, email: `${language}@people.test` }], await makePdf(1), svc.orgB);
      const processId = await finish(code, () => ({}), svc.orgB);
      expect(await sealProcess(svc.deps, { processId })).toBe(true);
      const keys = await recorded(processId);
      const certificate = text(await blob(keys.certificate));
      expect(certificate).toContain(title);
      expect(certificate).not.toContain('Certificado de evidencias');
      expect(text(await blob(keys.documents[0] ?? ''))).toContain(signed);
    }
  });
});

describe("the sign date and times are written in the organization's language and time zone", () => {
  it.each([
    ['es', '05 de marzo de 2025'],
    ['en', '5 March 2025'],
    ['pt', '5 de março de 2025'],
    ['fr', '5 mars 2025'],
  ] as const)('%s writes the signDate as %s', (language, expected) => {
    expect(sealLocale(language, 'America/Bogota').signDate('2025-03-05T14:00:00.000Z')).toBe(expected);
  });

  it('the day is the one in the time zone, not in UTC', () => {
    expect(sealLocale('en', 'America/Bogota').signDate('2025-03-06T03:00:00.000Z')).toBe('5 March 2025');
    expect(sealLocale('en', 'Asia/Tokyo').dateTime('2025-03-05T20:00:00.000Z')).toContain('6 March 2025');
  });
});

/** A one-signer PDF process of `org`, signed by its signer: the outbox's seal job is queued. */
async function signedPdfProcess(svc: TestService, org: TestOrganization, name: string) {
  const upload = await call(svc.app, 'POST', '/document/upload', {
    key: org.privateKey,
    body: { email: org.email, name, file: (await makePdf(1)).toString('base64'), signProfile: [{ name: 'Tess', email: 'tess@people.test' }] },
  });
  expect(upload.statusCode, upload.body).toBe(200);
  const process = await findProcessByCode(svc.deps.db, org.id, upload.json().code);
  if (!process) throw new Error('not stored');
  const [participant] = await listParticipants(svc.deps.db, process.id);
  await readAndSign(svc.deps, { token: participant?.link_token ?? '' });
  return process;
}

/** Each organization's webhook receiver, subscribed and started. */
async function subscribe(svc: TestService, receivers: { a: WebhookReceiver; b: WebhookReceiver }): Promise<void> {
  for (const [receiver, org] of [
    [receivers.a, svc.orgA],
    [receivers.b, svc.orgB],
  ] as const) {
    receiver.now = () => svc.clock.now();
    const url = await receiver.start();
    receiver.secret = (await call(svc.app, 'POST', '/webhooks', { key: org.privateKey, body: { name: 'default', url } })).json().secret;
  }
}

/** The first final document of a sealed process. */
async function sealedDocument(svc: TestService, processId: string): Promise<Buffer> {
  const sealed = await readBlobBytes(svc.deps.blobs, (await finalFileKeys(svc.deps.db, processId))?.documents[0] ?? '');
  if (!sealed) throw new Error('no final document');
  return sealed;
}

/** The RFC 3161 token of the last signature of `pdf`, what it timestamps (the signature value) and the TSA certificate it carries. */
function signatureTimestamp(pdf: Buffer) {
  const { cms } = lastSignature(pdf);
  const signed = new pkijs.SignedData({ schema: parseDer(cms, (schema) => new pkijs.ContentInfo({ schema })).content });
  const signerInfo = signed.signerInfos[0];
  const token = signerInfo?.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStampToken)?.values[0];
  if (!token || !signerInfo) throw new Error('no timestamp token');
  const tokenData = new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: token }).content });
  const info = parseDer(new Uint8Array(tokenData.encapContentInfo.eContent?.getValue() ?? new ArrayBuffer(0)), (schema) => new pkijs.TSTInfo({ schema }));
  const [certificate] = (tokenData.certificates ?? []).filter((c) => c instanceof pkijs.Certificate);
  return { tokenData, info, certificate, timestamped: signerInfo.signature.valueBlock.valueHexView.slice() };
}

function sameCertificate(a: pkijs.Certificate | undefined, b: pkijs.Certificate): boolean {
  return a !== undefined && Buffer.from(a.toSchema().toBER(false)).equals(Buffer.from(b.toSchema().toBER(false)));
}

describe.each(dialects)('PAdES B-T with a timestamp authority (%s)', (dialect) => {
  let svc: TestService;
  let tsa: TimestampAuthority;
  beforeAll(async () => {
    tsa = await startTimestampAuthority();
    svc = await startTestService(dialect, { TSA_URL: tsa.url });
  });
  afterAll(async () => {
    await svc.close();
    await tsa.close();
  });

  it.runIf(pdfToolsInstalled)('the signature carries an RFC 3161 timestamp over its signature value, from the TSA_URL authority', async () => {
    const process = await signedPdfProcess(svc, svc.orgA, 'Stamped');
    expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
    expect(tsa.issued).toBe(2);
    const sealed = await sealedDocument(svc, process.id);
    const { tokenData, info, timestamped } = signatureTimestamp(sealed);
    const imprint = Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView);
    expect(imprint.equals(Buffer.from(await sha256Of(timestamped)))).toBe(true);
    const verified = await tokenData.verify({
      signer: 0,
      trustedCerts: [tsa.identity.certificate],
      // For a timestamp token pkijs checks the TSTInfo's imprint against the data timestamped.
      data: timestamped.buffer,
    });
    expect(verified).toBe(true);
    const report = pdfsig(sealed, trustStore(certificatePem(svc.deps.documentSigner.identity.certificate)));
    expect(report, report).toContain('Signature is Valid.');
  });
});

describe.each(dialects)(
  'timestamp authorities (TSA_URLS) are tried in order, each answer checked; with none answering the seal waits and is retried, never made at a lower level (%s)',
  (dialect) => {
    let svc: TestService;
    let notForTimestamps: TimestampAuthority;
    let anotherNonce: TimestampAuthority;
    let anotherImprint: TimestampAuthority;
    let first: TimestampAuthority;
    let second: TimestampAuthority;
    const receivers = { a: new WebhookReceiver(), b: new WebhookReceiver() };
    beforeAll(async () => {
      // A certificate without the timeStamping extended key usage: its tokens are refused.
      notForTimestamps = await startTimestampAuthority({
        identity: await identityFromStored(await makeSelfSignedIdentity({ commonName: 'Not a TSA', now: new Date(Date.now() - 60_000), years: 1 })),
      });
      anotherNonce = await startTimestampAuthority({ fault: 'another-nonce' });
      anotherImprint = await startTimestampAuthority({ fault: 'another-imprint' });
      first = await startTimestampAuthority();
      second = await startTimestampAuthority();
      const urls = [notForTimestamps, anotherNonce, anotherImprint, first, second].map((tsa) => tsa.url);
      svc = await startTestService(dialect, { TSA_URLS: urls.join(','), WEBHOOK_ALLOW_PRIVATE: 'true' });
      await subscribe(svc, receivers);
    });
    afterAll(async () => {
      await svc.close();
      for (const tsa of [notForTimestamps, anotherNonce, anotherImprint, first, second]) await tsa.close();
      await receivers.a.close();
      await receivers.b.close();
    });

    async function runOutbox(ms = 0): Promise<void> {
      svc.clock.advance(ms);
      await svc.deps.worker.deliverDue();
      await svc.deps.worker.deliverDue();
    }

    it("authorities whose token has a certificate not for timestamping, another request's nonce or another imprint, and one stopped, are passed over: the seal takes the next one's token", async () => {
      await first.close();
      const process = await signedPdfProcess(svc, svc.orgA, 'Failed over');
      expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
      for (const refused of [notForTimestamps, anotherNonce, anotherImprint]) expect(refused.issued).toBe(2);
      expect(second.issued).toBe(2);
      expect(sameCertificate(signatureTimestamp(await sealedDocument(svc, process.id)).certificate, second.identity.certificate)).toBe(true);
    });

    it('with no authority giving a valid token (both good ones stopped) no final file is made: document.seal_failed to its organization only and GET /document shows sealFailure; once one answers, the retry seals with a timestamp', async () => {
      await second.close();
      const process = await signedPdfProcess(svc, svc.orgA, 'Waiting for a timestamp');
      await runOutbox();
      await runOutbox(10_000);
      expect(await finalFileKeys(svc.deps.db, process.id)).toBeUndefined();
      const view = async (key: string) => (await call(svc.app, 'GET', '/document', { key, query: { code: process.code } })).json();
      const failure = (await view(svc.orgA.privateKey)).sealFailure;
      expect(failure.message).toMatch(
        /^no timestamp authority gave a valid token \(.*not one for timestamping.*another request \(nonce\).*other bytes \(message imprint\).*no answer.*no answer.*\): the seal is tried again, never made without one$/,
      );
      const hooks = receivers.a.received.filter((hook) => hook.body.type === 'document.seal_failed');
      expect(hooks.map((hook) => hook.body.data.code)).toEqual([process.code]);
      expect(hooks[0]?.body.data.message).toBe(failure.message);
      expect(receivers.b.received.map((hook) => hook.body.data.code)).not.toContain(process.code);
      expect(await view(svc.orgB.privateKey)).toEqual({ message: 'DOCUMENT_NOT_FOUND' });

      await second.reopen();
      await runOutbox(6 * 60_000);
      const sealed = await sealedDocument(svc, process.id);
      expect(sameCertificate(signatureTimestamp(sealed).certificate, second.identity.certificate)).toBe(true);
      expect((await view(svc.orgA.privateKey)).sealFailure).toBeUndefined();
    });
  },
);

describe.each(dialects)('a process whose document cannot be sealed gets no final file: it is marked, announced and retried (%s)', (dialect) => {
  let svc: TestService;
  const receivers = { a: new WebhookReceiver(), b: new WebhookReceiver() };
  beforeAll(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    await subscribe(svc, receivers);
  });
  afterAll(async () => {
    await svc.close();
    await receivers.a.close();
    await receivers.b.close();
  });

  /** A one-signer PDF process of `org`, its stored document, and the signer's link token. */
  async function pdfProcessOf(org: TestOrganization, pdf: Buffer) {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: { email: org.email, name: 'Blank form', file: pdf.toString('base64'), signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test' }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const process = await findProcessByCode(svc.deps.db, org.id, res.json().code);
    const [document] = process ? await listDocuments(svc.deps.db, process.id) : [];
    const [participant] = process ? await listParticipants(svc.deps.db, process.id) : [];
    if (!process || !document?.file_key || !participant) throw new Error('not stored');
    return { process, document, fileKey: document.file_key, token: participant.link_token };
  }

  /** Runs the jobs and deliveries due now, then again once their retries are due `ms` later. */
  async function runOutbox(ms = 0): Promise<void> {
    svc.clock.advance(ms);
    await svc.deps.worker.deliverDue();
    await svc.deps.worker.deliverDue();
  }

  const finalFiles = async (processId: string) => {
    // Only what a seal recorded is a final file: a run that failed recorded nothing.
    const keys = await finalFileKeys(svc.deps.db, processId);
    return {
      document: keys && (await readBlobBytes(svc.deps.blobs, keys.documents[0] ?? '')),
      certificate: keys && (await readBlobBytes(svc.deps.blobs, keys.certificate)),
    };
  };

  it.runIf(pdfToolsInstalled)(
    'stored bytes replaced with garbage: no final file, SEAL_FAILED in the trail, document.seal_failed delivered once to its organization only; once the bytes are put back, the retry seals it',
    async () => {
      const original = await makePdf(1);
      const { process, fileKey, token } = await pdfProcessOf(svc.orgA, original);
      await writeBlobBytes(svc.deps.blobs, fileKey, Buffer.from('%PDF-1.4 garbage'), 'application/pdf');
      await readAndSign(svc.deps, { token, ip: '192.0.2.1' });
      await runOutbox();
      await runOutbox(10_000);

      expect(await finalFiles(process.id)).toEqual({ document: undefined, certificate: undefined });
      const marked = await findProcessByCode(svc.deps.db, svc.orgA.id, process.code);
      expect(marked?.sealed_at).toBeNull();
      expect(marked?.seal_failed_at).not.toBeNull();
      expect(marked?.seal_failure).toBe('document 0 ("Blank form"): its file changed after the process was created');
      const failures = receivers.a.received.filter((hook) => hook.body.type === 'document.seal_failed');
      expect(failures).toHaveLength(1);
      expect(failures[0]?.verified).toBe(true);
      expect(failures[0]?.body.data).toMatchObject({ code: process.code, status: 'SEAL_FAILED', message: marked?.seal_failure });
      expect(receivers.b.received.map((hook) => hook.body.data.code)).not.toContain(process.code);
      const roadmap = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code: process.code } })).json();
      expect(roadmap.activityLog.map((line: { action: string }) => line.action)).toContain('SEAL_FAILED');
      const view = async (key: string) => (await call(svc.app, 'GET', '/document', { key, query: { code: process.code } })).json();
      expect((await view(svc.orgA.privateKey)).sealFailure).toEqual({ at: marked?.seal_failed_at, message: marked?.seal_failure });
      // The public key reads the status, never why a file failed; another organization reads nothing.
      expect((await view(svc.orgA.publicKey)).sealFailure).toBeUndefined();
      expect(await view(svc.orgB.privateKey)).toEqual({ message: 'DOCUMENT_NOT_FOUND' });

      await writeBlobBytes(svc.deps.blobs, fileKey, original, 'application/pdf');
      await runOutbox(6 * 60_000);
      const sealed = await finalFiles(process.id);
      if (!sealed.document) throw new Error('not sealed after the fix');
      expect(sealed.document.subarray(0, original.length).equals(original)).toBe(true);
      expect(pdfsig(sealed.document, trustStore(certificatePem(svc.deps.documentSigner.identity.certificate)))).toContain('Signature is Valid.');
      expect((await findProcessByCode(svc.deps.db, svc.orgA.id, process.code))?.sealed_at).not.toBeNull();
      expect((await view(svc.orgA.privateKey)).sealFailure).toBeUndefined();
      expect(receivers.a.received.filter((hook) => hook.body.type === 'document.seal_failed')).toHaveLength(1);
    },
  );

  it('a PDF the seal cannot open, accepted before intake opened PDFs as the seal does, is never kept unsigned as a final file', async () => {
    const { process, document, fileKey, token } = await pdfProcessOf(svc.orgB, await makePdf(1));
    // What an earlier version accepted: a PDF without a cross-reference table, stored as uploaded.
    const legacy = pdfWithoutXref('A blank form');
    await writeBlobBytes(svc.deps.blobs, fileKey, legacy, 'application/pdf');
    await svc.deps.db
      .updateTable('process_documents')
      .set({ sha256: sha256(legacy) })
      .where('id', '=', document.id)
      .execute();
    await readAndSign(svc.deps, { token, ip: '192.0.2.1' });
    await runOutbox();

    expect(await finalFiles(process.id)).toEqual({ document: undefined, certificate: undefined });
    expect(await listFinalFiles(svc.deps.db, process.id)).toEqual([]);
    const marked = await findProcessByCode(svc.deps.db, svc.orgB.id, process.code);
    expect(marked?.sealed_at).toBeNull();
    expect(marked?.seal_failure).toBe('document 0 ("Blank form") is a PDF the seal cannot open');
    expect(receivers.b.received.filter((hook) => hook.body.type === 'document.seal_failed').map((hook) => hook.body.data.code)).toEqual([process.code]);
    expect(receivers.a.received.map((hook) => hook.body.data.code)).not.toContain(process.code);
    const verified = await svc.app.inject({ method: 'POST', url: '/verify', headers: { 'content-type': 'application/pdf' }, payload: legacy });
    expect(verified.json()).toEqual({ result: 'unknown', sha256: sha256(legacy) });
  });

  it('an organization that chose B-LT on an instance without a timestamp authority gets no final file at a lower level: the seal fails and says what to set', async () => {
    await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { padesLevel: 'B-LT' } });
    try {
      const { process, token } = await pdfProcessOf(svc.orgB, await makePdf(1));
      await readAndSign(svc.deps, { token, ip: '192.0.2.1' });
      await runOutbox();
      expect(await finalFileKeys(svc.deps.db, process.id)).toBeUndefined();
      const message = 'PAdES B-LT needs a timestamp authority and this instance has none (set TSA_URLS)';
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code: process.code } })).json().sealFailure.message).toBe(message);
      expect(receivers.b.received.filter((hook) => hook.body.data.code === process.code).map((hook) => hook.body.data.message)).toContain(message);
      expect(receivers.a.received.map((hook) => hook.body.data.code)).not.toContain(process.code);
    } finally {
      await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { padesLevel: null } });
    }
  });
});

describe('work the seal starts early never stops the process when it fails; it fails where it is awaited', () => {
  it('a rejection of work started early reaches no unhandled-rejection handler, and still rejects for whoever awaits it', async () => {
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listen);
    try {
      const work = startEarly(Promise.reject(new Error('the drawing failed')));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
      await expect(work).rejects.toThrow('the drawing failed');
    } finally {
      process.off('unhandledRejection', listen);
    }
  });
});
