import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewKey } from '../src/documents/preview/document-preview.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { pdfText } from '../src/rendering/self-test.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { ANSWERS, createProcess, openEveryDocument, outbox, PDF_BASE64, signers, stored, templateWithHtml } from './support/signing.js';

const HTML = (buyer: string) => `<!doctype html><html lang="es"><head><meta charset="UTF-8"></head><body>
<h1>Contrato de ${buyer}</h1><p>Comprador: <span name="buyer_name">x</span>. Precio: <span name="price">0</span>.</p>
<div id="buyer"></div><div id="seller"></div></body></html>`;

describe.each(dialects)('the PDF a participant reads of a template document is rendered by the first page that opens it, and kept (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  const page = (token: string) => svc.app.inject({ method: 'GET', url: '/people/signing', headers: { 'x-link-token': token } });

  async function templateProcess(org: TestOrganization, buyer: string) {
    const template = await templateWithHtml(svc, org, HTML(buyer));
    const code = await createProcess(svc, org, '/document/save', { email: org.email, name: `Venta ${buyer}`, document: template, data: ANSWERS });
    const { process, participants } = await stored(svc, org, code);
    return { code, process, tokens: participants.map((p) => p.link_token) };
  }

  async function download(url: string): Promise<Buffer> {
    const res = await svc.app.inject({ method: 'GET', url: localPath(url) });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  }

  it('creating a process renders nothing: the preview is made when a participant first opens the page', async () => {
    const { process } = await templateProcess(svc.orgA, 'Acme');
    expect(await svc.deps.blobs.exists(previewKey(process.id, 0))).toBe(false);
    expect((await outbox(svc, 'job')).filter((row) => JSON.stringify(row.body).includes(process.id))).toEqual([]);
  });

  it('the page offers a PDF of the filled document whose text holds the answers, kept for the next opening', async () => {
    const { process, tokens } = await templateProcess(svc.orgA, 'Acme');
    const view = (await page(tokens[0] ?? '')).json();
    expect(view.documents).toEqual([expect.objectContaining({ kind: 'document', contentType: 'application/pdf' })]);
    const stored = await readBlobBytes(svc.deps.blobs, previewKey(process.id, 0));
    if (!stored) throw new Error('no preview kept');
    expect((await download(view.documents[0].url)).equals(stored)).toBe(true);
    const text = await pdfText(stored);
    expect(text).toContain('Contrato de Acme');
    expect(text).toContain('Comprador: ANA GÓMEZ');
    // Another participant's opening reads the same file: nothing is rendered again.
    const renderer = svc.deps.renderer;
    const render = renderer.render;
    let renders = 0;
    renderer.render = (html) => {
      renders++;
      return render.call(renderer, html);
    };
    try {
      const again = (await page(tokens[1] ?? '')).json();
      expect((await download(again.documents[0].url)).equals(stored)).toBe(true);
    } finally {
      renderer.render = render;
    }
    expect(renders).toBe(0);
  });

  it('a document uploaded as a PDF is offered as it is, with no preview', async () => {
    const code = await createProcess(svc, svc.orgA, '/document/upload', { email: svc.orgA.email, name: 'Lease', file: PDF_BASE64, signProfile: signers() });
    const { process, participants } = await stored(svc, svc.orgA, code);
    const view = (await page(participants[0]?.link_token ?? '')).json();
    expect(view.documents).toEqual([expect.objectContaining({ contentType: 'application/pdf' })]);
    expect(await svc.deps.blobs.exists(previewKey(process.id, 0))).toBe(false);
  });

  it("each organization's previews hold only its own document, and a link opens only its own process", async () => {
    const a = await templateProcess(svc.orgA, 'Acme');
    const b = await templateProcess(svc.orgB, 'Globex');
    const textOf = async (token: string) => pdfText(await download((await page(token)).json().documents[0].url));
    expect(await textOf(a.tokens[0] ?? '')).toContain('Contrato de Acme');
    const globex = await textOf(b.tokens[0] ?? '');
    expect(globex).toContain('Contrato de Globex');
    expect(globex).not.toContain('Acme');
    expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code: a.code } })).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
  });

  it('sealing removes the previews: the final files take their place', async () => {
    const { process, tokens } = await templateProcess(svc.orgA, 'Acme');
    expect((await page(tokens[0] ?? '')).statusCode).toBe(200);
    expect(await svc.deps.blobs.exists(previewKey(process.id, 0))).toBe(true);
    for (const token of tokens) {
      await openEveryDocument(svc.deps, token);
      const res = await svc.app.inject({ method: 'POST', url: '/people/signing/sign', headers: { 'x-link-token': token }, payload: { consent: true } });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
    expect(await svc.deps.blobs.exists(previewKey(process.id, 0))).toBe(false);
    expect((await page(tokens[0] ?? '')).json().documents.map((d: { contentType: string }) => d.contentType)).toEqual(['application/pdf', 'application/pdf']);
    expect(await svc.deps.blobs.exists(previewKey(process.id, 0))).toBe(false);
  });
});

describe('a renderer that fails still leaves the participant a document to read', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService('sqlite');
  });
  afterAll(async () => svc.close());

  it('the page offers the filled HTML (shown in a frame without scripts) when no preview can be rendered', async () => {
    const template = await templateWithHtml(svc, svc.orgA, HTML('Acme'));
    const code = await createProcess(svc, svc.orgA, '/document/save', { email: svc.orgA.email, name: 'Venta', document: template, data: ANSWERS });
    const { participants } = await stored(svc, svc.orgA, code);
    await svc.deps.renderer.close();
    const res = await svc.app.inject({ method: 'GET', url: '/people/signing', headers: { 'x-link-token': participants[0]?.link_token ?? '' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().documents).toEqual([expect.objectContaining({ contentType: 'text/html; charset=utf-8' })]);
  });
});
