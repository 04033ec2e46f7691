import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, PDF_BASE64, pdfProcess } from './support/signing.js';

describe.each(dialects)('GET /document?package= and folders (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  const read = (query: Record<string, string>, key = svc.orgA.privateKey) => call(svc.app, 'GET', '/document', { key, query });
  const packageBody = (org: TestOrganization, overrides: Record<string, unknown> = {}) => ({
    email: org.email,
    name: 'Onboarding',
    signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test', phone: '+573001234567' }],
    documents: [
      { name: 'Contract', file: PDF_BASE64 },
      { name: 'Annex', file: PDF_BASE64 },
    ],
    ...overrides,
  });

  describe('GET /document?package= answers the package as the real service names it: _id, codes, signers', () => {
    it("with the private key: _id, codes (each document's own), signers [{userId, email, name, phone, status}], status, signFinish", async () => {
      const created = (await call(svc.app, 'POST', '/document/many', { key: svc.orgA.privateKey, body: packageBody(svc.orgA) })).json();
      const res = await read({ package: created.package });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      const codes = created.documents.map((d: { code: string }) => d.code);
      expect(body).toMatchObject({
        _id: created.package,
        code: created.package,
        kind: 'package',
        name: 'Onboarding',
        status: 'CREATED',
        signFinish: false,
        codes,
        signers: [{ userId: created.signProfile[0].id, email: 'ana@people.test', name: 'Ana Gómez', phone: '+573001234567', status: 'NOTIFICATION' }],
      });
      expect(body.documents.map((d: { code: string }) => d.code)).toEqual(codes);
    });

    it('with the public key: the public view, without e-mails, phones or participant ids', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/many', packageBody(svc.orgA));
      const body = (await read({ package: code }, svc.orgA.publicKey)).json();
      expect(body).toMatchObject({ code, kind: 'package', status: 'CREATED' });
      expect(JSON.stringify(body)).not.toContain('ana@people.test');
      expect(body).not.toHaveProperty('signers');
    });

    it("a document's code is DOCUMENT_NOT_FOUND there; so is another organization's package", async () => {
      const document = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      expect((await read({ package: document })).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      const code = await createProcess(svc, svc.orgA, '/document/many', packageBody(svc.orgA));
      expect((await read({ package: code }, svc.orgB.privateKey)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      expect((await read({ package: code }, svc.orgB.publicKey)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    });

    it('code and package together are refused with 400', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/many', packageBody(svc.orgA));
      expect((await read({ package: code, code })).statusCode).toBe(400);
    });
  });

  describe('folder: a folder of the creator, made the first time a creation names it; GET /document lists by folder', () => {
    it('the process shows its folder; the listing with folder keeps only the processes in it, newest first', async () => {
      const inLeases = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { folder: 'Leases/2026' }));
      const alsoInLeases = await createProcess(svc, svc.orgA, '/document/many', packageBody(svc.orgA, { folder: 'Leases/2026' }));
      const elsewhere = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { folder: 'Sales' }));
      const atRoot = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      expect((await read({ code: inLeases })).json().folder).toBe('Leases/2026');
      expect((await read({ code: atRoot })).json()).not.toHaveProperty('folder');
      const listed = (await read({ folder: 'Leases/2026' })).json();
      expect(listed.data.map((p: { code: string }) => p.code)).toEqual([alsoInLeases, inLeases]);
      expect((await read({ folder: 'Sales' })).json().data.map((p: { code: string }) => p.code)).toEqual([elsewhere]);
      expect((await read({ folder: 'Nothing here' })).json().data).toEqual([]);
    });

    it("organization B's listing of the same folder path never shows A's processes, and B's processes sit in B's own folder", async () => {
      const a = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { folder: 'Shared name' }));
      const b = await createProcess(svc, svc.orgB, '/document/upload', pdfProcess(svc.orgB, { folder: 'Shared name' }));
      expect((await read({ folder: 'Shared name' }, svc.orgB.privateKey)).json().data.map((p: { code: string }) => p.code)).toEqual([b]);
      expect((await read({ folder: 'Shared name' })).json().data.map((p: { code: string }) => p.code)).toEqual([a]);
      const folders = await svc.deps.db.selectFrom('folders').select(['organization_id', 'owner_email']).where('path', '=', 'Shared name').execute();
      expect(folders.map((f) => [f.organization_id, f.owner_email]).sort()).toEqual(
        [
          [svc.orgA.id, svc.orgA.email],
          [svc.orgB.id, svc.orgB.email],
        ].sort(),
      );
    });

    it('a folder path with empty levels is refused with 400, naming the field', async () => {
      for (const folder of ['/Leases', 'Leases//2026', 'Leases/']) {
        const res = await call(svc.app, 'POST', '/document/upload', { key: svc.orgA.privateKey, body: pdfProcess(svc.orgA, { folder }) });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toMatch(/^"folder" must be folder names separated by single slashes/);
      }
    });

    it('the public key cannot list a folder (403)', async () => {
      expect((await read({ folder: 'Leases/2026' }, svc.orgA.publicKey)).statusCode).toBe(403);
    });

    it('an overwrite that leaves folder out moves the process to the root', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { folder: 'Drafts' }));
      await call(svc.app, 'POST', '/document/edit', { key: svc.orgA.privateKey, body: { code } });
      const res = await call(svc.app, 'POST', '/document/upload', { key: svc.orgA.privateKey, body: pdfProcess(svc.orgA, { code }) });
      expect(res.statusCode, res.body).toBe(200);
      expect((await read({ code })).json()).not.toHaveProperty('folder');
    });
  });
});
