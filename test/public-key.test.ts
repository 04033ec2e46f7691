import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysOf } from './support/json-keys.js';
import { photographedProcess, photographedVeriface } from './support/photos.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, pdfProcess, templateWithHtml } from './support/signing.js';

/**
 * The public key sits in integrators' web pages, so anyone may hold it: it reads only what the
 * holder of a process code may see, and every listing, log, photo and piece of personal data takes
 * the private key (issue 23, finding 2).
 */

const SIGNER = { phone: '+573001234567' };
const CUSTOM = { crmId: 'deal-4711' };

interface Sample {
  process: string;
  veriface: string;
  template: string;
}

async function sampleOf(svc: TestService, org: TestOrganization): Promise<Sample> {
  const { code: process } = await photographedProcess(svc, org, { body: { custom: CUSTOM, tags: ['rent'] }, signer: SIGNER });
  const { code: veriface } = await photographedVeriface(svc, org, { body: { custom: CUSTOM, userEmail: 'juan@people.test' } });
  const template = await templateWithHtml(svc, org);
  await createProcess(svc, org, '/document/upload', pdfProcess(org));
  return { process, veriface, template };
}

describe.each(dialects)('the public key is a browser key (%s)', (dialect) => {
  let svc: TestService;
  let a: Sample;
  let b: Sample;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    a = await sampleOf(svc, svc.orgA);
    b = await sampleOf(svc, svc.orgB);
  });
  afterAll(async () => svc.close());

  const read = (path: string, key: string, query: Record<string, string> = {}) => call(svc.app, 'GET', path, { key, query });

  describe('GET /document?code= with the public key answers status, names, roles and each participant’s state, nothing more', () => {
    it('no participant id, e-mail, phone, custom, tags, validations, similarity or URL; the private key still sees them', async () => {
      const full = (await read('/document', svc.orgA.privateKey, { code: a.process })).json();
      expect(full).toMatchObject({ custom: CUSTOM, signProfile: [{ id: expect.any(String), email: 'ana@people.test', phone: SIGNER.phone }] });
      const res = await read('/document', svc.orgA.publicKey, { code: a.process });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        code: a.process,
        kind: 'document',
        name: 'Lease',
        status: 'CREATED',
        signFinish: false,
        documents: [{ name: full.documents[0].name, ready: true }],
        signProfile: [{ name: 'Ana Gómez', role: 'SIGNER', order: full.signProfile[0].order, status: full.signProfile[0].status }],
        createdAt: full.createdAt,
        updatedAt: full.updatedAt,
      });
    });

    it('image=true with the public key is 403 PRIVATE_KEY_REQUIRED and gives no photo URL', async () => {
      const res = await read('/document', svc.orgA.publicKey, { code: a.process, image: 'true' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'PRIVATE_KEY_REQUIRED: identity photos (image=true)' });
      const full = (await read('/document', svc.orgA.privateKey, { code: a.process, image: 'true' })).json();
      expect(full.signProfile[0].photo.data).toContain('/photos/');
    });

    it("another organization's code answers the public key as a code nobody owns", async () => {
      const res = await read('/document', svc.orgA.publicKey, { code: b.process });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      const photos = await read('/document', svc.orgA.publicKey, { code: b.process, image: 'true' });
      const nobodys = await read('/document', svc.orgA.publicKey, { code: 'ZZZZZZZZZZ', image: 'true' });
      expect([photos.statusCode, photos.body]).toEqual([nobodys.statusCode, nobodys.body]);
    });
  });

  describe('GET /veriface?code= with the public key gives the state and result, no identification, phone, photo or e-mail', () => {
    it('the public answer names status, result and the person, and the private one everything', async () => {
      const full = (await read('/veriface', svc.orgA.privateKey, { code: a.veriface })).json();
      expect(full).toMatchObject({ identificationNumber: '1001001010', phone: '+573001234567', userEmail: 'juan@people.test', custom: CUSTOM });
      expect(Object.keys(full.photos)).toEqual(['documentFront', 'face']);
      const res = await read('/veriface', svc.orgA.publicKey, { code: a.veriface });
      expect(res.statusCode).toBe(200);
      const view = res.json();
      expect(view).toMatchObject({ code: a.veriface, status: full.status, name: 'Juan Pérez', platform: 'web' });
      for (const hidden of ['identificationNumber', 'identificationType', 'country', 'phone', 'email', 'userEmail', 'photos', 'custom', 'detail']) {
        expect(keysOf(view), hidden).not.toContain(hidden);
      }
      expect(res.body).not.toContain('1001001010');
      expect(res.body).not.toContain('/photos/');
      expect(view.stages.map((s: { stage: string }) => s.stage)).toEqual(full.stages.map((s: { stage: string }) => s.stage));
    });

    it("another organization's public key gets VERIFACE_NOT_FOUND", async () => {
      expect((await read('/veriface', svc.orgA.publicKey, { code: b.veriface })).json()).toEqual({ message: 'VERIFACE_NOT_FOUND' });
    });
  });

  describe('every listing, log and the audit trail takes the private key: the public key is 403 PRIVATE_KEY_REQUIRED', () => {
    it('GET /document without code, GET /template without id, reference links, webhooks, deliveries, the roadmap and the settings', async () => {
      const refused: [string, Record<string, string>][] = [
        ['/document', {}],
        ['/document', { status: 'CREATED' }],
        ['/template', {}],
        ['/template/reference', { template: a.template }],
        ['/webhooks', {}],
        ['/webhooks/deliveries', {}],
        ['/document/roadmap', { code: a.process }],
        ['/organization', {}],
      ];
      for (const [path, query] of refused) {
        const res = await read(path, svc.orgA.publicKey, query);
        expect(res.statusCode, path).toBe(403);
        expect(res.json().message, path).toMatch(/^PRIVATE_KEY_REQUIRED/);
        expect(res.body, path).not.toContain(a.process);
        expect((await read(path, svc.orgA.privateKey, query)).statusCode, path).toBe(200);
      }
    });

    it("the private key's listing shows only its own organization's processes", async () => {
      const codes = (await read('/document', svc.orgA.privateKey)).json().data.map((p: { code: string }) => p.code);
      expect(codes).toContain(a.process);
      expect(codes).not.toContain(b.process);
    });
  });

  describe("a template's questionnaire stays readable with the public key (the SDK's fill flow reads it)", () => {
    it('GET /template?id= answers the same to both keys, and another organization’s id is 404', async () => {
      const withPublic = await read('/template', svc.orgA.publicKey, { id: a.template });
      expect(withPublic.statusCode).toBe(200);
      expect(withPublic.json().id).toBe(a.template);
      expect((await read('/template', svc.orgA.publicKey, { id: b.template })).json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
    });
  });
});
