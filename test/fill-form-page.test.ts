import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDocuments } from '../src/documents/queries.js';
import { updateSettings } from '../src/organizations/settings.js';
import { expectAccessible } from './support/accessibility.js';
import { launchBrowser, type PhoneBrowser, screenshot } from './support/browser.js';
import { lastCode } from './support/forms.js';
import { eventsOf, startHost } from './support/sdk-host.js';
import { call, startServedService, type TestService } from './support/service.js';
import { stored, templateWithHtml } from './support/signing.js';

const LOOKUP = 'https://lookup.example.test';

/** A questionnaire with every question type, a chain of prereqs, prereqOptionals and clausula options. */
const TEMPLATE = {
  name: 'Contrato de servicio',
  description: 'Servicio con plan básico o premium',
  config: [
    { name: 'full_name', type: 'name', description: 'Nombre completo' },
    { name: 'email', type: 'email', description: 'Correo electrónico', help: 'email_help' },
    { name: 'phone', type: 'phone', description: 'Teléfono celular' },
    { name: 'id_doc', type: 'identification', description: 'Documento de identidad' },
    { name: 'amount', type: 'currency', description: 'Valor del contrato' },
    { name: 'units', type: 'number', description: 'Unidades' },
    { name: 'start', type: 'date', description: 'Fecha de inicio' },
    { name: 'nit', type: 'nit', description: 'NIT de la empresa' },
    { name: 'department', type: 'department', description: 'Departamento' },
    {
      name: 'city',
      type: 'select',
      description: 'Ciudad',
      options: [
        { name: 'Bogotá', value: 'bogota' },
        { name: 'Medellín', value: 'medellin' },
      ],
    },
    {
      name: 'product',
      type: 'searchlist',
      description: 'Producto',
      options: [
        { name: 'Plan hogar', value: 'hogar' },
        { name: 'Plan empresa', value: 'empresa' },
        { name: 'Plan viajero', value: 'viajero' },
      ],
    },
    {
      name: 'plan',
      type: 'clausula',
      description: 'Tipo de plan',
      value: 'basic',
      options: [
        { name: 'Básico', value: 'basic' },
        { name: 'Premium', value: 'premium' },
      ],
    },
    { name: 'extras', type: 'check', description: 'Adicionales', values: ['Seguro', 'Domicilio'], prereq: [{ k: 'plan', v: 'premium' }] },
    {
      name: 'level',
      type: 'clausula',
      description: 'Nivel premium',
      prereq: [{ k: 'plan', v: 'premium' }],
      options: [
        { name: 'Oro', value: 'gold' },
        { name: 'Plata', value: 'silver' },
      ],
    },
    { name: 'gold_code', type: 'text', description: 'Código de oro', prereq: [{ k: 'level', v: 'gold' }] },
    { name: 'contact', type: 'text', description: 'Hora de contacto', prereq: [{ k: 'level', v: 'gold' }], prereqOptionals: ['level_gold', 'level_silver'] },
    { name: 'photo', type: 'image', description: 'Foto del inmueble' },
    { name: 'code', type: 'request', description: 'Código de cliente', endpoint: `${LOOKUP}/check` },
    { name: 'signature', type: 'signature', description: 'Firma del cliente' },
  ],
  help: { email_help: 'Te enviaremos una copia del contrato.' },
  sign: ['full_name', 'email', 'amount', 'id_doc', 'gold_code'],
  signatureProfile: [{ type: 'client', name: 'full_name', email: 'email', phone: 'phone', identification: 'id_doc', signature: 'signature' }],
  preBuild: false,
};

const HTML = `<!doctype html>
<html><head><meta charset="UTF-8"><style>body { font-family: serif } .box { border: 1px solid #999; padding: 4px }</style></head>
<body>
<h1 style="color: rgb(0, 96, 48); letter-spacing: 2px">Contrato de servicio</h1>
<p>Cliente: <span name="full_name">________</span>, correo <span name="email">________</span>.</p>
<p class="box">Valor: <span name="amount">0</span>. Plan: <span name="plan">—</span>.</p>
<p><span name="plan_basic">Plan básico sin adicionales.</span><span name="plan_premium" hidden>Plan premium con <span name="extras">—</span>.</span></p>
<p><span name="level_gold" hidden>Nivel oro: <span name="gold_code">—</span>.</span></p>
<div class="sign-margin" name="client"></div>
<script>document.body.dataset.ran = 'yes';</script>
</body></html>`;

/**
 * No serious or critical accessibility violation on the page. The preview's document is the
 * organization's template, not the page, and no script can enter its frame (axe's included): it
 * is left out, and its frame's title is checked by the test itself.
 */
describe('the questionnaire of a reference link, filled in Chromium on a phone', { timeout: 180_000 }, () => {
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

  it('questions appear and disappear as answers change, the preview shows the answers, refusals show at their fields, the process holds exactly the answers, and with sign now the same person signs', async () => {
    const template = await templateWithHtml(svc, svc.orgA, HTML, TEMPLATE);
    const created = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template, signNow: true, name: 'Web' } });
    const url: string = created.json().url;
    const token = url.split('/r/')[1] ?? '';
    const context = await phone.phone();
    // The template's endpoint, as an integrator's server would answer it (CORS included).
    const lookups: string[] = [];
    await context.route(`${LOOKUP}/**`, async (route) => {
      const headers = { 'access-control-allow-origin': base, 'access-control-allow-headers': 'content-type', 'access-control-allow-methods': 'POST' };
      if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers });
      lookups.push(route.request().postData() ?? '');
      return route.fulfill({ status: 200, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify([{ key: 'units', value: '7' }]) });
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const response = await page.goto(url);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain(`connect-src 'self' ${LOOKUP}`);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self';");
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.getByRole('heading', { level: 1, name: 'Contrato de servicio' }).waitFor();

    // The label is the question's words, the help its hint.
    const email = page.getByLabel(/^Correo electrónico/);
    expect(await email.getAttribute('aria-describedby')).toBe('q-email-help');
    await expect.poll(() => page.locator('#q-email-help').textContent()).toBe('Te enviaremos una copia del contrato.');

    // Prereq chains: premium shows its questions, gold shows its own, back to basic hides them all.
    const goldCode = page.getByLabel(/^Código de oro/);
    const level = page.getByRole('group', { name: 'Nivel premium' });
    const contact = page.getByLabel('Hora de contacto');
    expect(await level.isVisible()).toBe(false);
    await page.getByRole('radio', { name: 'Premium' }).check();
    await level.waitFor();
    expect(await goldCode.isVisible()).toBe(false);
    await page.getByRole('radio', { name: 'Oro' }).check();
    await goldCode.waitFor();
    await contact.waitFor();
    await page.getByRole('radio', { name: 'Plata' }).check();
    await goldCode.waitFor({ state: 'hidden' });
    expect(await contact.isVisible()).toBe(true);
    await page.getByRole('radio', { name: 'Básico' }).check();
    await level.waitFor({ state: 'hidden' });
    expect(await contact.isVisible()).toBe(false);
    await page.getByRole('radio', { name: 'Premium' }).check();
    await page.getByRole('radio', { name: 'Oro' }).check();

    // Answers: a wrong e-mail and the required amount left empty.
    await page.getByLabel(/^Nombre completo/).fill('Ana Gómez');
    await email.fill('ana@');
    await page.getByLabel('Número', { exact: true }).fill('300 123 4567');
    await page.getByLabel('Tipo de documento').selectOption('CC');
    await page.getByLabel('Número del documento').fill('1020304050');
    await page.getByLabel('Fecha de inicio').fill('2027-03-01');
    await page.getByLabel('NIT de la empresa').fill('9001234567');
    await page.getByLabel('Departamento').selectOption('Antioquia');
    await page.getByLabel('Ciudad').selectOption('medellin');
    await page.getByLabel('Producto').fill('Plan empresa');
    await page.getByRole('checkbox', { name: 'Seguro' }).check();
    await page.getByRole('checkbox', { name: 'Domicilio' }).check();
    await goldCode.fill('ORO-77');
    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    await page.locator('#q-photo').setInputFiles({ name: 'casa.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('img', { name: 'Imagen elegida' }).waitFor();
    // The request question asks the template's endpoint from the browser; its answer fills another question.
    await page.getByLabel('Código de cliente').fill('CLI-1');
    await page.getByRole('button', { name: 'Validar' }).click();
    await expect.poll(() => page.getByLabel('Unidades').inputValue()).toBe('7');
    expect(lookups).toEqual([JSON.stringify({ key: 'code', value: 'CLI-1' })]);

    // The live preview: answers in the named elements, the clausulas' options shown and hidden, no script run.
    const preview = page.frameLocator('iframe.mask-preview');
    await expect.poll(() => preview.locator('span[name="full_name"]').textContent()).toBe('ANA GÓMEZ');
    await expect.poll(() => preview.locator('span[name="plan_premium"]').isVisible()).toBe(true);
    expect(await preview.locator('span[name="plan_basic"]').isVisible()).toBe(false);
    expect(await preview.locator('span[name="extras"]').textContent()).toBe('Seguro, Domicilio');
    expect(await preview.locator('span[name="gold_code"]').textContent()).toBe('ORO-77');
    expect(await preview.locator('span[name="plan"]').textContent()).toBe('Premium');
    expect(await preview.locator('body').getAttribute('data-ran')).toBeNull();
    expect(await page.locator('iframe.mask-preview').getAttribute('sandbox')).toBe('allow-same-origin');
    expect(await page.locator('iframe.mask-preview').getAttribute('title')).toBe('Vista previa de Contrato de servicio');
    // The Mask HTML's own styles, its <style> sheet and its inline ones, under a policy that allows no inline style.
    const heading = preview.locator('h1');
    expect(await heading.evaluate((element) => [getComputedStyle(element).color, getComputedStyle(element).letterSpacing])).toEqual(['rgb(0, 96, 48)', '2px']);
    expect(await preview.locator('p.box').evaluate((element) => getComputedStyle(element).borderTopStyle)).toBe('solid');
    expect(await preview.locator('body').evaluate((element) => getComputedStyle(element).fontFamily)).toBe('serif');
    expect(blocked).toEqual([]);

    // Sent with mistakes: each is shown at its field, and the first wrong field has the focus.
    await page.getByRole('button', { name: 'Enviar y firmar' }).click();
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.getAttribute('aria-describedby')).toBe('q-email-help q-email-error');
    expect(await page.locator('#q-email-error').textContent()).toBe('Escribe un correo válido, como nombre@ejemplo.com.');
    const amount = page.getByLabel(/^Valor del contrato/);
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#q-amount-error').textContent()).toBe('Responde esta pregunta.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q-email');
    await expectAccessible(page, { exclude: 'iframe.mask-preview' });

    // A reload loses nothing.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Contrato de servicio' }).waitFor();
    expect(await page.getByLabel(/^Nombre completo/).inputValue()).toBe('Ana Gómez');
    expect(await page.getByRole('radio', { name: 'Oro' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Unidades').inputValue()).toBe('7');

    await email.fill('ana@cliente.test');
    await amount.fill('1500000');
    await expect.poll(() => preview.locator('span[name="amount"]').textContent()).toBe('$1.500.000');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, '40-fill-form-on-a-phone');
    await expectAccessible(page, { exclude: 'iframe.mask-preview' });
    // With sign now the person signs in the form: sent without a signature, the form asks for it at its field.
    await page.getByRole('button', { name: 'Enviar y firmar' }).click();
    const signatureGroup = page.getByRole('group', { name: 'Firma del cliente' });
    await expect.poll(() => signatureGroup.locator('.field-error').textContent()).toBe('Dibuja tu firma o escribe tu nombre.');
    const pad = signatureGroup.locator('canvas.signature-pad');
    expect(await pad.getAttribute('aria-invalid')).toBe('true');
    const box = await pad.boundingBox();
    if (!box) throw new Error('the signature pad is not shown');
    await page.mouse.move(box.x + 20, box.y + 60);
    await page.mouse.down();
    for (const [x, y] of [
      [60, 30],
      [100, 120],
      [150, 40],
      [220, 110],
    ] as const)
      await page.mouse.move(box.x + x, box.y + y, { steps: 4 });
    await page.mouse.up();
    await page.getByRole('button', { name: 'Enviar y firmar' }).click();

    // Nothing leaves for anyone else until the person types the code sent to their own address.
    await page.getByRole('heading', { level: 1, name: 'Confirma que eres tú' }).waitFor({ timeout: 20_000 });
    await page.getByText('Te enviamos un código de 6 dígitos a ana@cliente.test.', { exact: false }).waitFor();
    await screenshot(page, '41-fill-form-code');
    await expectAccessible(page);
    const codeInput = page.getByLabel('Código de 6 dígitos');
    // A code that did not arrive: a new one is asked for on the page, half a minute after the last.
    const first = await lastCode(svc, 'ana@cliente.test');
    await page.getByRole('button', { name: 'Enviarme un código nuevo' }).click();
    await page.getByRole('alert').getByText('Espera medio minuto antes de pedir otro código.').waitFor();
    svc.clock.advance(31_000);
    await page.getByRole('button', { name: 'Enviarme un código nuevo' }).click();
    await page.getByRole('status').getByText('Te enviamos un código nuevo a ana@cliente.test. El anterior ya no sirve.').waitFor();
    await expectAccessible(page);
    await expect.poll(() => lastCode(svc, 'ana@cliente.test')).not.toBe(first);
    const right = await lastCode(svc, 'ana@cliente.test');
    await codeInput.fill(right === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByRole('alert').getByText('Ese código no es correcto. Revisa el mensaje e inténtalo de nuevo.').waitFor();
    await codeInput.fill(right);
    await page.getByRole('button', { name: 'Confirmar' }).click();

    // Sign now: straight to the person's own signing page.
    await page.waitForURL(/\/s\//, { timeout: 20_000 });
    const uses = (await call(svc.app, 'GET', '/template/reference/uses', { key: svc.orgA.privateKey, query: { id: created.json().id } })).json().data;
    expect(uses).toHaveLength(1);
    const { process, participants } = await stored(svc, svc.orgA, uses[0].code);
    expect(page.url()).toBe(`${base}/s/${participants[0]?.link_token}`);
    const [filled] = await listDocuments(svc.deps.db, process.id);
    expect(JSON.parse(filled?.answers ?? '{}')).toEqual({
      full_name: 'Ana Gómez',
      email: 'ana@cliente.test',
      phone: '+573001234567',
      id_doc: 'CC 1020304050',
      amount: '1500000',
      units: '7',
      start: '2027-03-01',
      nit: '9001234567',
      department: 'Antioquia',
      city: 'medellin',
      product: 'empresa',
      plan: 'premium',
      extras: 'Seguro, Domicilio',
      level: 'gold',
      gold_code: 'ORO-77',
      photo: `data:image/png;base64,${png.toString('base64')}`,
      code: 'CLI-1',
    });
    expect(participants.map((p) => [p.name, p.email, p.identification, p.identification_type])).toEqual([
      ['Ana Gómez', 'ana@cliente.test', '1020304050', 'CC'],
    ]);
    expect(await page.evaluate((key) => localStorage.getItem(key), `fill:${token}`)).toBeNull();

    // The signing page offers the signature made in the form, applied once they consent. The person
    // reads the document first: its pages are rendered (a template's, by the renderer) before the
    // bar's button is pressed; until then the short page shows the step, the bar steps aside, and
    // a press aimed at it while the pages arrive lands on the page below it.
    await expect.poll(() => page.locator('.pdf-page canvas').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Continuar para firmar' }).click();
    await page.getByRole('img', { name: 'Tu firma, hecha en el formulario' }).waitFor();
    await page.getByText('Esta es la firma que hiciste en el formulario.').waitFor();
    await expectAccessible(page, { exclude: 'iframe.mask-preview' });
    await page.getByLabel(/Acepto firmar electrónicamente/).check();
    await page.getByRole('button', { name: 'Firmar', exact: true }).click();
    await expect.poll(async () => (await stored(svc, svc.orgA, uses[0].code)).process.status, { timeout: 30_000 }).toBe('FINISH');
    const signed = await svc.deps.db
      .selectFrom('process_events')
      .select('detail')
      .where('process_id', '=', process.id)
      .where('action', '=', 'PARTICIPANT_SIGN')
      .executeTakeFirst();
    expect(JSON.parse(signed?.detail ?? '{}')).toMatchObject({ signatureKind: 'draw' });
    await context.close();
  });

  it('a link switched off says so in words', async () => {
    const template = await templateWithHtml(svc, svc.orgA, HTML, TEMPLATE);
    const created = (await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template, enabled: false } })).json();
    const context = await phone.phone();
    const page = await context.newPage();
    await page.goto(created.url);
    await page.getByRole('heading', { level: 1, name: 'Formulario no disponible' }).waitFor();
    await page.getByText('Quien publicó este formulario lo desactivó: ya no recibe respuestas.').waitFor();
    await expectAccessible(page, { exclude: 'iframe.mask-preview' });
    await context.close();
  });
  it('the same form through the real SDK with a reference that signs now: prereqs, the request endpoint and the signature in the frame, and onSDKClose gets the code once the person signed', async () => {
    const template = await templateWithHtml(svc, svc.orgA, HTML, TEMPLATE);
    const reference = (await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template, signNow: true } })).json();
    let settings: Record<string, unknown> = {};
    const host = await startHost(() => settings);
    try {
      await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { sdkOrigins: [host.origin] } });
      settings = {
        sdkType: 'fill',
        language: 'es',
        keyPublic: svc.orgA.publicKey,
        customOrigin: base,
        sdkData: { document: template, reference: reference.id, uxOptions: { redirectUrl: 'https://shop.example/listo' } },
      };
      const context = await phone.phone();
      await context.route(`${LOOKUP}/**`, async (route) => {
        const headers = { 'access-control-allow-origin': base, 'access-control-allow-headers': 'content-type', 'access-control-allow-methods': 'POST' };
        if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers });
        return route.fulfill({
          status: 200,
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify([{ key: 'units', value: '3' }]),
        });
      });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${host.origin}/`);
      const frame = page.frameLocator('#sdk');
      await frame.getByRole('heading', { level: 1, name: 'Contrato de servicio' }).waitFor();
      await frame.getByRole('radio', { name: 'Premium' }).check();
      await frame.getByRole('radio', { name: 'Oro' }).check();
      await frame.getByLabel(/^Código de oro/).fill('ORO-12');
      await frame.getByLabel(/^Nombre completo/).fill('Luis Pérez');
      await frame.getByLabel(/^Correo electrónico/).fill('luis@cliente.test');
      await frame.getByLabel('Tipo de documento').selectOption('CC');
      await frame.getByLabel('Número del documento').fill('80123456');
      await frame.getByLabel(/^Valor del contrato/).fill('900000');
      await frame.getByLabel('Código de cliente').fill('CLI-2');
      await frame.getByRole('button', { name: 'Validar' }).click();
      await expect.poll(() => frame.getByLabel('Unidades').inputValue()).toBe('3');
      await frame.getByRole('tab', { name: 'Escribir' }).click();
      await frame.getByLabel('Escribe tu nombre como firma').fill('Luis Pérez');
      // The signing page refuses a signature until the document was shown (DOCUMENT_NOT_OPENED): wait for it, as a person would read it.
      const documentOpened = page.waitForResponse((response) => new URL(response.url()).pathname === '/people/signing/opened', { timeout: 30_000 });
      await frame.getByRole('button', { name: 'Enviar y firmar' }).click();
      // The field is shown once the process is made, and with it the code's e-mail.
      await frame.getByLabel('Código de 6 dígitos').waitFor({ timeout: 20_000 });
      await frame.getByLabel('Código de 6 dígitos').fill(await lastCode(svc, 'luis@cliente.test'));
      await frame.getByRole('button', { name: 'Confirmar' }).click();
      // Signing in the frame: the signature typed in the form, offered once more, then consent.
      await frame.getByRole('img', { name: 'Tu firma, hecha en el formulario' }).waitFor({ timeout: 30_000 });
      await documentOpened;
      await frame.getByLabel(/Acepto firmar electrónicamente/).check();
      await frame.getByRole('button', { name: 'Firmar', exact: true }).click();
      await expect.poll(async () => (await eventsOf(page)).find((event) => event.event === 'close'), { timeout: 30_000 }).toBeDefined();
      const close = (await eventsOf(page)).find((event) => event.event === 'close');
      const code = close && 'args' in close ? String(close.args[0]) : '';
      const { process, participants } = await stored(svc, svc.orgA, code);
      expect(close).toEqual({ event: 'close', args: [code, 'https://shop.example/listo', [{ id: participants[0]?.participant_id, name: 'Luis Pérez' }]] });
      await expect.poll(async () => (await stored(svc, svc.orgA, code)).process.status, { timeout: 30_000 }).toBe('FINISH');
      const [filled] = await listDocuments(svc.deps.db, process.id);
      expect(JSON.parse(filled?.answers ?? '{}')).toMatchObject({
        full_name: 'Luis Pérez',
        plan: 'premium',
        level: 'gold',
        gold_code: 'ORO-12',
        units: '3',
        code: 'CLI-2',
      });
      const signed = await svc.deps.db
        .selectFrom('process_events')
        .select('detail')
        .where('process_id', '=', process.id)
        .where('action', '=', 'PARTICIPANT_SIGN')
        .executeTakeFirst();
      expect(JSON.parse(signed?.detail ?? '{}')).toMatchObject({ signatureKind: 'font' });
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).statusCode).toBe(400);
      await context.close();
    } finally {
      await host.close();
    }
  });
});
