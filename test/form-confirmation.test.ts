import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueProcesses } from '../src/documents/lifecycle/process-sweeps.js';
import { ANSWERS, COMPLETE_HTML, sampleTemplate } from './support/fixtures.js';
import { addressesIn, sdkFormToken, startFormsService } from './support/forms.js';
import { call, dialects, type TestOrganization, type TestService } from './support/service.js';
import { outbox, stored, templateWithHtml } from './support/signing.js';

const HOUR = 60 * 60 * 1000;
const ORIGIN = 'https://shop.example';
/** The template's signers, as ANSWERS name them: the buyer fills the form (its first signer), the seller is the other. */
const FILLER = 'ana@buyer.test';
const OTHER = 'luis@seller.test';

describe.each(dialects)(
  "a public form's process sends nothing to anyone but its submitter until they confirm their own address with a code (%s)",
  (dialect) => {
    let svc: TestService;
    beforeAll(async () => {
      svc = await startFormsService(dialect, ORIGIN);
    });
    afterAll(async () => svc.close());

    const from = addressesIn('10.4');
    const post = (url: string, token: string, payload: object): Promise<LightMyRequestResponse> =>
      svc.app.inject({ method: 'POST', url, headers: { 'x-link-token': token }, payload, remoteAddress: from() });
    let keys = 0;
    const newKey = () => `confirmation-key-${++keys}-${Math.random().toString(36).slice(2)}`;
    const submit = (token: string, idempotencyKey: string) => post('/people/fill', token, { data: ANSWERS, idempotencyKey });
    const confirm = (token: string, idempotencyKey: string, code: unknown) => post('/people/fill/confirm', token, { idempotencyKey, code });

    async function referenceLink(org: TestOrganization, settings: Record<string, unknown> = {}): Promise<string> {
      const template = await templateWithHtml(svc, org);
      const res = await call(svc.app, 'POST', '/template/reference', { key: org.privateKey, body: { template, ...settings } });
      return String(res.json().url).split('/r/')[1] ?? '';
    }
    const sdkForm = (org: TestOrganization) => sdkFormToken(svc, org, { origin: ORIGIN, remoteAddress: from() });
    /** The e-mails queued after the first `since`, oldest first: every message these forms send goes by e-mail. */
    async function sentSince(since: number): Promise<{ to: unknown; template: unknown; text: string }[]> {
      return (await outbox(svc, 'email')).slice(since).map((row) => ({ to: row.body.to, template: row.body.template, text: String(row.body.text) }));
    }
    const lastSeq = async (): Promise<number> => (await outbox(svc, 'email')).length;
    const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';
    async function sentCode(since: number, to = FILLER): Promise<string> {
      return codeIn((await sentSince(since)).filter((m) => m.to === to && m.template === 'otp-code').at(-1)?.text ?? '');
    }

    describe('until the code is confirmed, the only message is the code, to the submitter; after it, the others get their invitations', () => {
      it("a reference link's process: nothing for the other signer before; their invitation after; the other organization's submission is untouched", async () => {
        const ours = await referenceLink(svc.orgA);
        const theirs = await referenceLink(svc.orgB);
        const since = await lastSeq();
        const key = newKey();
        const made = await submit(ours, key);
        expect(made.statusCode, made.body).toBe(200);
        const expiresAt = new Date(svc.clock.now().getTime() + HOUR).toISOString();
        expect(made.json()).toEqual({ code: expect.any(String), confirmation: { medium: 'email', to: FILLER, expiresAt } });
        const theirKey = newKey();
        expect((await submit(theirs, theirKey)).statusCode).toBe(200);
        const before = await sentSince(since);
        expect(before.map((m) => [m.to, m.template])).toEqual([
          [FILLER, 'otp-code'],
          [FILLER, 'otp-code'],
        ]);
        const { participants } = await stored(svc, svc.orgA, made.json().code);
        expect(participants.map((p) => p.status)).toEqual(['PENDING', 'PENDING']);
        expect((await submit(ours, key)).json()).toEqual(made.json());

        const code = codeIn(before[0]?.text ?? '');
        const theirCode = codeIn(before[1]?.text ?? '');
        // One organization's code and key do not confirm the other's submission.
        expect((await confirm(ours, theirKey, theirCode)).json()).toEqual({ message: 'FILL_SUBMISSION_NOT_FOUND' });
        const confirmed = await confirm(ours, key, code);
        expect(confirmed.statusCode, confirmed.body).toBe(200);
        expect(confirmed.json()).toEqual({ code: made.json().code });
        const after = (await sentSince(since)).slice(2);
        expect(after.map((m) => [m.to, m.template]).sort()).toEqual([
          [FILLER, 'signing-invitation'],
          [OTHER, 'signing-invitation'],
        ]);
        expect((await submit(ours, key)).json()).toEqual({ code: made.json().code });
        expect((await confirm(ours, key, code)).json()).toEqual({ code: made.json().code });
        const { participants: theirParticipants } = await stored(svc, svc.orgB, (await submit(theirs, theirKey)).json().code);
        expect(theirParticipants.map((p) => p.status)).toEqual(['PENDING', 'PENDING']);
      });

      it('with sign now and a code to the signer: the others are not invited before the confirmation, and the signing page is answered only after it', async () => {
        const token = await referenceLink(svc.orgA, { signNow: true, otpCode: true, options: { otpCode: 'email' } });
        const since = await lastSeq();
        const key = newKey();
        const made = await submit(token, key);
        expect(made.json()).not.toHaveProperty('signingUrl');
        expect((await sentSince(since)).map((m) => m.to)).toEqual([FILLER]);
        const confirmed = await confirm(token, key, await sentCode(since));
        const { participants } = await stored(svc, svc.orgA, made.json().code);
        const filler = participants.find((p) => p.email === FILLER);
        expect(confirmed.json()).toEqual({ code: made.json().code, signingUrl: `http://service.test/s/${filler?.link_token}` });
        expect((await sentSince(since)).slice(1).map((m) => [m.to, m.template])).toEqual([[OTHER, 'signing-invitation']]);
      });

      it('a code asked by phone goes to the phone the submitter typed, by SMS, and is the only message until it is typed back', async () => {
        // A code by phone is asked of every signer, so the seller is given a phone too (the same one).
        const signatureProfile = [
          { type: 'buyer', name: 'buyer_name', email: 'buyer_email', phone: 'buyer_phone' },
          { type: 'seller', name: 'seller_name', email: 'seller_email', phone: 'buyer_phone' },
        ];
        const template = await templateWithHtml(svc, svc.orgA, COMPLETE_HTML, sampleTemplate({ signatureProfile }));
        const body = { template, otpCode: true, options: { otpCode: 'phone' } };
        const token = String((await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body })).json().url).split('/r/')[1] ?? '';
        const since = await lastSeq();
        const texts = (await outbox(svc, 'sms')).length;
        const key = newKey();
        const made = await submit(token, key);
        expect(made.json()).toMatchObject({ confirmation: { medium: 'phone', to: '+573001234567' } });
        const sms = (await outbox(svc, 'sms')).slice(texts);
        expect(sms.map((row) => row.body.to)).toEqual(['+573001234567']);
        expect(await sentSince(since)).toEqual([]);
        expect((await confirm(token, key, codeIn(String(sms[0]?.body.text)))).json()).toEqual({ code: made.json().code });
        expect((await sentSince(since)).map((m) => m.to).sort()).toEqual([FILLER, OTHER]);
      });

      it("the SDK's fill flow holds its process the same way", async () => {
        const token = await sdkForm(svc.orgA);
        const since = await lastSeq();
        const key = newKey();
        const made = await submit(token, key);
        expect(made.json()).toMatchObject({ confirmation: { medium: 'email', to: FILLER } });
        expect((await sentSince(since)).map((m) => m.to)).toEqual([FILLER]);
        expect((await confirm(token, key, await sentCode(since))).json()).toEqual({ code: made.json().code });
        expect(
          (await sentSince(since))
            .slice(1)
            .map((m) => m.to)
            .sort(),
        ).toEqual([FILLER, OTHER]);
      });
    });

    describe('wrong codes are limited: the third ends the submission for good, and nothing is ever sent to the others', () => {
      it('two wrong codes say so, the third ends it, and the right code is refused after; the other organization is not affected', async () => {
        const token = await referenceLink(svc.orgA);
        const theirs = await referenceLink(svc.orgB);
        const since = await lastSeq();
        const key = newKey();
        await submit(token, key);
        const theirKey = newKey();
        await submit(theirs, theirKey);
        const code = await sentCode(since);
        const wrong = code === '000000' ? '111111' : '000000';
        expect((await confirm(token, key, wrong)).json()).toEqual({ message: 'OTP_CODE_INVALID: 2 attempts left' });
        expect((await confirm(token, key, wrong)).json()).toEqual({ message: 'OTP_CODE_INVALID: 1 attempts left' });
        const ended = await confirm(token, key, wrong);
        expect([ended.statusCode, ended.json()]).toEqual([410, { message: 'FILL_CONFIRMATION_EXPIRED' }]);
        expect((await confirm(token, key, code)).json()).toEqual({ message: 'FILL_CONFIRMATION_EXPIRED' });
        const theirCode = (await sentSince(since)).filter((m) => m.template === 'otp-code').map((m) => codeIn(m.text))[1] ?? '';
        expect((await confirm(theirs, theirKey, theirCode)).statusCode).toBe(200);
        const toOurOther = (await sentSince(since)).filter((m) => m.template === 'signing-invitation').length;
        expect(toOurOther).toBe(2);
      });
    });

    describe('a submitter whose code did not arrive asks for a new one: the one before stops working, three at most, 30 seconds apart', () => {
      it('a new code goes to the same address only, the old one is refused, the new one confirms; too soon and a fourth are refused; the other organization cannot ask for ours', async () => {
        const resend = (token: string, idempotencyKey: string) => post('/people/fill/resend', token, { idempotencyKey });
        const token = await referenceLink(svc.orgA);
        const theirs = await referenceLink(svc.orgB);
        const since = await lastSeq();
        const key = newKey();
        const made = await submit(token, key);
        const first = await sentCode(since);
        const tooSoon = await resend(token, key);
        expect([tooSoon.statusCode, tooSoon.json()]).toEqual([400, { message: 'OTP_TOO_SOON' }]);
        expect((await resend(theirs, key)).json()).toEqual({ message: 'FILL_SUBMISSION_NOT_FOUND' });

        const codes = [first];
        for (let i = 0; i < 3; i++) {
          svc.clock.advance(31_000);
          const again = await resend(token, key);
          expect(again.statusCode, again.body).toBe(200);
          expect(again.json()).toEqual(made.json());
          codes.push(await sentCode(since));
        }
        svc.clock.advance(31_000);
        const fourth = await resend(token, key);
        expect([fourth.statusCode, fourth.json()]).toEqual([429, { message: 'FILL_CODE_RESENDS_USED_UP' }]);
        expect((await sentSince(since)).map((m) => [m.to, m.template])).toEqual(Array.from({ length: 4 }, () => [FILLER, 'otp-code']));

        const latest = codes.at(-1) ?? '';
        const stale = codes.find((code) => code !== latest) ?? '';
        expect((await confirm(token, key, stale)).json()).toEqual({ message: 'OTP_CODE_INVALID: 2 attempts left' });
        expect((await confirm(token, key, latest)).json()).toEqual({ code: made.json().code });
        expect((await sentSince(since)).filter((m) => m.to === OTHER && m.template === 'signing-invitation')).toHaveLength(1);
        const done = await resend(token, key);
        expect([done.statusCode, done.json()]).toEqual([200, { code: made.json().code }]);
        expect((await sentSince(since)).filter((m) => m.template === 'otp-code')).toHaveLength(4);
      });
    });

    describe('an unconfirmed process expires after an hour, having sent nothing to anyone else', () => {
      it('an hour on, the code is refused and the expiry sweep ends the process; no invitation ever left', async () => {
        const token = await referenceLink(svc.orgA);
        const since = await lastSeq();
        const key = newKey();
        const made = await submit(token, key);
        const code = await sentCode(since);
        svc.clock.advance(HOUR + 1000);
        expect((await confirm(token, key, code)).json()).toEqual({ message: 'FILL_CONFIRMATION_EXPIRED' });
        await expireDueProcesses(svc.deps);
        expect((await stored(svc, svc.orgA, made.json().code)).process.status).toBe('EXPIRED');
        expect((await sentSince(since)).map((m) => [m.to, m.template])).toEqual([[FILLER, 'otp-code']]);
      });
    });

    describe('bad input to the confirmation gets 400 {message}', () => {
      it('a missing or malformed code or key is refused by its field; an unknown key is 404', async () => {
        const token = await referenceLink(svc.orgA);
        const key = newKey();
        await submit(token, key);
        for (const [body, message] of [
          [{ idempotencyKey: key }, '"code" is required'],
          [{ idempotencyKey: key, code: '12ab56' }, '"code" must be the 6 digits of the code'],
          [{ idempotencyKey: key, code: 123456 }, '"code" must be a string'],
          [{ code: '123456' }, '"idempotencyKey" is required'],
          [{ idempotencyKey: 'short', code: '123456' }, expect.stringMatching(/^"idempotencyKey" with value "short" fails to match/)],
        ] as const) {
          const res = await post('/people/fill/confirm', token, body);
          expect([res.statusCode, res.json()]).toEqual([400, { message }]);
        }
        const unknown = await confirm(token, newKey(), '123456');
        expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: 'FILL_SUBMISSION_NOT_FOUND' }]);
      });
    });
  },
);
