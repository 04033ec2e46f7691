import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/organizations/settings.js';
import { launchBrowser, type PhoneBrowser, screenshot, y4mOf } from './support/browser.js';
import { identityCard, selfie } from './support/face-photos.js';
import { verifaceBody } from './support/fixtures.js';
import { eventsOf, startHost } from './support/sdk-host.js';
import { call, startServedService, type TestService } from './support/service.js';
import { PDF_BASE64, stored } from './support/signing.js';

describe('embedding with the real SDK (auco-sdk-integration, customOrigin)', { timeout: 120_000 }, () => {
  let svc: TestService;
  let service: string;
  let phone: PhoneBrowser;
  let sdkSettings: Record<string, unknown> = {};
  let allowed: Awaited<ReturnType<typeof startHost>>;
  let other: Awaited<ReturnType<typeof startHost>>;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-'));

  beforeAll(async () => {
    ({ svc, base: service } = await startServedService('sqlite', { FACE_MATCHER: 'manual' }));
    allowed = await startHost(
      () => sdkSettings,
      async (document, origin) => {
        const minted = await call(svc.app, 'POST', '/sdk/token', { key: svc.orgA.privateKey, body: { document, origin } });
        if (minted.statusCode !== 200) throw new Error(minted.body);
        return (minted.json() as { token: string }).token;
      },
    );
    other = await startHost(() => sdkSettings);
    await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { sdkOrigins: [allowed.origin] } });
    const samples = path.resolve(import.meta.dirname, '../node_modules/@vladmandic/human/assets/samples.jpg');
    const camera = await y4mOf(await sharp(samples).extract({ left: 160, top: 0, width: 152, height: 157 }).jpeg().toBuffer(), path.join(work, 'camera.y4m'));
    phone = await launchBrowser({ camera });
  }, 60_000);

  afterAll(async () => {
    await phone?.close();
    await allowed?.close();
    await other?.close();
    await svc?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  async function signingDocument(): Promise<{ code: string; document: string }> {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: svc.orgA.privateKey,
      body: { email: svc.orgA.email, name: 'Embedded lease', file: PDF_BASE64, signProfile: [{ name: 'Sara Vega', email: 'sara@people.test' }] },
    });
    const { code } = res.json() as { code: string };
    const { participants } = await stored(svc, svc.orgA, code);
    return { code, document: `${code}${participants[0]?.participant_id}` };
  }

  it('sign: onSDKReady fires, the person signs inside the frame, and onSDKClose gets the document code', async () => {
    const { code, document } = await signingDocument();
    sdkSettings = {
      sdkType: 'sign',
      language: 'es',
      keyPublic: svc.orgA.publicKey,
      customOrigin: service,
      sdkData: { document, uxOptions: { primaryColor: '#021c30', alternateColor: '#FFFFFF', redirectUrl: 'https://app.example.com/done' } },
    };
    const context = await phone.phone();
    const page = await context.newPage();
    await page.goto(`${allowed.origin}/`);
    await expect.poll(() => eventsOf(page), { timeout: 15_000 }).toContainEqual({ event: 'ready' });
    const frame = page.frameLocator('#sdk');
    await frame.getByRole('heading', { name: 'Embedded lease', level: 1 }).waitFor();
    // The integrator's colour is applied.
    const colour = await frame.getByRole('button', { name: 'Firmar', exact: true }).evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(colour).toBe('rgb(2, 28, 48)');
    await screenshot(page, '13-embedded-with-the-sdk');
    await frame.getByRole('tab', { name: 'Escribir' }).click();
    await frame.getByLabel(/Acepto firmar electrónicamente/).check();
    await frame.getByRole('button', { name: 'Firmar', exact: true }).click();
    await expect
      .poll(() => eventsOf(page), { timeout: 15_000 })
      .toContainEqual({ event: 'close', args: [document, 'https://app.example.com/done', [expect.objectContaining({ name: 'Sara Vega' })]] });
    expect((await stored(svc, svc.orgA, code)).process.status).toBe('FINISH');
    await context.close();
  });

  it('validation: onSDKClose gets the similarity and the status once the photos are taken', async () => {
    const created = await call(svc.app, 'POST', '/veriface', { key: svc.orgA.privateKey, body: verifaceBody(svc.orgA.email, { platform: 'web' }) });
    const { code } = created.json() as { code: string };
    sdkSettings = { sdkType: 'validation', language: 'en', keyPublic: svc.orgA.publicKey, customOrigin: service, sdkData: { document: code, uxOptions: {} } };
    const context = await phone.phone();
    const page = await context.newPage();
    await page.goto(`${allowed.origin}/`);
    const frame = page.frameLocator('#sdk');
    for (const shot of ['Photo of the front of your ID', 'Take a photo of your face']) {
      await frame.getByRole('heading', { name: shot }).waitFor();
      await frame.getByRole('button', { name: 'Open the camera' }).click();
      await expect.poll(() => frame.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 10_000 }).toBeGreaterThan(0);
      await frame.getByRole('button', { name: 'Take the photo' }).click();
      await frame.getByRole('button', { name: 'Use this photo' }).click();
    }
    // FACE_MATCHER=manual: the validation waits for a person of the organization.
    await expect.poll(() => eventsOf(page), { timeout: 20_000 }).toContainEqual({ event: 'close', args: [0, 'BLOCKED', []] });
    await context.close();
  });

  it("the frame's language picker starts on the language of the SDK's init message, and another choice redraws the flow in it", async () => {
    const { document } = await signingDocument();
    sdkSettings = { sdkType: 'sign', language: 'en', keyPublic: svc.orgA.publicKey, customOrigin: service, sdkData: { document } };
    const context = await phone.phone();
    const page = await context.newPage();
    await page.goto(`${allowed.origin}/`);
    const frame = page.frameLocator('#sdk');
    await frame.getByRole('heading', { name: 'Sign the document' }).waitFor();
    const picker = frame.getByRole('combobox', { name: 'Language' });
    expect(await picker.inputValue()).toBe('en');
    await picker.selectOption('pt');
    await frame.getByRole('heading', { name: 'Assine o documento' }).waitFor();
    expect(await frame.getByRole('combobox', { name: 'Idioma' }).inputValue()).toBe('pt');
    await context.close();
  });

  it('the same host page on an origin the organization did not allow gets nothing: the browser refuses to frame the app', async () => {
    const { document } = await signingDocument();
    sdkSettings = { sdkType: 'sign', language: 'es', keyPublic: svc.orgA.publicKey, customOrigin: service, sdkData: { document } };
    const context = await phone.phone();
    const page = await context.newPage();
    await page.goto(`${other.origin}/`);
    await page.waitForTimeout(3000);
    expect(await eventsOf(page)).toEqual([]);
    expect(await page.frameLocator('#sdk').getByRole('heading').count()).toBe(0);
    await context.close();
  });

  describe('an organization that requires a token (sdkRequireToken)', () => {
    beforeAll(() => updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { sdkRequireToken: true } }));
    afterAll(() => updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { sdkRequireToken: false } }));

    it("sign through a token: the frame asks the SDK, whose onSDKToken gets it from the host's backend (POST /sdk/token)", async () => {
      const { code, document } = await signingDocument();
      sdkSettings = { sdkType: 'sign', language: 'es', keyPublic: svc.orgA.publicKey, customOrigin: service, sdkData: { document }, hostToken: true };
      const context = await phone.phone();
      const page = await context.newPage();
      await page.goto(`${allowed.origin}/`);
      const frame = page.frameLocator('#sdk');
      await frame.getByRole('heading', { name: 'Embedded lease', level: 1 }).waitFor();
      expect(await eventsOf(page)).toContainEqual({ event: 'token' });
      await frame.getByRole('tab', { name: 'Escribir' }).click();
      await frame.getByLabel(/Acepto firmar electrónicamente/).check();
      await frame.getByRole('button', { name: 'Firmar', exact: true }).click();
      await expect
        .poll(() => eventsOf(page), { timeout: 15_000 })
        .toContainEqual({ event: 'close', args: [document, '', [expect.objectContaining({ name: 'Sara Vega' })]] });
      expect((await stored(svc, svc.orgA, code)).process.status).toBe('FINISH');
      await context.close();
    });

    it('the same host page without onSDKToken is refused: the frame says the link is not valid', async () => {
      const { code, document } = await signingDocument();
      sdkSettings = { sdkType: 'sign', language: 'es', keyPublic: svc.orgA.publicKey, customOrigin: service, sdkData: { document } };
      const context = await phone.phone();
      const page = await context.newPage();
      await page.goto(`${allowed.origin}/`);
      const frame = page.frameLocator('#sdk');
      await frame.getByRole('heading', { name: 'Este enlace no es válido' }).waitFor({ timeout: 15_000 });
      expect(await frame.getByRole('heading', { name: 'Embedded lease', level: 1 }).count()).toBe(0);
      expect(await eventsOf(page)).not.toContainEqual(expect.objectContaining({ event: 'close' }));
      expect((await stored(svc, svc.orgA, code)).participants[0]?.opened_at).toBeNull();
      await context.close();
    });
  });

  it("another organization's key, a wrong participant or an origin not listed opens nothing", async () => {
    const { document } = await signingDocument();
    const open = (body: Record<string, string>) => svc.app.inject({ method: 'POST', url: '/people/embed', payload: body });
    const right = { keyPublic: svc.orgA.publicKey, document, parentOrigin: allowed.origin };
    expect((await open(right)).json()).toMatchObject({ flow: 'sign', token: expect.any(String) });
    for (const wrong of [
      { ...right, keyPublic: svc.orgB.publicKey },
      { ...right, document: `${document.slice(0, 10)}ZZ` },
      { ...right, parentOrigin: other.origin },
      { ...right, keyPublic: 'puk_00000000000000000000000000000000' },
    ]) {
      const refused = await open(wrong);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ message: 'EMBED_NOT_FOUND' });
    }
  });
});

describe("the validation's close event with the face matcher of the machine (FACE_MATCHER=local)", { timeout: 180_000 }, () => {
  let svc: TestService;
  let service: string;
  let phone: PhoneBrowser;
  let sdkSettings: Record<string, unknown> = {};
  let host: Awaited<ReturnType<typeof startHost>>;

  beforeAll(async () => {
    ({ svc, base: service } = await startServedService('sqlite', { FACE_MATCHER: 'local', FACE_WORKERS: '1' }));
    host = await startHost(() => sdkSettings);
    await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { sdkOrigins: [host.origin] } });
    phone = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await phone?.close();
    await host?.close();
    await svc?.close();
  });

  it('onSDKClose fires once, when the validation is over, with the real similarity and status; a face that did not match is asked again in words, with no close event', async () => {
    const { code } = (
      await call(svc.app, 'POST', '/veriface', { key: svc.orgA.privateKey, body: verifaceBody(svc.orgA.email, { platform: 'web' }) })
    ).json() as {
      code: string;
    };
    sdkSettings = { sdkType: 'validation', language: 'en', keyPublic: svc.orgA.publicKey, customOrigin: service, sdkData: { document: code, uxOptions: {} } };
    const context = await phone.phone();
    const page = await context.newPage();
    await page.goto(`${host.origin}/`);
    const frame = page.frameLocator('#sdk');
    const upload = async (heading: string, kind: string, bytes: Buffer) => {
      await frame.getByRole('heading', { name: heading }).waitFor({ timeout: 20_000 });
      await frame.locator(`#file-${kind}`).setInputFiles({ name: `${kind}.jpg`, mimeType: 'image/jpeg', buffer: bytes });
      await frame.getByRole('button', { name: 'Use this photo' }).click();
    };
    await upload('Photo of the front of your ID', 'documentFront', await identityCard('authorSelected'));
    await upload('Take a photo of your face', 'face', await selfie('womanBlonde'));
    await frame
      .getByText('The photo does not match the one on your ID. Try again in good light, facing the camera. You have 2 tries left.')
      .waitFor({ timeout: 30_000 });
    expect(await eventsOf(page)).not.toContainEqual(expect.objectContaining({ event: 'close' }));
    await upload('Take a photo of your face', 'face', await selfie('authorPhoto'));
    await expect.poll(() => eventsOf(page), { timeout: 30_000 }).toContainEqual({ event: 'close', args: [expect.any(Number), 'APPROVED', []] });
    const read = (await call(svc.app, 'GET', '/veriface', { key: svc.orgA.privateKey, query: { code } })).json() as { status: string; similarity: number };
    expect(read.status).toBe('APPROVED');
    const closes = (await eventsOf(page)).filter((event) => event.event === 'close');
    expect(closes).toEqual([{ event: 'close', args: [read.similarity, 'APPROVED', []] }]);
    expect(read.similarity).toBeGreaterThan(50);
    expect((await call(svc.app, 'GET', '/veriface', { key: svc.orgB.privateKey, query: { code } })).json().message).toMatch(/^VERIFACE_NOT_FOUND/);
    await context.close();
  });
});
