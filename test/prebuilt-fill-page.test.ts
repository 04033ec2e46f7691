import { AxeBuilder } from '@axe-core/playwright';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDocuments } from '../src/documents/queries.js';
import { updateSettings } from '../src/organizations/settings.js';
import { expectAccessible } from './support/accessibility.js';
import { launchBrowser, type PhoneBrowser, screenshot } from './support/browser.js';
import { ANSWERS, sampleTemplate } from './support/fixtures.js';
import { lastCode } from './support/forms.js';
import { waitForMail } from './support/mailbox.js';
import { eventsOf, startHost } from './support/sdk-host.js';
import { call, startServedService, type TestService } from './support/service.js';
import { stored, templateWithHtml } from './support/signing.js';

/** The seller prepares the sale with everything but the buyer's name; the buyer completes it. */
const PREBUILT_TEMPLATE = sampleTemplate({ preBuild: true, preBuildData: ['seller_name', 'seller_email', 'price', 'buyer_phone', 'buyer_email'] });
const PREFILLED = [
  { key: 'seller_name', value: 'Luis Pérez' },
  { key: 'seller_email', value: 'luis@seller.test' },
  { key: 'price', value: '50000' },
  { key: 'buyer_phone', value: '+573001234567' },
];

/** No serious or critical accessibility violation; the preview's frame holds the organization's template and is left out. */
describe("prebuilt processes and the SDK's fill flow, in Chromium on a phone", { timeout: 90_000 }, () => {
  let svc: TestService;
  let service: string;
  let phone: PhoneBrowser;
  let sdkSettings: Record<string, unknown> = {};
  let host: Awaited<ReturnType<typeof startHost>>;

  beforeAll(async () => {
    ({ svc, base: service } = await startServedService('sqlite'));
    host = await startHost(() => sdkSettings);
    await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { sdkOrigins: [host.origin] } });
    phone = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await phone?.close();
    await host?.close();
    await svc?.close();
  });

  async function prebuilt(notification: boolean): Promise<{ code: string; template: string; url?: string }> {
    const template = await templateWithHtml(svc, svc.orgA, undefined, PREBUILT_TEMPLATE);
    const res = await call(svc.app, 'POST', '/document/prebuild', {
      key: svc.orgA.privateKey,
      body: { email: svc.orgA.email, name: 'Venta del carro', document: template, preBuild: PREFILLED, emailTo: 'ana@buyer.test', notification },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { code: res.json().document, template, ...(res.json().url ? { url: res.json().url } : {}) };
  }

  /** The prefilled answers are shown and cannot be changed; the buyer's own e-mail too. */
  async function expectLocked(form: Page | FrameLocator): Promise<void> {
    for (const [label, value] of [
      [/^Seller full name/, 'Luis Pérez'],
      [/^Price/, '50000'],
      [/^Buyer e-mail/, 'ana@buyer.test'],
    ] as const) {
      const field = form.getByLabel(label);
      expect(await field.inputValue()).toBe(value);
      expect(await field.isDisabled()).toBe(true);
    }
  }

  async function expectCompleted(code: string): Promise<void> {
    const { process, participants } = await stored(svc, svc.orgA, code);
    expect(process.name).toBe('Venta del carro');
    const [document] = await listDocuments(svc.deps.db, process.id);
    expect(JSON.parse(document?.answers ?? '{}')).toEqual({ ...Object.fromEntries(ANSWERS.map((a) => [a.key, a.value])), payment: 'cash' });
    expect(participants.map((p) => p.email)).toEqual(['ana@buyer.test', 'luis@seller.test']);
  }

  it('completed through the link e-mailed to emailTo: the prefilled answers shown and locked, the process made under the same code', async () => {
    const { code } = await prebuilt(true);
    await svc.deps.worker.deliverDue();
    const mail = await waitForMail(svc, { channel: 'email' }, (m) => m.to === 'ana@buyer.test');
    const link = /http:\/\/\S+\/f\/[A-Za-z0-9_-]{40}/.exec(String(mail.message.text))?.[0] ?? '';
    expect(link).not.toBe('');
    const context = await phone.phone();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(link.replace('http://service.test', service));
    await page.getByRole('heading', { level: 1, name: 'Purchase agreement' }).waitFor();
    await expectLocked(page);
    await page.getByLabel(/^Buyer full name/).fill('Ana Gómez');
    await screenshot(page, '41-prebuilt-form-on-a-phone');
    await expectAccessible(page, { exclude: 'iframe.mask-preview' });
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    await page.getByRole('heading', { name: 'Listo, enviamos tus respuestas' }).waitFor();
    await expectCompleted(code);
    // Opened again, the link says the form was completed.
    await page.reload();
    await page.getByText('Este formulario ya se completó').waitFor();
    await expectAccessible(page, { exclude: 'iframe.mask-preview' });
    await context.close();
  });

  it("completed through the real SDK (sdkType 'fill', code, preBuild: true) from an allowed origin: onSDKClose gets its code", async () => {
    const { code, template } = await prebuilt(false);
    sdkSettings = {
      sdkType: 'fill',
      language: 'es',
      keyPublic: svc.orgA.publicKey,
      customOrigin: service,
      sdkData: {
        document: template,
        code,
        preBuild: true,
        uxOptions: { primaryColor: '#021c30', alternateColor: '#FFFFFF', redirectUrl: 'https://shop.example/done' },
      },
    };
    const context = await phone.phone();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${host.origin}/`);
    const frame = page.frameLocator('#sdk');
    await frame.getByRole('heading', { level: 1, name: 'Purchase agreement' }).waitFor();
    await expectLocked(frame);
    await frame.getByLabel(/^Buyer full name/).fill('Ana Gómez');
    await frame.getByRole('button', { name: 'Enviar', exact: true }).click();
    await expect.poll(() => eventsOf(page), { timeout: 15_000 }).toContainEqual({ event: 'close', args: [code, 'https://shop.example/done', []] });
    await expectCompleted(code);
    await context.close();
  });

  it('a plain SDK fill of a template creates a process of the key organization, and onSDKClose gets the new code', async () => {
    const template = await templateWithHtml(svc, svc.orgA);
    sdkSettings = { sdkType: 'fill', language: 'en', keyPublic: svc.orgA.publicKey, customOrigin: service, sdkData: { document: template, uxOptions: {} } };
    const context = await phone.phone();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${host.origin}/`);
    const frame = page.frameLocator('#sdk');
    await frame.getByRole('heading', { level: 1, name: 'Purchase agreement' }).waitFor();
    for (const [label, value] of [
      [/^Buyer full name/, 'Ana Gómez'],
      [/^Buyer e-mail/, 'ana@buyer.test'],
      [/^Seller full name/, 'Luis Pérez'],
      [/^Seller e-mail/, 'luis@seller.test'],
      [/^Price/, '50000'],
    ] as const) {
      await frame.getByLabel(label).fill(value);
    }
    await frame.getByRole('button', { name: 'Send', exact: true }).click();
    // The frame is told once the person typed the code sent to their own address.
    await frame.getByLabel('6-digit code').waitFor();
    await frame.getByLabel('6-digit code').fill(await lastCode(svc, 'ana@buyer.test'));
    await frame.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(async () => (await eventsOf(page)).find((event) => event.event === 'close'), { timeout: 15_000 }).toBeDefined();
    const close = (await eventsOf(page)).find((event) => event.event === 'close');
    const code = close && 'args' in close ? String(close.args[0]) : '';
    expect(close).toEqual({ event: 'close', args: [expect.stringMatching(/^[A-Z0-9]{10}$/), '', []] });
    const { process, participants } = await stored(svc, svc.orgA, code);
    expect(process.creator_email).toBe(svc.orgA.email);
    expect(participants.map((p) => p.email)).toEqual(['ana@buyer.test', 'luis@seller.test']);
    expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).statusCode).toBe(400);
    await context.close();
  });
  it("in the SDK's frame the form goes to a page of its own, framed only by the host's origin: its request questions reach their endpoint, and its preview keeps the Mask HTML's styles", async () => {
    const lookup = 'https://lookup.example.test';
    const body = sampleTemplate({
      config: [...(sampleTemplate().config as object[]), { name: 'customer', type: 'request', description: 'Customer code', endpoint: `${lookup}/check` }],
    });
    const html =
      '<html><head><style>p { margin: 0 }</style></head><body><h2 style="color: rgb(0, 96, 48)">Sale</h2><p>Buyer: <span name="buyer_name">buyer</span></p></body></html>';
    const template = await templateWithHtml(svc, svc.orgA, html, body);
    sdkSettings = { sdkType: 'fill', language: 'en', keyPublic: svc.orgA.publicKey, customOrigin: service, sdkData: { document: template, uxOptions: {} } };
    const context = await phone.phone();
    const lookups: string[] = [];
    await context.route(`${lookup}/**`, async (route) => {
      const headers = { 'access-control-allow-origin': service, 'access-control-allow-headers': 'content-type', 'access-control-allow-methods': 'POST' };
      if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers });
      lookups.push(route.request().postData() ?? '');
      return route.fulfill({
        status: 200,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify([{ key: 'price', value: '75000' }]),
      });
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const formPage = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith('/e/'));
    await page.goto(`${host.origin}/`);
    const csp = (await formPage).headers()['content-security-policy'] ?? '';
    expect(csp).toContain(`frame-ancestors ${host.origin}`);
    expect(csp).toContain(`connect-src 'self' ${lookup}`);
    expect(csp).toContain("style-src 'self';");
    const frame = page.frameLocator('#sdk');
    await frame.getByRole('heading', { level: 1, name: 'Purchase agreement' }).waitFor();
    await frame.getByLabel(/^Customer code/).fill('CLI-9');
    await frame.getByRole('button', { name: /^(Validate|Validar)$/ }).click();
    await expect.poll(() => frame.getByLabel(/^Price/).inputValue()).toBe('75000');
    expect(lookups).toEqual([JSON.stringify({ key: 'customer', value: 'CLI-9' })]);
    const preview = frame.frameLocator('iframe.mask-preview');
    await expect.poll(() => preview.locator('h2').evaluate((element) => getComputedStyle(element).color)).toBe('rgb(0, 96, 48)');
    // The form inside the SDK's frame is checked too (the organization's preview inside it left out, as on the link's page).
    const inFrame = await new AxeBuilder({ page }).include('#sdk').exclude(['#sdk', 'iframe.mask-preview']).analyze();
    expect(inFrame.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    expect(inFrame.passes.some((rule) => rule.nodes.some((node) => node.target[0] === '#sdk' && node.target.length > 1))).toBe(true);
    // Another origin cannot frame the form's page: its policy names only the host that opened it.
    const elsewhere = await context.newPage();
    const framed = await elsewhere.goto(`${service}/e/not-a-token-but-long-enough`);
    expect(framed?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await context.close();
  });
});
