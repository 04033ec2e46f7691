import type { LightMyRequestResponse } from 'fastify';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProcessEvents } from '../src/documents/queries.js';
import { allowedSignatureKinds } from '../src/templates/signature-kinds.js';
import { expectAccessible } from './support/accessibility.js';
import { launchBrowser, type PhoneBrowser } from './support/browser.js';
import { ANSWERS, COMPLETE_HTML, sampleTemplate } from './support/fixtures.js';
import { call, dialects, startServedService, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { drawSignature } from './support/signature-pad.js';
import { stored, templateWithHtml } from './support/signing.js';

/** The sample template whose buyer may only type their name and whose seller may only draw. */
function restrictedTemplate(): Record<string, unknown> {
  const base = sampleTemplate();
  return {
    ...base,
    config: [
      ...(base.config as Record<string, unknown>[]),
      { name: 'buyer_signature', type: 'signature', description: 'Firma del comprador', allow: ['font'] },
      { name: 'seller_signature', type: 'signature', description: 'Firma del vendedor', allow: ['draw'] },
    ],
    signatureProfile: [
      { type: 'buyer', name: 'buyer_name', email: 'buyer_email', phone: 'buyer_phone', signature: 'buyer_signature' },
      { type: 'seller', name: 'seller_name', email: 'seller_email', signature: 'seller_signature' },
    ],
  };
}

/** No serious or critical accessibility violation on the page as it is now. */
async function pngBase64(): Promise<string> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><path d="M10 50 C 60 5, 90 5, 190 40" stroke="#123" stroke-width="4" fill="none"/></svg>';
  return (await sharp(Buffer.from(svg)).png().toBuffer()).toString('base64');
}

/** A process of the organization's template whose participants the integrator invites: their link tokens by signer type. */
async function templateProcess(svc: TestService, org: TestOrganization, template: string): Promise<{ code: string; tokens: Record<string, string> }> {
  const res = await call(svc.app, 'POST', '/document/save', {
    key: org.privateKey,
    body: { email: org.email, name: 'Compraventa', document: template, data: ANSWERS, notification: false },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { code } = res.json() as { code: string };
  const { participants } = await stored(svc, org, code);
  return { code, tokens: Object.fromEntries(participants.map((p) => [p.signer_type ?? '', p.link_token])) };
}

describe('allowedSignatureKinds: the kinds a signer may use come from the signature question their profile points to', () => {
  const body = restrictedTemplate() as unknown as Parameters<typeof allowedSignatureKinds>[0];
  it('a profile pointing to a question with allow gets those kinds; any other signer gets both', () => {
    expect(allowedSignatureKinds(body, 'buyer')).toEqual(['font']);
    expect(allowedSignatureKinds(body, 'seller')).toEqual(['draw']);
    expect(allowedSignatureKinds(body, 'notary')).toEqual(['draw', 'font']);
    expect(allowedSignatureKinds(body, undefined)).toEqual(['draw', 'font']);
    expect(allowedSignatureKinds(sampleTemplate() as unknown as typeof body, 'buyer')).toEqual(['draw', 'font']);
  });
});

describe.each(dialects)('allow on signature questions: the sign route takes only the kinds the template allows (%s)', (dialect) => {
  let svc: TestService;
  let restricted: string;
  let open: string;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    restricted = await templateWithHtml(svc, svc.orgA, COMPLETE_HTML, restrictedTemplate());
    open = await templateWithHtml(svc, svc.orgB, COMPLETE_HTML, sampleTemplate());
  });
  afterAll(async () => svc.close());

  const people = (token: string, method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<LightMyRequestResponse> =>
    svc.app.inject({ method, url: `/people${path}`, headers: { 'x-link-token': token }, ...(body ? { payload: body } : {}) });

  async function opened(token: string): Promise<void> {
    expect((await people(token, 'POST', '/signing/opened', { document: 0 })).statusCode).toBe(200);
  }

  it("the signing page tells each participant the kinds their template allows; another organization's template allows both", async () => {
    const { tokens } = await templateProcess(svc, svc.orgA, restricted);
    expect((await people(tokens.buyer ?? '', 'GET', '/signing')).json().signatureKinds).toEqual(['font']);
    expect((await people(tokens.seller ?? '', 'GET', '/signing')).json().signatureKinds).toEqual(['draw']);
    const other = await templateProcess(svc, svc.orgB, open);
    expect((await people(other.tokens.buyer ?? '', 'GET', '/signing')).json().signatureKinds).toEqual(['draw', 'font']);
  });

  it("allow ['font']: a drawn signature is refused, however it is sent; the typed name signs", async () => {
    const { code, tokens } = await templateProcess(svc, svc.orgA, restricted);
    const buyer = tokens.buyer ?? '';
    await opened(buyer);
    const image = await pngBase64();
    for (const body of [
      { consent: true, signature: image, signatureKind: 'draw' },
      // An image without its kind counts as drawn.
      { consent: true, signature: image },
    ]) {
      const refused = await people(buyer, 'POST', '/signing/sign', body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ message: 'SIGNATURE_KIND_NOT_ALLOWED: this signature must be typed ("font")' });
    }
    const signed = await people(buyer, 'POST', '/signing/sign', { consent: true, signature: image, signatureKind: 'font' });
    expect(signed.statusCode, signed.body).toBe(200);
    const { process } = await stored(svc, svc.orgA, code);
    const sign = (await listProcessEvents(svc.deps.db, process.id)).find((event) => event.action === 'PARTICIPANT_SIGN');
    expect(JSON.parse(sign?.detail ?? '{}')).toMatchObject({ signatureKind: 'font' });
  });

  it("allow ['draw']: a typed name is refused, with or without its image; a drawing signs", async () => {
    const { tokens } = await templateProcess(svc, svc.orgA, restricted);
    const seller = tokens.seller ?? '';
    await opened(seller);
    const image = await pngBase64();
    for (const body of [{ consent: true, signature: image, signatureKind: 'font' }, { consent: true, signatureKind: 'font' }, { consent: true }]) {
      const refused = await people(seller, 'POST', '/signing/sign', body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ message: 'SIGNATURE_KIND_NOT_ALLOWED: this signature must be drawn ("draw")' });
    }
    const noImage = await people(seller, 'POST', '/signing/sign', { consent: true, signatureKind: 'draw' });
    expect(noImage.json()).toEqual({ message: '"signature" is required' });
    expect((await people(seller, 'POST', '/signing/sign', { consent: true, signature: image, signatureKind: 'draw' })).statusCode).toBe(200);
  });

  it('a template edited after the process was created does not change what its participants may use', async () => {
    const { tokens } = await templateProcess(svc, svc.orgA, restricted);
    const loosened = restrictedTemplate();
    const config = (loosened.config as Record<string, unknown>[]).map((q) => (q.type === 'signature' ? { ...q, allow: ['draw', 'font'] } : q));
    const edit = await call(svc.app, 'PUT', '/template', { key: svc.orgA.privateKey, body: { id: restricted, config } });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await people(tokens.buyer ?? '', 'GET', '/signing')).json().signatureKinds).toEqual(['font']);
    const restore = await call(svc.app, 'PUT', '/template', { key: svc.orgA.privateKey, body: { id: restricted, config: restrictedTemplate().config } });
    expect(restore.statusCode).toBe(200);
  });

  it('a signatureKind other than draw or font is refused in Joi’s words', async () => {
    const { tokens } = await templateProcess(svc, svc.orgB, open);
    const res = await people(tokens.buyer ?? '', 'POST', '/signing/sign', { consent: true, signatureKind: 'stamp' });
    expect(res.json()).toEqual({ message: '"signatureKind" must be one of [draw, font]' });
  });
});

describe('allow on the signing page, in Chromium on a phone: only the allowed kinds are offered', { timeout: 120_000 }, () => {
  let svc: TestService;
  let base: string;
  let phone: PhoneBrowser;
  beforeAll(async () => {
    ({ svc, base } = await startServedService('sqlite'));
    phone = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await phone?.close();
    await svc?.close();
  });

  async function signingStep(token: string): Promise<Page> {
    const context = await phone.phone();
    const page = await context.newPage();
    await page.goto(`${base}/s/${token}`);
    await page.getByRole('heading', { name: 'Firma el documento' }).waitFor({ timeout: 30_000 });
    return page;
  }

  it("allow ['font'] offers only the typed name, and signing with it finishes the buyer's part; allow ['draw'] offers only the drawing", async () => {
    const template = await templateWithHtml(svc, svc.orgA, COMPLETE_HTML, restrictedTemplate());
    const { code, tokens } = await templateProcess(svc, svc.orgA, template);

    const buyer = await signingStep(tokens.buyer ?? '');
    expect(await buyer.getByRole('tab').count()).toBe(0);
    expect(await buyer.locator('canvas.signature-pad').count()).toBe(0);
    await expect.poll(() => buyer.getByLabel('Escribe tu nombre como firma').inputValue()).toBe('Ana Gómez');
    await expectAccessible(buyer);
    await buyer.getByLabel(/Acepto firmar electrónicamente/).check();
    await buyer.getByRole('button', { name: 'Firmar', exact: true }).click();
    await buyer.getByRole('heading', { name: 'Listo, firmaste el documento.' }).waitFor();

    const seller = await signingStep(tokens.seller ?? '');
    expect(await seller.getByRole('tab').count()).toBe(0);
    expect(await seller.getByLabel('Escribe tu nombre como firma').count()).toBe(0);
    await expectAccessible(seller);
    await seller.getByLabel(/Acepto firmar electrónicamente/).check();
    await seller.getByRole('button', { name: 'Firmar', exact: true }).click();
    await seller.getByRole('alert').filter({ hasText: 'Dibuja tu firma en el recuadro.' }).waitFor();
    await seller.locator('canvas.signature-pad').evaluate((pad) => pad.scrollIntoView({ block: 'center' }));
    await drawSignature(seller);
    await seller.getByRole('button', { name: 'Firmar', exact: true }).click();
    // The last signature finishes the process.
    await seller.getByRole('heading', { name: 'Documento firmado por todos' }).waitFor();

    const { process } = await stored(svc, svc.orgA, code);
    const kinds = (await listProcessEvents(svc.deps.db, process.id))
      .filter((event) => event.action === 'PARTICIPANT_SIGN')
      .map((event) => JSON.parse(event.detail ?? '{}').signatureKind);
    expect(kinds).toEqual(['font', 'draw']);
  });

  it('a template without allow keeps both tabs', async () => {
    const template = await templateWithHtml(svc, svc.orgB, COMPLETE_HTML, sampleTemplate());
    const { tokens } = await templateProcess(svc, svc.orgB, template);
    const page = await signingStep(tokens.buyer ?? '');
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Dibujar', 'Escribir']);
  });
});
