import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ACTIONS } from '../src/console/audit-contract.js';
import { PROCESS_ACTIONS } from '../src/documents/process-events.js';
import { LANGUAGES } from '../src/organizations/languages.js';
import { CONSOLE_WORDS } from '../src/people/words-console.js';
import { consoleCall, signedInUser } from './support/console.js';
import { dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, PDF_BYTES, pdfProcess, readAndSign, stored } from './support/signing.js';

describe('the console names every event of a process in words, in each of its languages', () => {
  it('each action of the audit trail has its words in es, en, pt and fr, none of them the code itself', () => {
    for (const language of LANGUAGES) {
      const words: Record<string, string> = CONSOLE_WORDS[language];
      for (const action of PROCESS_ACTIONS) {
        const said = words[`event${action}`];
        expect(said, `${language} ${action}`).toEqual(expect.any(String));
        expect(said, `${language} ${action}`).not.toContain(action);
      }
    }
  });
});

describe("the console's audit log names every action in words, in each of its languages", () => {
  it('each action of the console audit log has its words in es, en, pt and fr, none of them the code itself', () => {
    for (const language of LANGUAGES) {
      const words: Record<string, string> = CONSOLE_WORDS[language];
      for (const action of CONSOLE_ACTIONS) {
        const said = words[`audit${action}`];
        expect(said, `${language} ${action}`).toEqual(expect.any(String));
        expect(said, `${language} ${action}`).not.toContain(action);
      }
    }
  });
});

describe.each(dialects)("the console downloads the documents and final files of the organization's own processes, never another's (%s)", (dialect) => {
  let svc: TestService;
  const senders = new Map<string, string>();
  const sender = (org: TestOrganization) => senders.get(org.id) ?? '';

  beforeAll(async () => {
    svc = await startTestService(dialect);
    senders.set(svc.orgA.id, await signedInUser(svc, svc.orgA, 'sender@acme.test', 'sender', '198.51.100.40'));
    senders.set(svc.orgB.id, await signedInUser(svc, svc.orgB, 'sender@globex.test', 'sender', '198.51.100.40'));
  });
  afterAll(async () => svc.close());

  /** A PDF process of `org` with one signer, who signed it; its final files sealed by the outbox. */
  async function signedProcess(org: TestOrganization, name: string): Promise<string> {
    const code = await createProcess(svc, org, '/document/upload', pdfProcess(org, { name, signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test' }] }));
    const token = (await stored(svc, org, code)).participants[0]?.link_token ?? '';
    await readAndSign(svc.deps, { token });
    while ((await svc.deps.worker.deliverDue()) > 0);
    expect((await stored(svc, org, code)).process.sealed_at).not.toBeNull();
    return code;
  }
  const download = (cookie: string, query: Record<string, string>) => consoleCall(svc, 'GET', '/console/api/process/file', { cookie, query });

  it('the document, its signed PDF and the certificate of the own process come as attachments, named as the API names them', async () => {
    const code = await signedProcess(svc.orgA, 'Lease Calle 12');
    const original = await download(sender(svc.orgA), { code, file: 'document' });
    expect(original.statusCode, original.body).toBe(200);
    expect(original.headers['content-type']).toBe('application/pdf');
    expect(original.headers['content-disposition']).toMatch(/^attachment; filename="/);
    expect(original.headers['x-content-type-options']).toBe('nosniff');
    expect(original.headers['cache-control']).toBe('no-store');
    expect(original.rawPayload.equals(PDF_BYTES)).toBe(true);
    const signed = await download(sender(svc.orgA), { code, file: 'signed' });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.headers['content-disposition']).toMatch(/^attachment; filename="Lease Calle 12 - firmado\.pdf"/);
    expect(signed.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(signed.rawPayload.equals(PDF_BYTES)).toBe(false);
    const certificate = await download(sender(svc.orgA), { code, file: 'certificate' });
    expect(certificate.statusCode, certificate.body).toBe(200);
    expect(certificate.headers['content-disposition']).toMatch(/^attachment; filename="Lease Calle 12 - /);
    expect(certificate.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it("another organization's process answers 404 DOCUMENT_NOT_FOUND, as an unknown code; a file not made yet 404 FILE_NOT_FOUND", async () => {
    const ofA = await signedProcess(svc.orgA, 'Only Acme');
    for (const file of ['document', 'signed', 'certificate']) {
      const res = await download(sender(svc.orgB), { code: ofA, file });
      expect([res.statusCode, res.json()], file).toEqual([404, { message: 'DOCUMENT_NOT_FOUND' }]);
      expect((await download(sender(svc.orgB), { code: 'ZZZZZZZZZZ', file })).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    }
    const unsigned = await createProcess(
      svc,
      svc.orgB,
      '/document/upload',
      pdfProcess(svc.orgB, { signProfile: [{ name: 'Pedro', email: 'pedro@people.test' }] }),
    );
    expect((await download(sender(svc.orgB), { code: unsigned, file: 'document' })).statusCode).toBe(200);
    for (const file of ['signed', 'certificate']) {
      const res = await download(sender(svc.orgB), { code: unsigned, file });
      expect([res.statusCode, res.json()], file).toEqual([404, { message: 'FILE_NOT_FOUND' }]);
    }
    expect((await download(sender(svc.orgB), { code: unsigned, file: 'document', document: '1' })).json()).toEqual({ message: 'FILE_NOT_FOUND' });
    expect((await download('', { code: ofA, file: 'document' })).statusCode).toBe(401);
  });
});
