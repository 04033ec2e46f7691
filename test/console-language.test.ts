import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMessage } from '../src/messages/message-templates.js';
import { updateSettings } from '../src/organizations/settings.js';
import { consoleCall, signedInUser, signInEmail } from './support/console.js';
import { dialects, startTestService, type TestService } from './support/service.js';

describe.each(dialects)("the console follows its user's language (issue 41) (%s)", (dialect) => {
  let svc: TestService;
  let address = 0;
  const nextAddress = () => `198.51.100.${++address}`;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { language: 'es', timeZone: 'Europe/Madrid' } });
    await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { language: 'pt', timeZone: 'America/Sao_Paulo' } });
  });
  afterAll(async () => svc.close());

  const signInSubject = (organization: string, language: 'es' | 'en' | 'pt') =>
    renderMessage('console-sign-in', { organization, link: '', code: '', minutes: 15 }, language).subject;

  describe("GET and PUT /console/api/me/language: the user's choice, else the organization's, with the organization's time zone", () => {
    it("a round trip: the organization's at first, the choice once made, the organization's again with null; the other organization's user is untouched", async () => {
      const ana = await signedInUser(svc, svc.orgA, 'ana@acme.test', 'sender', nextAddress());
      const bia = await signedInUser(svc, svc.orgB, 'ana@acme.test', 'sender', nextAddress());
      const read = async (cookie: string) => (await consoleCall(svc, 'GET', '/console/api/me/language', { cookie })).json();
      expect(await read(ana)).toEqual({ language: 'es', chosen: false, timeZone: 'Europe/Madrid' });

      const chosen = await consoleCall(svc, 'PUT', '/console/api/me/language', { cookie: ana, body: { language: 'en' } });
      expect(chosen.statusCode).toBe(200);
      expect(chosen.json()).toEqual({ language: 'en', chosen: true, timeZone: 'Europe/Madrid' });
      expect(await read(ana)).toEqual({ language: 'en', chosen: true, timeZone: 'Europe/Madrid' });
      // The same e-mail in the other organization is another user, whose choice is their own.
      expect(await read(bia)).toEqual({ language: 'pt', chosen: false, timeZone: 'America/Sao_Paulo' });

      expect((await consoleCall(svc, 'PUT', '/console/api/me/language', { cookie: ana, body: { language: null } })).json()).toEqual({
        language: 'es',
        chosen: false,
        timeZone: 'Europe/Madrid',
      });
    });

    it('a language the console does not speak is a 400 naming the field; without a session, 401; from another origin, refused', async () => {
      const cookie = await signedInUser(svc, svc.orgA, 'bad@acme.test', 'sender', nextAddress());
      const bad = await consoleCall(svc, 'PUT', '/console/api/me/language', { cookie, body: { language: 'de' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: '"language" must be one of [es, en, pt, fr, null]' });
      expect((await consoleCall(svc, 'PUT', '/console/api/me/language', { body: { language: 'en' } })).statusCode).toBe(401);
      const forged = await consoleCall(svc, 'PUT', '/console/api/me/language', {
        cookie,
        body: { language: 'en' },
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      });
      expect(forged.statusCode).toBe(403);
      expect((await consoleCall(svc, 'GET', '/console/api/me/language', { cookie })).json().language).toBe('es');
    });
  });

  describe("the console's sign-in e-mail is in the user's language, else the organization's", () => {
    it("a user who chose English gets English sign-in e-mails; the same e-mail's user in the Portuguese organization gets Portuguese", async () => {
      const email = 'choice@acme.test';
      const cookie = await signedInUser(svc, svc.orgA, email, 'sender', nextAddress());
      await signedInUser(svc, svc.orgB, email, 'sender', nextAddress());
      expect((await signInEmail(svc, svc.orgA, email)).subject).toBe(signInSubject('Acme', 'es'));
      await consoleCall(svc, 'PUT', '/console/api/me/language', { cookie, body: { language: 'en' } });

      await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email }, remoteAddress: nextAddress() });
      expect((await signInEmail(svc, svc.orgA, email)).subject).toBe(signInSubject('Acme', 'en'));
      expect((await signInEmail(svc, svc.orgB, email)).subject).toBe(signInSubject('Globex', 'pt'));
    });
  });
});
