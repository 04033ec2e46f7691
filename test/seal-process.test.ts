import zlib from 'node:zlib';
import { type DefaultTreeAdapterTypes, parse } from 'parse5';
import { PDFArray, PDFDocument, type PDFPage, PDFRawStream, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParticipantRow } from '../src/db/schema.js';
import { sha256 } from '../src/documents/document-files.js';
import { closeProcess } from '../src/documents/lifecycle/close-process.js';
import { recordProcessEvent } from '../src/documents/process-events.js';
import { findProcessByCode, listDocuments, listParticipants, type ParticipantPatch, updateParticipant } from '../src/documents/queries.js';
import { appendCertificatePages } from '../src/documents/sealing/seal-pdf.js';
import { finalFileKeys, sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { ANSWERS, sampleTemplate } from './support/fixtures.js';
import { call, dialects, localPath, PUBLIC_URL, startTestService, type TestOrganization, type TestService } from './support/service.js';

type Element = DefaultTreeAdapterTypes.Element;
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

/** A real PDF with one line of text per page. */
async function makePdf(pages: number): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) document.addPage([400, 300]).drawText(`Original page ${i + 1}`, { x: 40, y: 200, font, size: 14 });
  return Buffer.from(await document.save());
}

/** The raw (still encoded) bytes of a page's content streams, as stored in the file. */
function pageContent(page: PDFPage): Buffer {
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => page.doc.context.lookup(ref)) : [contents];
  return Buffer.concat(
    streams.map((stream) => {
      if (!(stream instanceof PDFRawStream)) throw new Error('unexpected content stream');
      return Buffer.from(stream.contents);
    }),
  );
}

/** Decoded text operators of pages drawn by pdf-lib (Flate-compressed, text as hex strings). */
function pageText(page: PDFPage): string {
  return zlib.inflateSync(pageContent(page)).toString('latin1');
}

/** How pdf-lib writes WinAnsi text in a content stream. */
function hexText(text: string): string {
  return Buffer.from(text, 'latin1').toString('hex').toUpperCase();
}

function elements(parent: ParentNode, out: Element[] = []): Element[] {
  for (const node of parent.childNodes) {
    if ('tagName' in node) {
      out.push(node);
      elements(node, out);
    }
  }
  return out;
}

function attr(element: Element, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

function textOf(element: ParentNode): string {
  return element.childNodes.map((node) => ('value' in node && node.nodeName === '#text' ? node.value : 'childNodes' in node ? textOf(node) : '')).join('');
}

/** The participant ids stamped directly inside an element. */
function stampsIn(element: Element): string[] {
  return element.childNodes.flatMap((node) => ('tagName' in node && attr(node, 'class') === 'seal-stamp' ? [attr(node, 'data-participant') ?? ''] : []));
}

describe.each(dialects)('sealing a finished process (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
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

  async function createTemplateProcess(extra: Record<string, unknown> = {}): Promise<string> {
    const template = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() });
    expect(template.statusCode, template.body).toBe(200);
    const { id, urls } = template.json();
    const upload = await svc.app.inject({ method: 'PUT', url: localPath(urls.complete), headers: { 'content-type': 'text/html' }, payload: COMPLETE_HTML });
    expect(upload.statusCode, upload.body).toBe(200);
    const res = await call(svc.app, 'POST', '/document/save', {
      key: svc.orgA.privateKey,
      body: { email: svc.orgA.email, name: 'Compraventa', document: id, data: ANSWERS, ...extra },
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
  async function finish(code: string, extra: (p: ParticipantRow) => ParticipantPatch = () => ({})): Promise<string> {
    const { process, participants } = await stored(code);
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

  async function finishedMails(processName: string) {
    const rows = await svc.deps.db.selectFrom('outbox').selectAll().where('kind', '=', 'email').execute();
    return rows
      .map((row) => ({ row, body: JSON.parse(row.payload) as { to: string; template?: string; text: string; subject: string } }))
      .filter(({ body }) => body.template === 'process-finished' && body.subject.includes(processName));
  }

  it('final file keys: the certificate and one file per document position, by source', () => {
    expect(
      finalFileKeys('p1', [
        { position: 1, source: 'template' },
        { position: 0, source: 'pdf' },
      ]),
    ).toEqual({
      certificate: 'processes/p1/final/certificate.html',
      documents: ['processes/p1/final/0.pdf', 'processes/p1/final/1.html'],
    });
  });

  describe('a PDF process', () => {
    let code: string;
    let processId: string;
    let original: Buffer;
    beforeAll(async () => {
      original = await makePdf(2);
      code = await createPdfProcess(
        [
          { name: SCRIPT_NAME, email: 'eve@people.test', otpCode: true, camera: true },
          { name: 'Łukasz Žák 李雷', email: 'lukasz@people.test', identification: '12345678', identificationType: 'CC', country: 'CO' },
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
      const before = (await call(svc.app, 'GET', '/document', { key: svc.orgA.publicKey, query: { code } })).json();
      expect(before.status).toBe('FINISH');
      expect(before.certificateUrl).toBeUndefined();
      expect(before.documents[0].signedUrl).toBeUndefined();
      expect(await sealProcess(svc.deps, { processId })).toBe(true);
      expect(await sealProcess(svc.deps, { processId })).toBe(false);
      expect((await stored(code)).process.sealed_at).toBe(svc.clock.now().toISOString());
    });

    it('keeps the original pages byte for byte and appends the certificate pages, with title and subject', async () => {
      const { documents } = await stored(code);
      const keys = finalFileKeys(processId, documents);
      const sealed = await PDFDocument.load(await blob(keys.documents[0] ?? ''));
      const source = await PDFDocument.load(original);
      expect(sealed.getPageCount()).toBeGreaterThan(source.getPageCount());
      source.getPages().forEach((page, i) => {
        const copy = sealed.getPage(i);
        expect(pageContent(copy).equals(pageContent(page))).toBe(true);
        expect(copy.getSize()).toEqual(page.getSize());
      });
      expect(sealed.getTitle()).toBe('Lease contract');
      expect(sealed.getSubject()).toBe(code);
      const certificate = sealed.getPages().slice(source.getPageCount()).map(pageText).join('\n');
      expect(certificate).toContain(hexText('Evidence certificate'));
      expect(certificate).toContain(hexText(documents[0]?.sha256 ?? 'missing'));
      // Characters outside WinAnsi are replaced; the ones it has (Ž, á) are kept.
      expect(certificate).toContain(`${hexText('?ukasz ')}8E${hexText('\u00e1k ??')}`);
      expect(certificate).toContain(hexText('PARTICIPANT_APPROVE'));
    });

    it('writes a self-contained, escaped certificate with every participant, the audit trail and the final files hashes', async () => {
      const { documents, participants } = await stored(code);
      const keys = finalFileKeys(processId, documents);
      const html = (await blob(keys.certificate)).toString('utf8');
      const tree = elements(parse(html));
      expect(html).not.toContain('<script>');
      expect(tree.filter((e) => ['script', 'link', 'img', 'iframe', 'object'].includes(e.tagName))).toEqual([]);
      expect(tree.some((e) => attr(e, 'src') !== undefined || attr(e, 'href') !== undefined)).toBe(false);
      expect(tree.some((e) => e.tagName === 'td' && textOf(e) === SCRIPT_NAME)).toBe(true);
      expect(html).toContain(code);
      expect(html).toContain(svc.orgA.email);
      expect(html).toContain(documents[0]?.sha256);
      expect(html).toContain(sha256(await blob(keys.documents[0] ?? '')));
      for (const p of participants) expect(html).toContain(p.participant_id);
      expect(html).toContain('CC 12345678');
      const row = (label: string) => tree.find((e) => e.tagName === 'tr' && e.childNodes.some((c) => 'tagName' in c && textOf(c) === label));
      const similarity = row('Face similarity');
      expect(similarity ? textOf(similarity) : '').toBe('Face similarity93%');
      expect(html).toContain('one-time code by e-mail');
      expect(html).toContain('PARTICIPANT_SIGN');
      expect(tree.some((e) => e.tagName === 'td' && textOf(e) === 'ip: 203.0.113.7; userAgent: Mozilla/5.0 <test>')).toBe(true);
      expect(html).toContain('Łukasz Žák 李雷');
    });

    it('GET /document shows the certificate and the signed document URLs, which download the final files', async () => {
      const { documents } = await stored(code);
      const keys = finalFileKeys(processId, documents);
      const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.publicKey, query: { code } })).json();
      const certificate = await svc.app.inject({ method: 'GET', url: localPath(view.certificateUrl) });
      expect(certificate.statusCode).toBe(200);
      expect(certificate.rawPayload.equals(await blob(keys.certificate))).toBe(true);
      const signed = await svc.app.inject({ method: 'GET', url: localPath(view.documents[0].signedUrl) });
      expect(signed.statusCode).toBe(200);
      expect(signed.headers['content-type']).toContain('application/pdf');
      expect(signed.rawPayload.equals(await blob(keys.documents[0] ?? ''))).toBe(true);
    });

    it('queues one process-finished e-mail per notified participant, with their link', async () => {
      const { participants } = await stored(code);
      const mails = await finishedMails('Lease contract');
      const notified = participants.filter((p) => p.notification === 1);
      expect(mails.map((m) => m.body.to).sort()).toEqual(notified.map((p) => p.email).sort());
      for (const p of notified) {
        expect(mails.find((m) => m.body.to === p.email)?.body.text).toContain(`${PUBLIC_URL}/s/${p.link_token}`);
      }
    });

    it("organization B cannot read A's process nor its final files", async () => {
      const res = await call(svc.app, 'GET', '/document', { key: svc.orgB.publicKey, query: { code } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    });
  });

  describe('a template process', () => {
    let code: string;
    let processId: string;
    beforeAll(async () => {
      code = await createTemplateProcess();
      processId = await finish(code);
      expect(await sealProcess(svc.deps, { processId })).toBe(true);
    });

    async function sealedHtml(): Promise<{ html: string; tree: Element[] }> {
      const { documents } = await stored(code);
      const html = (await blob(finalFileKeys(processId, documents).documents[0] ?? '')).toString('utf8');
      return { html, tree: elements(parse(html)) };
    }

    it("stamps each signer in their placeholder: the buyer's id (its name twin ignored), every one of the seller's names", async () => {
      const { participants } = await stored(code);
      const buyer = participants.find((p) => p.signer_type === 'buyer');
      const seller = participants.find((p) => p.signer_type === 'seller');
      const { tree } = await sealedHtml();
      const margins = tree.filter((e) => attr(e, 'class') === 'sign-margin');
      expect(margins.map(stampsIn)).toEqual([[buyer?.participant_id], [], [seller?.participant_id], [seller?.participant_id]]);
      const stamp = tree.find((e) => attr(e, 'data-participant') === buyer?.participant_id);
      const text = stamp ? textOf(stamp) : '';
      expect(text).toContain('Ana Gómez');
      expect(text).toContain('Signed electronically');
      expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
      expect(text).toContain(`Participant ID: ${buyer?.participant_id}`);
      expect(text).toContain('Code: not requested');
      expect(text).toContain('Identity: not requested');
      expect(tree.some((e) => attr(e, 'class') === 'seal-signatures')).toBe(false);
    });

    it('fills signDate with the signing date in Spanish and shows signComplete', async () => {
      const { process } = await stored(code);
      const { tree, html } = await sealedHtml();
      const finishedAt = new Date(process.updated_at);
      const expected = `${String(finishedAt.getUTCDate()).padStart(2, '0')} de ${SPANISH_MONTHS[finishedAt.getUTCMonth()]} de ${finishedAt.getUTCFullYear()}`;
      const signDate = tree.find((e) => attr(e, 'name') === 'signDate');
      expect(signDate ? textOf(signDate) : '').toBe(expected);
      const complete = tree.find((e) => attr(e, 'name') === 'signComplete');
      expect(complete && attr(complete, 'hidden')).toBeUndefined();
      expect(html).toContain('<p name="signComplete">Documento firmado por todas las partes.</p>');
      expect(html).toContain('Comprador: <span name="buyer_name">ANA GÓMEZ</span>');
    });

    it('carries the certificate at the end of the body, with the hash of the document as signed', async () => {
      const { documents } = await stored(code);
      const { tree, html } = await sealedHtml();
      const body = tree.find((e) => e.tagName === 'body');
      const last = body?.childNodes.filter((n): n is Element => 'tagName' in n).at(-1);
      expect(last && attr(last, 'class')).toBe('seal-certificate');
      expect(html).toContain(documents[0]?.sha256);
      expect(html).toContain('certificate.html');
    });
  });

  it('stamps participants without a type, or without a placeholder, in a signatures block at the end; names are escaped', async () => {
    const code = await createTemplateProcess({
      signProfile: [
        { name: 'Ana Gómez', email: 'ana@buyer.test', type: 'buyer' },
        { name: SCRIPT_NAME, email: 'eve@people.test', type: 'witness' },
        { name: 'Omar Approver', email: 'omar@people.test', role: 'APPROVER' },
      ],
    });
    const processId = await finish(code);
    expect(await sealProcess(svc.deps, { processId })).toBe(true);
    const { documents, participants } = await stored(code);
    const html = (await blob(finalFileKeys(processId, documents).documents[0] ?? '')).toString('utf8');
    expect(html).not.toContain('<script>');
    const tree = elements(parse(html));
    const block = tree.find((e) => attr(e, 'class') === 'seal-signatures');
    const [ana, eve, omar] = participants;
    expect(block ? stampsIn(block) : []).toEqual([eve?.participant_id, omar?.participant_id]);
    expect(block ? textOf(block) : '').toContain(SCRIPT_NAME);
    expect(block ? textOf(block) : '').toContain('Approved electronically');
    const buyer = tree.find((e) => attr(e, 'id') === 'buyer');
    expect(buyer ? stampsIn(buyer) : []).toEqual([ana?.participant_id]);
  });

  it('a process that is not finished, or unknown, is not sealed and gets no files', async () => {
    const code = await createPdfProcess([{ name: 'Waiting Signer', email: 'waiting@people.test' }], await makePdf(1));
    const { process, documents } = await stored(code);
    expect(await sealProcess(svc.deps, { processId: process.id })).toBe(false);
    expect(await sealProcess(svc.deps, { processId: 'ffffffffffffffffffffffff' })).toBe(false);
    const keys = finalFileKeys(process.id, documents);
    expect(await readBlobBytes(svc.deps.blobs, keys.certificate)).toBeUndefined();
    expect(await readBlobBytes(svc.deps.blobs, keys.documents[0] ?? '')).toBeUndefined();
    expect((await stored(code)).process.sealed_at).toBeNull();
    const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.publicKey, query: { code } })).json();
    expect(view.certificateUrl).toBeUndefined();
  });

  it('a run that crashed before the mark is simply run again: it writes the same bytes and seals', async () => {
    const code = await createPdfProcess([{ name: 'Retry Signer', email: 'retry@people.test' }], await makePdf(1));
    const processId = await finish(code);
    expect(await sealProcess(svc.deps, { processId })).toBe(true);
    const { documents } = await stored(code);
    const keys = finalFileKeys(processId, documents);
    const first = [await blob(keys.documents[0] ?? ''), await blob(keys.certificate)];
    // As if the transaction had not committed: the files exist, the mark does not.
    await svc.deps.db.updateTable('processes').set({ sealed_at: null }).where('id', '=', processId).execute();
    svc.clock.advance(60_000);
    expect(await sealProcess(svc.deps, { processId })).toBe(true);
    const second = [await blob(keys.documents[0] ?? ''), await blob(keys.certificate)];
    expect(second.map((b, i) => b.equals(first[i] ?? Buffer.alloc(0)))).toEqual([true, true]);
  });

  it('a PDF pdf-lib cannot open (encrypted) is kept as it was, and the certificate says so', async () => {
    const plain = Buffer.from(await (await PDFDocument.load(await makePdf(1))).save({ useObjectStreams: false })).toString('latin1');
    const encrypted = Buffer.from(plain.replace('trailer\n<<', 'trailer\n<<\n/Encrypt 1 0 R'), 'latin1');
    const code = await createPdfProcess([{ name: 'Locked Signer', email: 'locked@people.test' }], encrypted);
    const processId = await finish(code);
    expect(await sealProcess(svc.deps, { processId })).toBe(true);
    const { documents } = await stored(code);
    const keys = finalFileKeys(processId, documents);
    expect((await blob(keys.documents[0] ?? '')).equals(encrypted)).toBe(true);
    expect((await blob(keys.certificate)).toString('utf8')).toContain('Original PDF unchanged');
  });

  it('long audit lines wrap and the certificate takes as many pages as needed; the output does not depend on the clock', async () => {
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const blocks = [
      { kind: 'title' as const, text: 'Evidence certificate' },
      {
        kind: 'table' as const,
        columns: ['Time', 'Action', 'Message'],
        rows: Array.from({ length: 60 }, () => ['2026-01-01T00:00:00.000Z', 'NOTE', long]),
        breakable: [],
      },
    ];
    const options = { title: 'T', subject: 'CODE', modifiedAt: new Date('2026-01-01T00:00:00.000Z'), footer: 'Evidence certificate CODE', blocks };
    const source = await makePdf(1);
    const once = await appendCertificatePages(source, options);
    svc.clock.advance(3_600_000);
    const twice = await appendCertificatePages(source, options);
    expect(once && twice && once.equals(twice)).toBe(true);
    const document = await PDFDocument.load(once ?? Buffer.alloc(0));
    expect(document.getPageCount()).toBeGreaterThan(10);
    const last = pageText(document.getPage(document.getPageCount() - 1));
    expect(last).toContain(hexText(`page ${document.getPageCount() - 1} of ${document.getPageCount() - 1}`));
    // Every line drawn stays within the right margin: measured with the font it was drawn in.
    const fonts = await PDFDocument.create();
    const regular = await fonts.embedFont(StandardFonts.Helvetica);
    const bold = await fonts.embedFont(StandardFonts.HelveticaBold);
    let lines = 0;
    for (const page of document.getPages().slice(1)) {
      for (const match of pageText(page).matchAll(/\/(Helvetica(?:-Bold)?)-\d+ ([\d.]+) Tf\n[\s\S]*?1 0 0 1 ([\d.]+) ([\d.]+) Tm\n<([0-9A-F]*)> Tj/g)) {
        const [, fontName, size, x, y, hex] = match;
        const text = Buffer.from(hex ?? '', 'hex').toString('latin1');
        const width = (fontName === 'Helvetica-Bold' ? bold : regular).widthOfTextAtSize(text, Number(size));
        expect(Number(x) + width).toBeLessThanOrEqual(595.28 - 56.7 + 0.01);
        expect(Number(y)).toBeGreaterThan(0);
        lines++;
      }
    }
    expect(lines).toBeGreaterThan(300);
  });
});
