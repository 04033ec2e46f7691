import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWERS, sampleTemplate } from './support/fixtures.js';
import { addressesIn, sdkFormToken, startFormsService } from './support/forms.js';
import { call, dialects, type TestOrganization, type TestService } from './support/service.js';
import { templateWithHtml } from './support/signing.js';

const HOUR = 60 * 60 * 1000;
const ORIGIN = 'https://shop.example';

describe.each(dialects)("an organization's public forms make at most formProcessesPerHour processes an hour (%s)", (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startFormsService(dialect, ORIGIN);
  });
  afterAll(async () => svc.close());

  const from = addressesIn('10.3');
  const submit = (token: string, idempotencyKey = `key-${Math.random().toString(36).slice(2)}-submission`, data = ANSWERS): Promise<LightMyRequestResponse> =>
    svc.app.inject({
      method: 'POST',
      url: '/people/fill',
      headers: { 'x-link-token': token },
      payload: { data, idempotencyKey },
      remoteAddress: from(),
    });
  async function referenceLink(org: TestOrganization): Promise<string> {
    const template = await templateWithHtml(svc, org);
    const res = await call(svc.app, 'POST', '/template/reference', { key: org.privateKey, body: { template } });
    return String(res.json().url).split('/r/')[1] ?? '';
  }
  const sdkForm = (org: TestOrganization) => sdkFormToken(svc, org, { origin: ORIGIN, remoteAddress: from() });
  const setCap = (org: TestOrganization, formProcessesPerHour: number) =>
    call(svc.app, 'PUT', '/organization', { key: org.privateKey, body: { formProcessesPerHour } });
  const processCount = async (org: TestOrganization) =>
    Number(
      (
        await svc.deps.db
          .selectFrom('processes')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('organization_id', '=', org.id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('the setting: 30 at first, changed with PUT /organization by the private key only', () => {
    it('GET /organization shows 30; PUT changes it for the caller only; a negative or fractional value is refused', async () => {
      expect((await call(svc.app, 'GET', '/organization', { key: svc.orgB.privateKey })).json()).toMatchObject({ formProcessesPerHour: 30 });
      expect((await setCap(svc.orgB, 40)).json()).toMatchObject({ formProcessesPerHour: 40 });
      expect((await call(svc.app, 'GET', '/organization', { key: svc.orgA.privateKey })).json()).toMatchObject({ formProcessesPerHour: 30 });
      expect((await setCap(svc.orgB, -1)).json()).toEqual({ message: '"formProcessesPerHour" must be greater than or equal to 0' });
      expect((await setCap(svc.orgB, 1.5)).json()).toEqual({ message: '"formProcessesPerHour" must be an integer' });
      const withPublicKey = await call(svc.app, 'PUT', '/organization', { key: svc.orgB.publicKey, body: { formProcessesPerHour: 100_000 } });
      expect(withPublicKey.statusCode).toBe(401);
      await setCap(svc.orgB, 100);
    });
  });

  describe('reference links and the SDK fill flow count together; past the cap a submission is refused with 429 and Retry-After, and nothing is made', () => {
    it("the organization's third process of the hour is refused; another organization's forms go on; an hour later the form takes answers again", async () => {
      await setCap(svc.orgA, 2);
      const link = await referenceLink(svc.orgA);
      const first = await submit(link);
      expect(first.statusCode, first.body).toBe(200);
      const fromSdk = await submit(await sdkForm(svc.orgA));
      expect(fromSdk.statusCode, fromSdk.body).toBe(200);
      const before = await processCount(svc.orgA);

      const third = await submit(link);
      expect([third.statusCode, third.json().message]).toEqual([429, expect.stringMatching(/^FORM_PROCESSES_PER_HOUR_EXCEEDED: /)]);
      const retryAfter = Number(third.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(HOUR / 1000 - 120);
      expect(retryAfter).toBeLessThanOrEqual(HOUR / 1000);
      const sdkThird = await submit(await sdkForm(svc.orgA));
      expect(sdkThird.json().message).toMatch(/^FORM_PROCESSES_PER_HOUR_EXCEEDED: /);
      expect(await processCount(svc.orgA)).toBe(before);

      const theirs = await submit(await referenceLink(svc.orgB));
      expect(theirs.statusCode, theirs.body).toBe(200);

      svc.clock.advance(HOUR + 1000);
      const later = await submit(link);
      expect(later.statusCode, later.body).toBe(200);
      await setCap(svc.orgA, 100);
    });

    it('a retried submission answers the process it made, even past the cap', async () => {
      await setCap(svc.orgA, 1);
      svc.clock.advance(HOUR + 1000);
      const link = await referenceLink(svc.orgA);
      const made = await submit(link, 'retried-submission-0001');
      expect(made.statusCode, made.body).toBe(200);
      expect((await submit(link, 'retried-submission-0001')).json()).toEqual(made.json());
      expect((await submit(link, 'another-submission-0002')).statusCode).toBe(429);
      await setCap(svc.orgA, 100);
    });

    it('a cap of 0 closes the forms; a prebuilt process, made by the integrator, is still completed', async () => {
      await setCap(svc.orgA, 0);
      const refused = await submit(await referenceLink(svc.orgA));
      expect([refused.statusCode, refused.json().message]).toEqual([429, expect.stringMatching(/^FORM_PROCESSES_PER_HOUR_EXCEEDED: /)]);
      expect(Number(refused.headers['retry-after'])).toBe(HOUR / 1000);
      const template = await templateWithHtml(svc, svc.orgA, undefined, sampleTemplate({ preBuild: true, preBuildData: ['seller_name', 'buyer_email'] }));
      const seller = { key: 'seller_name', value: 'Luis Pérez' };
      const prebuilt = await call(svc.app, 'POST', '/document/prebuild', {
        key: svc.orgA.privateKey,
        body: { email: svc.orgA.email, name: 'Prebuilt', document: template, preBuild: [seller], sign: true, notification: false, emailTo: 'ana@buyer.test' },
      });
      expect(prebuilt.statusCode, prebuilt.body).toBe(200);
      const rest = ANSWERS.filter((answer) => answer.key !== seller.key);
      const completed = await submit(String(prebuilt.json().url).split('/f/')[1] ?? '', 'prebuilt-completion-0001', rest);
      expect(completed.statusCode, completed.body).toBe(200);
      await setCap(svc.orgA, 100);
    });
  });

  describe("the organization's cap holds for submissions that arrive together: exactly the cap is made, the rest are refused with 429", () => {
    it("cap + 10 simultaneous submissions make exactly cap processes; the other organization's link, submitted at the same moment, is not counted with them", async () => {
      const cap = 6;
      svc.clock.advance(HOUR + 1000);
      await setCap(svc.orgA, cap);
      await setCap(svc.orgB, cap);
      const links = [await referenceLink(svc.orgA), await referenceLink(svc.orgA)];
      const sdk = await Promise.all([sdkForm(svc.orgA), sdkForm(svc.orgA), sdkForm(svc.orgA)]);
      const theirs = await referenceLink(svc.orgB);
      const before = { a: await processCount(svc.orgA), b: await processCount(svc.orgB) };
      const ours = [...Array.from({ length: cap + 7 }, (_, i) => submit(links[i % 2] ?? '')), ...sdk.map((token) => submit(token))];
      const others = Array.from({ length: 3 }, () => submit(theirs));
      const answers = await Promise.all(ours);
      const accepted = answers.filter((res) => res.statusCode === 200);
      const refused = answers.filter((res) => res.statusCode !== 200);
      expect(accepted).toHaveLength(cap);
      expect(refused.map((res) => [res.statusCode, res.json().message.split(':')[0]])).toEqual(
        Array.from({ length: 10 }, () => [429, 'FORM_PROCESSES_PER_HOUR_EXCEEDED']),
      );
      expect(refused.every((res) => Number(res.headers['retry-after']) > 0)).toBe(true);
      expect(await processCount(svc.orgA)).toBe(before.a + cap);
      expect((await Promise.all(others)).map((res) => res.statusCode)).toEqual([200, 200, 200]);
      expect(await processCount(svc.orgB)).toBe(before.b + 3);
      await setCap(svc.orgA, 100);
      await setCap(svc.orgB, 100);
    });
  });
});
