import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rejectDocument, requestOtp, verifyOtp } from '../src/documents/participant/signer-flow.js';
import { finishVeriface, submitDocumentPhoto, submitFacePhoto } from '../src/veriface/person-flow.js';
import { verifaceBody } from './support/fixtures.js';
import { jpeg, matcher, png } from './support/images.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, endProcess, PDF_BASE64, pdfProcess, readAndSign, stored } from './support/signing.js';
import { type ReceivedWebhook, WebhookReceiver } from './support/webhook-receiver.js';

const DAY = 24 * 60 * 60 * 1000;
const HEADER = { key: 'Authorization', value: 'Bearer receiver-token' };

/**
 * REFERENCE §11: a webhook configured through PUT /company receives the real service's flat bodies,
 * with its static header and signed as Standard Webhooks; one made through /webhooks keeps the typed
 * bodies. Real receivers on loopback check every signature with the standardwebhooks package.
 */
describe.each(dialects)('the real service’s flat webhook bodies (%s)', (dialect) => {
  let svc: TestService;
  const flat = new WebhookReceiver();
  const typed = new WebhookReceiver();
  const otherOrg = new WebhookReceiver();

  beforeAll(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    const urls = { flat: await flat.start(), typed: await typed.start(), otherOrg: await otherOrg.start() };
    for (const receiver of [flat, typed, otherOrg]) receiver.now = () => svc.clock.now();
    const put = (org: TestOrganization, body: Record<string, unknown>) => call(svc.app, 'PUT', '/company', { key: org.privateKey, body });
    const rotate = async (org: TestOrganization, name: string) =>
      (await call(svc.app, 'POST', '/webhooks/rotate-secret', { key: org.privateKey, body: { name } })).json().secret;
    expect((await put(svc.orgA, { webhooks: [{ id: 'default', description: 'Principal', url: urls.flat, header: HEADER }] })).json()).toEqual({
      response: 'OK',
    });
    flat.secret = await rotate(svc.orgA, 'default');
    typed.secret = (await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'typed', url: urls.typed } })).json().secret;
    await put(svc.orgB, { webhooks: [{ id: 'default', url: urls.otherOrg }] });
    otherOrg.secret = await rotate(svc.orgB, 'default');
  });
  afterAll(async () => {
    await svc.close();
    for (const receiver of [flat, typed, otherOrg]) await receiver.close();
  });
  beforeEach(() => {
    for (const receiver of [flat, typed, otherOrg]) receiver.received.length = 0;
  });

  /** Delivers everything due, as the worker does after each commit. */
  const flush = async () => {
    while ((await svc.deps.worker.deliverDue()) > 0);
  };
  /**
   * The bodies a receiver got about one resource, in the order they were queued: deliveries run
   * side by side, so they may arrive in another order, and the webhook-id (the outbox row's
   * ObjectId) says which came first.
   */
  const bodiesOf = (receiver: WebhookReceiver, key: string, value: string) =>
    receiver.received
      .filter((h) => h.json[key] === value)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((h) => h.json);
  const expectSignedWithHeader = (hooks: ReceivedWebhook[]) => {
    expect(hooks.length).toBeGreaterThan(0);
    for (const hook of hooks) {
      expect(hook.verified, JSON.stringify(hook.json)).toBe(true);
      expect(hook.headers.authorization).toBe(HEADER.value);
      expect(hook.headers['content-type']).toBe('application/json');
    }
  };
  const upload = (body: Record<string, unknown> = {}) => createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, body));
  const signer = (p: { participant_id: string; name: string; email: string }) => ({ id: p.participant_id, name: p.name, email: p.email });
  /** A file URL of the service, signed for 5 minutes (the `url` tests below download them). */
  const url = expect.stringMatching(/^http:\/\/service\.test\/files\/\S+\.pdf\?expires=\d+&(name=\S+&)?signature=[0-9a-f]+$/);

  describe('document events: CREATE, NOTIFICATION (one participant finished) and FINISH', () => {
    it('each body is {code, name, status, signer?, tags?, custom?}, signed, with the static header', async () => {
      const code = await upload({ tags: ['rent'], custom: { crmId: 'deal-4711' } });
      const { participants } = await stored(svc, svc.orgA, code);
      for (const p of participants) await readAndSign(svc.deps, { token: p.link_token });
      await flush();
      const integrator = { tags: ['rent'], custom: { crmId: 'deal-4711' } };
      expect(bodiesOf(flat, 'code', code)).toEqual([
        { code, name: 'Lease', status: 'CREATE', url, ...integrator },
        { code, name: 'Lease', status: 'NOTIFICATION', signer: signer(participants[0]!), ...integrator },
        { code, name: 'Lease', status: 'NOTIFICATION', signer: signer(participants[1]!), ...integrator },
        { code, name: 'Lease', status: 'FINISH', url, ...integrator },
      ]);
      expectSignedWithHeader(flat.received);
    });
  });

  describe('a rejection is REJECT, then REJECTED with the participant and their message', () => {
    it('REJECT {code, name, status}; REJECTED {code, name, signer, status, message}', async () => {
      const code = await upload();
      const { participants } = await stored(svc, svc.orgA, code);
      await rejectDocument(svc.deps, { token: participants[0]!.link_token, reason: 'Not agreed' });
      await flush();
      expect(bodiesOf(flat, 'code', code)).toEqual([
        { code, name: 'Lease', status: 'CREATE', url },
        { code, name: 'Lease', status: 'REJECT' },
        { code, name: 'Lease', status: 'REJECTED', signer: signer(participants[0]!), message: 'Not agreed' },
      ]);
      expectSignedWithHeader(flat.received);
    });

    it('a cancellation is REJECTED with its reason and no participant', async () => {
      const code = await upload();
      await endProcess(svc, svc.orgA, code, 'CANCELLED');
      await flush();
      expect(bodiesOf(flat, 'code', code).slice(1)).toEqual([{ code, name: 'Lease', status: 'REJECTED', message: 'No longer needed' }]);
    });
  });

  describe('BLOCKED: a signer went over the identity-validation attempts; message is the reason', () => {
    it('three wrong codes: BLOCKED with OTP_CODE_INVALID and the signer', async () => {
      const code = await upload({ signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test', otpCode: true, options: { otpCode: 'email' } }] });
      const [ana] = (await stored(svc, svc.orgA, code)).participants;
      await requestOtp(svc.deps, { token: ana!.link_token });
      for (let i = 0; i < 3; i++) await verifyOtp(svc.deps, { token: ana!.link_token, code: 'wrong!' }).catch(() => undefined);
      await flush();
      expect(bodiesOf(flat, 'code', code)).toEqual([
        { code, name: 'Lease', status: 'CREATE', url },
        { code, name: 'Lease', status: 'BLOCKED', signer: signer(ana!), message: 'OTP_CODE_INVALID' },
      ]);
      expectSignedWithHeader(flat.received);
    });
  });

  describe('EXPIRED: the expiry date passed while in signature', () => {
    it('{code, name, status: EXPIRED, url}', async () => {
      const code = await upload({ expiredDate: new Date(svc.clock.now().getTime() + 4 * DAY) });
      await endProcess(svc, svc.orgA, code, 'EXPIRED');
      await flush();
      expect(bodiesOf(flat, 'code', code)).toEqual([
        { code, name: 'Lease', status: 'CREATE', url },
        { code, name: 'Lease', status: 'EXPIRED', url },
      ]);
      expectSignedWithHeader(flat.received);
    });
  });

  describe('package events name the package and list its documents', () => {
    it('CREATE with every document, NOTIFICATION without them, SIGNED_PACKAGE with each FINISH', async () => {
      const res = await call(svc.app, 'POST', '/document/many', {
        key: svc.orgA.privateKey,
        body: {
          email: svc.orgA.email,
          name: 'Pack',
          documents: [
            { name: 'One', file: PDF_BASE64, signProfile: [{ name: 'Ana', email: 'ana@people.test' }] },
            { name: 'Two', file: PDF_BASE64, signProfile: [{ name: 'Ana', email: 'ana@people.test' }] },
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const pack = res.json().package;
      // Each document is named by its own code too, as the real service's package bodies name them.
      const [one, two] = res.json().documents.map((d: { code: string }) => d.code);
      const [ana] = (await stored(svc, svc.orgA, pack)).participants;
      await readAndSign(svc.deps, { token: ana!.link_token });
      await flush();
      expect(bodiesOf(flat, 'package', pack)).toEqual([
        {
          package: pack,
          name: 'Pack',
          status: 'CREATE',
          documents: [
            { code: one, name: 'One', status: 'CREATE', url },
            { code: two, name: 'Two', status: 'CREATE', url },
          ],
        },
        { package: pack, name: 'Pack', status: 'NOTIFICATION', signer: signer(ana!) },
        {
          package: pack,
          name: 'Pack',
          status: 'SIGNED_PACKAGE',
          documents: [
            { code: one, name: 'One', status: 'FINISH', url },
            { code: two, name: 'Two', status: 'FINISH', url },
          ],
        },
      ]);
    });
  });

  describe('veriface events: APPROVED with similarity on 0..1, BLOCKED with the reason, then VALIDATED by a person', () => {
    const photographed = async (body: Record<string, unknown> = {}) => {
      const created = await call(svc.app, 'POST', '/veriface', { key: svc.orgA.privateKey, body: verifaceBody(svc.orgA.email, { platform: 'web', ...body }) });
      expect(created.statusCode, created.body).toBe(200);
      const { code } = created.json();
      const { link_token: token } = await svc.deps.db.selectFrom('veriface_processes').select('link_token').where('code', '=', code).executeTakeFirstOrThrow();
      await submitDocumentPhoto(svc.deps, { token, side: 'front', image: jpeg() });
      await submitFacePhoto(svc.deps, { token, image: png() });
      return { code, token };
    };

    it('APPROVED: {code, type, status, finish, data, similarity, tags, custom}', async () => {
      const { code, token } = await photographed({ tags: ['kyc'], custom: { reference: 'RF-1' } });
      await finishVeriface({ ...svc.deps, faceMatcher: matcher(92) }, { token });
      await flush();
      expect(bodiesOf(flat, 'code', code)).toEqual([
        {
          code,
          type: 'veriface',
          status: 'APPROVED',
          finish: true,
          data: { name: null, documentName: 'CC 1001001010' },
          similarity: 0.92,
          tags: ['kyc'],
          custom: { reference: 'RF-1' },
        },
      ]);
      expectSignedWithHeader(flat.received);
    });

    it('BLOCKED for manual review (finish false, message the reason), then VALIDATED', async () => {
      const { code, token } = await photographed();
      await finishVeriface({ ...svc.deps, faceMatcher: matcher(undefined) }, { token });
      const review = await call(svc.app, 'POST', '/veriface/review', {
        key: svc.orgA.privateKey,
        body: { code, decision: 'approve', email: svc.orgA.email },
      });
      expect(review.statusCode, review.body).toBe(200);
      await flush();
      const data = { name: null, documentName: 'CC 1001001010' };
      expect(bodiesOf(flat, 'code', code)).toEqual([
        { code, type: 'veriface', status: 'BLOCKED', finish: false, message: 'MANUAL_REVIEW_REQUIRED', data },
        { code, type: 'veriface', status: 'VALIDATED', finish: true, data },
      ]);
      expectSignedWithHeader(flat.received);
    });
  });

  describe('a webhook made through /webhooks keeps the typed bodies', () => {
    it('one process to both: the flat webhook gets CREATE flat, the typed one {type, timestamp, data}, each signed with its own secret', async () => {
      const code = await upload({ targetWebhooks: ['default', 'typed'] });
      await flush();
      expect(bodiesOf(flat, 'code', code)).toEqual([{ code, name: 'Lease', status: 'CREATE', url }]);
      expect(typed.received.map((h) => h.body)).toEqual([
        {
          type: 'document.created',
          timestamp: expect.stringMatching(/Z$/),
          data: { code, name: 'Lease', status: 'CREATE', by: svc.orgA.email, documents: 1, participants: 2, url },
        },
      ]);
      expect(typed.received[0]!.verified).toBe(true);
      expect(typed.received[0]!.headers.authorization).toBeUndefined();
    });
  });

  describe('the deliveries API shows the body as sent', () => {
    it('each delivery of the flat webhook: format flat, its body exactly what the receiver got, beside the event that caused it', async () => {
      const code = await upload();
      await flush();
      const [hook] = flat.received.filter((h) => h.json.code === code);
      const { data } = (await call(svc.app, 'GET', '/webhooks/deliveries', { key: svc.orgA.privateKey, query: { webhook: 'default', limit: '1' } })).json();
      expect(data[0]).toMatchObject({ message_id: hook!.id, format: 'flat', body: hook!.json, event: { type: 'document.created' } });
    });
  });

  describe('another organization never receives the first one’s events', () => {
    it("B's process reaches B's receiver only, and A's receivers get nothing of it", async () => {
      const code = await createProcess(svc, svc.orgB, '/document/upload', pdfProcess(svc.orgB));
      await flush();
      expect(bodiesOf(otherOrg, 'code', code)).toEqual([{ code, name: 'Lease', status: 'CREATE', url }]);
      expect(otherOrg.received.every((h) => h.verified)).toBe(true);
      expect([...flat.received, ...typed.received].filter((h) => JSON.stringify(h.json).includes(code))).toEqual([]);
    });
  });
});
