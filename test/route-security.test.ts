import crypto from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { refusalOf } from '../src/auth/console-refusals.js';
import type { UserRole } from '../src/db/schema.js';
import { giveAttachment } from '../src/documents/attachments/give-attachment.js';
import { rejectDocument, requestOtp, verifyOtp } from '../src/documents/participant/signer-flow.js';
import { listReaders } from '../src/documents/readers/queries.js';
import { codeOf } from '../src/error-catalogue.js';
import type { ApiRoute } from '../src/http/route.js';
import { CONSOLE_ACCESS } from '../src/http/route-kinds.js';
import { exampleOf } from '../src/http/schema-example.js';
import { addUser, createApiKey } from '../src/organizations/organizations.js';
import { updateSettings } from '../src/organizations/settings.js';
import { may, type Permission, USER_ROLES } from '../src/organizations/user-roles.js';
import { routeTable } from '../src/routes.js';
import { findVerifaceByCode } from '../src/veriface/queries.js';
import { CONSOLE_ORIGIN, consoleCall, sessionCookieOf, signedInUser, signInEmail } from './support/console.js';
import { numberedCard } from './support/document-photos.js';
import { ANSWERS, sampleTemplate, verifaceBody } from './support/fixtures.js';
import { jpeg, matcher, png } from './support/images.js';
import { keysOf } from './support/json-keys.js';
import { metaSignature } from './support/meta-webhooks.js';
import { softPasskey } from './support/passkey-authenticator.js';
import { photographedProcess, photographedVeriface } from './support/photos.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { openEveryDocument, outbox, PDF_BYTES, pdfProcess, stored, templateWithHtml } from './support/signing.js';
import { runOutbox } from './support/whatsapp-service.js';

/**
 * The route security suite: driven by the route table itself (src/routes.ts), so a route added to
 * the service is covered here without anyone remembering. Each route needs one valid request below
 * (SAMPLES), and the first test fails until it has one.
 */

/** What an organization owns, by kind: the identifiers another organization must not reach. */
interface Owned {
  template: string;
  reference: string;
  pdfTemplate: string;
  webhook: string;
  veriface: string;
  process: string;
  delivery: string;
  /** The secret tokens of a participant's link and a face validation's link. */
  signingLink: string;
  validationLink: string;
  /** The secret token of a reference link (/r/<token>). */
  referenceLink: string;
  /** The secret token of a reader's read-only page (/read/<token>), of the process with identity photos. */
  readingLink: string;
  /** A template that takes prebuilt processes, one waiting under its code, and the secret token of its form (/f/<token>). */
  prebuiltTemplate: string;
  prebuilt: string;
  prebuiltLink: string;
  /** A participant's id (the `userId` of the WhatsApp records). */
  participant: string;
  /** A number the organization's WhatsApp flow writes to (digits, as Meta writes them): the local chat's conversation. */
  phone: string;
  /** An API key's id, made for the console's revoke to take (never the keys the suite calls with). */
  apiKey: string;
}

interface Sample {
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The client's address, when it matters: the operator's routes take no key from the service's own machine. */
  remoteAddress?: string;
}

/** Not the service's machine: the operator's routes take a key from here. */
const ELSEWHERE = '203.0.113.24';

const WHATSAPP_VERIFY_TOKEN = 'route-security-verify-token';
const HOUR = 60 * 60 * 1000;
/** The tests that walk every route of the table: their time grows with it, past vitest's default on a loaded machine. */
const ROUTE_TABLE_TIMEOUT_MS = 180_000;

const hex24 = () => crypto.randomBytes(12).toString('hex');
const newNumber = () => `57300${String(crypto.randomInt(1_000_000, 9_999_999))}`;
const upper = (length: number) => Array.from(crypto.randomBytes(length), (byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[byte % 36]).join('');

/** Identifiers of the same shapes that nobody owns. */
function unknownOwned(): Owned {
  return {
    template: hex24(),
    reference: hex24(),
    pdfTemplate: hex24(),
    webhook: `unknown-${upper(6).toLowerCase()}`,
    veriface: upper(16),
    process: upper(10),
    delivery: hex24(),
    signingLink: crypto.randomBytes(24).toString('base64url'),
    validationLink: crypto.randomBytes(24).toString('base64url'),
    referenceLink: crypto.randomBytes(24).toString('base64url'),
    readingLink: crypto.randomBytes(24).toString('base64url'),
    prebuiltTemplate: hex24(),
    prebuilt: upper(10),
    prebuiltLink: crypto.randomBytes(30).toString('base64url'),
    participant: upper(16),
    phone: newNumber(),
    apiKey: hex24(),
  };
}

const pdfTemplateBody = () => ({ name: 'Lease', file: PDF_BYTES.toString('base64'), positions: { tenant: [{ page: 1, x: 0.5, y: 0.5, w: 100, h: 40 }] } });

/** One valid request per route, built from the identifiers it should act on. */
/** Bytes a JPEG starts with, then random ones: the same in every sample, so samples compare equal. */
const SAMPLE_JPEG = jpeg().toString('base64');

/** How many console sign-ins the success calls made, each from an address of its own (198.18.0.0/15, the benchmarking range). */
let consoleAddresses = 0;

/** Each organization's console sessions (cookie pairs), one per role, signed in before the suite runs. */
const consoleSessions = new Map<string, Record<UserRole, string>>();

/** A console request as the console's page makes it: the organization's admin's session, from the service's own origin. */
function consoleHeaders(org: TestOrganization, role: UserRole = 'admin'): Record<string, string> {
  return { cookie: consoleSessions.get(org.id)?.[role] ?? '', origin: CONSOLE_ORIGIN, 'sec-fetch-site': 'same-origin' };
}

const SAMPLES: Record<string, (owned: Owned, org: TestOrganization) => Sample> = {
  'POST /v1.5/ext/template': () => ({ body: sampleTemplate() }),
  'GET /v1.5/ext/template': (o) => ({ query: { id: o.template } }),
  'PUT /v1.5/ext/template': (o) => ({ body: { id: o.template, name: 'Renamed' } }),
  'DELETE /v1.5/ext/template': (o) => ({ query: { id: o.template } }),
  'POST /v1.5/ext/template/reference': (o) => ({ body: { template: o.template, name: 'Website' } }),
  'GET /v1.5/ext/template/reference': (o) => ({ query: { template: o.template } }),
  'DELETE /v1.5/ext/template/reference': (o) => ({ query: { id: o.reference } }),
  'PUT /v1.5/ext/template/reference': (o) => ({ body: { id: o.reference, enabled: true } }),
  'GET /v1.5/ext/template/reference/uses': (o) => ({ query: { id: o.reference } }),
  'POST /v1.5/ext/template/pdf': () => ({ body: pdfTemplateBody() }),
  'GET /v1.5/ext/template/pdf': (o) => ({ query: { id: o.pdfTemplate } }),
  'DELETE /v1.5/ext/template/pdf': (o) => ({ query: { id: o.pdfTemplate } }),
  'POST /v1.5/ext/webhooks': (_o) => ({ body: { name: 'fresh', url: 'https://hooks.example.test/fresh' } }),
  'GET /v1.5/ext/webhooks': () => ({}),
  'PUT /v1.5/ext/webhooks': (o) => ({ body: { name: o.webhook, enabled: false } }),
  'POST /v1.5/ext/webhooks/rotate-secret': (o) => ({ body: { name: o.webhook } }),
  'DELETE /v1.5/ext/webhooks': (o) => ({ query: { name: o.webhook } }),
  'POST /v1.5/ext/webhooks/test': (o) => ({ body: { name: o.webhook } }),
  'GET /v1.5/ext/webhooks/deliveries': (o) => ({ query: { id: o.delivery } }),
  'POST /v1.5/ext/webhooks/deliveries/resend': (o) => ({ body: { id: o.delivery } }),
  'POST /v1.5/ext/veriface': (o, org) => ({ body: verifaceBody(org.email, { targetWebhooks: [o.webhook] }) }),
  'GET /v1.5/ext/veriface': (o) => ({ query: { code: o.veriface } }),
  'POST /v1.5/ext/veriface/review': (o, org) => ({ body: { code: o.veriface, decision: 'approve', email: org.email } }),
  'GET /v1.5/ext/veriface/documents': () => ({ query: { country: 'CO' } }),
  'POST /v1.5/ext/veriface/validate': () => ({
    body: { country: 'CO', type: 'CC', identification: '1001001010', documentImage: SAMPLE_JPEG, photo: SAMPLE_JPEG },
  }),
  'POST /v1.5/ext/veriface/check': () => ({ body: { country: 'CO', type: 'CC', identification: '1001001010', image: SAMPLE_JPEG } }),
  'POST /v1.5/ext/document/save': (o, org) => ({ body: { document: o.template, data: ANSWERS, email: org.email, name: 'Sale' } }),
  'POST /v1.5/ext/document/upload': (o, org) => ({ body: pdfProcess(org, { targetWebhooks: [o.webhook] }) }),
  'POST /v1.5/ext/document/many': (o, org) => ({
    body: {
      email: org.email,
      name: 'Pack',
      documents: [
        { document: o.template, data: ANSWERS },
        { document: o.template, data: ANSWERS },
      ],
    },
  }),
  'GET /v1.5/ext/document': (o) => ({ query: { code: o.process } }),
  'GET /v1.5/ext/document/roadmap': (o) => ({ query: { code: o.process } }),
  'GET /v1.5/ext/attachments': (o) => ({ query: { code: o.process } }),
  'PUT /v1.5/ext/attachments': (o) => ({ body: { code: o.process, userId: o.participant, approve: true } }),
  'POST /v1.5/ext/package/upload': (o, org) => ({
    body: {
      email: org.email,
      packageName: 'Onboarding',
      targetWebhooks: [o.webhook],
      signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test', type: 'employee', files: [{ name: 'ID' }] }],
    },
  }),
  'POST /v1.5/ext/document/unlock': (o, org) => ({ body: { code: `${o.process}AB`, email: org.email, status: 'reset' } }),
  'POST /v1.5/ext/document/cancel': (o, org) => ({ body: { email: org.email, documents: [o.process], message: 'Stopped' } }),
  'POST /v1.5/ext/document/reminder': (o) => ({ body: { code: `${o.process}${o.participant}` } }),
  'POST /v1.5/ext/document/many/reminder': (o) => ({ body: { package: `${o.process}${o.participant}` } }),
  'PUT /v1.5/ext/document/reactivate': (o, org) => ({ body: { code: o.process, email: org.email } }),
  'POST /v1.5/ext/document/edit': (o) => ({ body: { code: o.process } }),
  'GET /v1.5/ext/document/edit': (o) => ({ query: { code: o.process } }),
  'POST /v1.5/ext/package/edit': (o) => ({ body: { package: o.process } }),
  'GET /v1.5/ext/package/edit': (o) => ({ query: { package: o.process } }),
  'PUT /files/*': () => ({}),
  'GET /files/*': () => ({}),
  'GET /photos/*': () => ({}),
  'DELETE /v1.5/ext/document/photos': (o) => ({ query: { code: o.process } }),
  'DELETE /v1.5/ext/veriface/photos': (o) => ({ query: { code: o.veriface } }),
  'GET /health': () => ({}),
  'GET /v1.5/ext/organization': () => ({}),
  'PUT /v1.5/ext/organization': () => ({ body: { language: 'en' } }),
  'GET /v1.5/ext/company': () => ({}),
  'PUT /v1.5/ext/company': (o) => ({
    body: {
      uxOptions: { primaryColor: '#021C30' },
      webhooks: [
        { id: 'default', url: 'https://hooks.example.test/default' },
        { id: o.webhook, url: 'https://hooks.example.test/own', header: { key: 'Authorization', value: 'Bearer route-security' } },
      ],
    },
  }),
  'GET /people/signing': (o) => ({ headers: { 'x-link-token': o.signingLink } }),
  'GET /people/reading': (o) => ({ headers: { 'x-link-token': o.readingLink } }),
  'GET /read/:token': () => ({}),
  'POST /people/signing/otp': (o) => ({ headers: { 'x-link-token': o.signingLink } }),
  'POST /people/signing/otp/check': (o) => ({ headers: { 'x-link-token': o.signingLink }, body: { code: '123456' } }),
  'POST /people/signing/photo': (o) => ({ headers: { 'x-link-token': o.signingLink }, body: { kind: 'face', image: jpeg().toString('base64') } }),
  'POST /people/signing/opened': (o) => ({ headers: { 'x-link-token': o.signingLink }, body: { document: 0 } }),
  'POST /people/signing/sign': (o) => ({ headers: { 'x-link-token': o.signingLink }, body: { consent: true } }),
  'POST /people/signing/approve': (o) => ({ headers: { 'x-link-token': o.signingLink }, body: { consent: true } }),
  'POST /people/signing/reject': (o) => ({ headers: { 'x-link-token': o.signingLink }, body: { reason: 'Wrong rent' } }),
  'POST /people/signing/attachment': (o) => ({ headers: { 'x-link-token': o.signingLink }, body: { attachment: 0, file: PDF_BYTES.toString('base64') } }),
  'POST /people/signing/delegate': (o) => ({
    headers: { 'x-link-token': o.signingLink },
    body: { name: 'María Gómez', email: 'maria@people.test', reason: 'Travelling' },
  }),
  'POST /people/signing/copy': (o) => ({ headers: { 'x-link-token': o.signingLink } }),
  'POST /people/signing/send-link': (o) => ({ headers: { 'x-link-token': o.signingLink }, body: { channel: 'sms' } }),
  'GET /people/signing/qr': (o) => ({ headers: { 'x-link-token': o.signingLink } }),
  'GET /people/validation': (o) => ({ headers: { 'x-link-token': o.validationLink } }),
  'GET /people/fill': (o) => ({ headers: { 'x-link-token': o.referenceLink } }),
  'GET /people/fill/preview': (o) => ({ headers: { 'x-link-token': o.referenceLink } }),
  'POST /people/fill/check': (o) => ({ headers: { 'x-link-token': o.referenceLink }, body: { data: ANSWERS } }),
  'POST /people/fill': (o) => ({ headers: { 'x-link-token': o.referenceLink }, body: { data: ANSWERS, idempotencyKey: 'sample-submission-0000' } }),
  'POST /people/fill/confirm': (o) => ({ headers: { 'x-link-token': o.referenceLink }, body: { idempotencyKey: 'sample-submission-0000', code: '123456' } }),
  'POST /people/fill/resend': (o) => ({ headers: { 'x-link-token': o.referenceLink }, body: { idempotencyKey: 'sample-submission-0000' } }),
  'GET /r/:token': () => ({}),
  'GET /f/:token': () => ({}),
  'GET /e/:token': () => ({}),
  'POST /v1.5/ext/document/prebuild': (o, org) => ({
    body: { document: o.prebuiltTemplate, email: org.email, name: 'Sale', preBuild: [{ key: 'price', value: '1' }], emailTo: 'ana@buyer.test' },
  }),
  'GET /people/validation/qr': (o) => ({ headers: { 'x-link-token': o.validationLink } }),
  'POST /people/validation/photo': (o) => ({
    headers: { 'x-link-token': o.validationLink },
    body: { kind: 'documentFront', image: jpeg().toString('base64') },
  }),
  'POST /people/validation/finish': (o) => ({ headers: { 'x-link-token': o.validationLink } }),
  'POST /people/validation/send-link': (o) => ({ headers: { 'x-link-token': o.validationLink }, body: { channel: 'whatsapp' } }),
  'POST /v1.5/ext/sdk/token': (o) => ({ body: { document: o.veriface, origin: 'https://app.example.com' } }),
  'POST /people/embed': (o, org) => ({ body: { keyPublic: org.publicKey, document: o.veriface, parentOrigin: 'https://app.example.com' } }),
  'GET /s/:token': () => ({}),
  'GET /v/:token': () => ({}),
  'GET /': () => ({ query: { id: '2026-11-24T10-00-00.000Z' } }),
  'GET /assets/:file': () => ({}),
  'GET /verify': (o) => ({ query: { code: o.process } }),
  'POST /verify': () => ({}),
  'GET /whatsapp/webhook': () => ({ query: { 'hub.mode': 'subscribe', 'hub.verify_token': WHATSAPP_VERIFY_TOKEN, 'hub.challenge': '1158201444' } }),
  'POST /whatsapp/webhook': () => ({}),
  'GET /v1.5/ext/whatsapp/records': (o) => ({ query: { userId: o.participant } }),
  'GET /whatsapp/local': () => ({}),
  'GET /whatsapp/local/conversations': () => ({}),
  'GET /whatsapp/local/messages': (o) => ({ query: { phone: o.phone } }),
  'POST /whatsapp/local/messages': (o) => ({ body: { phone: o.phone, text: 'hola' } }),
  'GET /whatsapp/local/document': (o) => ({ query: { phone: o.phone, id: 'whatsapp/20261126T101500123Z-000042-9f8e7d6c' } }),
  'GET /console': () => ({}),
  'POST /console/api/sign-in': (_o, org) => ({ headers: { origin: CONSOLE_ORIGIN }, body: { email: org.email } }),
  'POST /console/api/sign-in/link': () => ({ headers: { origin: CONSOLE_ORIGIN }, body: { token: crypto.randomBytes(32).toString('base64url') } }),
  'POST /console/api/sign-in/code': (_o, org) => ({ headers: { origin: CONSOLE_ORIGIN }, body: { email: org.email, code: '000000' } }),
  'POST /console/api/sign-out': (_o, org) => ({ headers: consoleHeaders(org) }),
  'GET /console/api/me': (_o, org) => ({ headers: consoleHeaders(org) }),
  'GET /console/api/me/language': (_o, org) => ({ headers: consoleHeaders(org) }),
  'PUT /console/api/me/language': (_o, org) => ({ headers: consoleHeaders(org), body: { language: 'en' } }),
  'GET /console/api/processes': (o, org) => ({ headers: consoleHeaders(org), query: { q: o.process } }),
  'GET /console/api/process': (o, org) => ({ headers: consoleHeaders(org), query: { code: o.process } }),
  'GET /console/api/templates': (_o, org) => ({ headers: consoleHeaders(org) }),
  'GET /console/api/audit': (_o, org) => ({ headers: consoleHeaders(org) }),
  'GET /console/api/audit/csv': (_o, org) => ({ headers: consoleHeaders(org) }),
  'GET /console/api/template': (o, org) => ({ headers: consoleHeaders(org, 'sender'), query: { id: o.template } }),
  'GET /console/api/template/preview': (o, org) => ({ headers: consoleHeaders(org, 'sender'), query: { id: o.template } }),
  'POST /console/api/template': (_o, org) => ({ headers: consoleHeaders(org, 'sender'), body: sampleTemplate() }),
  'POST /console/api/template/update': (o, org) => ({ headers: consoleHeaders(org, 'sender'), body: { id: o.template, name: 'Renamed' } }),
  'GET /console/api/references': (o, org) => ({ headers: consoleHeaders(org, 'sender'), query: { template: o.template } }),
  'POST /console/api/reference': (o, org) => ({ headers: consoleHeaders(org, 'sender'), body: { template: o.template, name: 'Website' } }),
  'POST /console/api/reference/update': (o, org) => ({ headers: consoleHeaders(org, 'sender'), body: { id: o.reference, enabled: true } }),
  'GET /console/api/reference/qr': (o, org) => ({ headers: consoleHeaders(org, 'sender'), query: { id: o.reference } }),
  'GET /console/api/webhooks': (_o, org) => ({ headers: consoleHeaders(org) }),
  'GET /console/api/webhook-deliveries': (o, org) => ({ headers: consoleHeaders(org), query: { id: o.delivery } }),
  'POST /console/api/webhook-deliveries/resend': (o, org) => ({ headers: consoleHeaders(org), body: { id: o.delivery } }),
  'GET /console/api/keys': (_o, org) => ({ headers: consoleHeaders(org) }),
  'POST /console/api/keys': (_o, org) => ({ headers: consoleHeaders(org), body: { kind: 'public' } }),
  'POST /console/api/keys/revoke': (o, org) => ({ headers: consoleHeaders(org), body: { id: o.apiKey } }),
  'GET /console/api/settings': (_o, org) => ({ headers: consoleHeaders(org) }),
  'POST /console/api/settings': (_o, org) => ({ headers: consoleHeaders(org), body: { photoRetentionDays: 180 } }),
  'GET /console/api/review': (_o, org) => ({ headers: consoleHeaders(org) }),
  'GET /console/api/review/photo': (o, org) => ({ headers: consoleHeaders(org), query: { kind: 'validation', code: o.veriface, photo: 'face' } }),
  'POST /console/api/review/decide': (o, org) => ({
    headers: consoleHeaders(org),
    body: { kind: 'validation', code: o.veriface, decision: 'approve', reason: 'Checked' },
  }),
  'POST /console/api/process/cancel': (o, org) => ({ headers: consoleHeaders(org), body: { code: o.process, reason: 'Stopped' } }),
  'POST /console/api/process/remind': (o, org) => ({ headers: consoleHeaders(org), body: { code: `${o.process}${o.participant}` } }),
  'POST /console/api/process/reactivate': (o, org) => ({ headers: consoleHeaders(org), body: { code: o.process } }),
  'GET /console/api/process/file': (o, org) => ({ headers: consoleHeaders(org), query: { code: o.process, file: 'document' } }),
  'GET /console/api/totp': (_o, org) => ({ headers: consoleHeaders(org) }),
  'POST /console/api/totp/enrol': (_o, org) => ({ headers: consoleHeaders(org) }),
  'POST /console/api/totp/confirm': (_o, org) => ({ headers: consoleHeaders(org), body: { code: '000000' } }),
  'POST /console/api/sign-in/totp': (_o, org) => ({ headers: { ...consoleHeaders(org) }, body: { code: '000000' } }),
  'GET /console/api/passkeys': (_o, org) => ({ headers: consoleHeaders(org) }),
  'POST /console/api/passkeys/options': (_o, org) => ({ headers: consoleHeaders(org) }),
  'POST /console/api/passkeys': (_o, org) => ({ headers: consoleHeaders(org) }),
  'POST /console/api/passkeys/remove': (_o, org) => ({ headers: consoleHeaders(org), body: { id: '65f1c0e2a4b5c6d7e8f90001' } }),
  'POST /console/api/sign-in/passkey/options': () => ({ headers: { origin: CONSOLE_ORIGIN }, body: {} }),
  'POST /console/api/sign-in/passkey': () => ({ headers: { origin: CONSOLE_ORIGIN } }),
  'POST /console/api/sign-in/oidc': (_o, org) => ({ headers: { origin: CONSOLE_ORIGIN }, body: { email: org.email } }),
  'GET /console/api/sign-in/oidc/callback': () => ({ query: { code: 'abc', state: 'def' } }),
};

const routeKey = (route: ApiRoute) => `${route.method} ${route.url}`;

/** What each console route wants of the user's role: the contract, written out, that the declarations must match. */
const CONSOLE_PERMISSIONS: Record<string, Permission> = {
  'POST /console/api/sign-out': 'account.self',
  'GET /console/api/me': 'account.self',
  'GET /console/api/me/language': 'account.self',
  'PUT /console/api/me/language': 'account.self',
  'GET /console/api/totp': 'account.self',
  'POST /console/api/totp/enrol': 'account.self',
  'POST /console/api/totp/confirm': 'account.self',
  'GET /console/api/passkeys': 'account.self',
  'POST /console/api/passkeys/options': 'account.self',
  'POST /console/api/passkeys': 'account.self',
  'POST /console/api/passkeys/remove': 'account.self',
  'GET /console/api/processes': 'processes.read',
  'GET /console/api/process': 'processes.read',
  'GET /console/api/process/file': 'processes.read',
  'GET /console/api/templates': 'processes.read',
  'GET /console/api/template': 'processes.read',
  'GET /console/api/template/preview': 'processes.read',
  'GET /console/api/references': 'processes.read',
  'GET /console/api/reference/qr': 'processes.read',
  'POST /console/api/process/cancel': 'processes.write',
  'POST /console/api/process/remind': 'processes.write',
  'POST /console/api/process/reactivate': 'processes.write',
  'POST /console/api/template': 'templates.write',
  'POST /console/api/template/update': 'templates.write',
  'POST /console/api/reference': 'templates.write',
  'POST /console/api/reference/update': 'templates.write',
  'GET /console/api/review': 'identity.view',
  'GET /console/api/review/photo': 'identity.view',
  'POST /console/api/review/decide': 'review.decide',
  'GET /console/api/audit': 'settings.admin',
  'GET /console/api/audit/csv': 'settings.admin',
  'GET /console/api/webhooks': 'settings.admin',
  'GET /console/api/webhook-deliveries': 'settings.admin',
  'POST /console/api/webhook-deliveries/resend': 'settings.admin',
  'GET /console/api/keys': 'settings.admin',
  'POST /console/api/keys': 'settings.admin',
  'POST /console/api/keys/revoke': 'settings.admin',
  'GET /console/api/settings': 'settings.admin',
  'POST /console/api/settings': 'settings.admin',
};

/**
 * A request a route answers with success: its JSON body is the body schema's own example (the one
 * /docs shows, src/http/schema-example.ts) with `body` laid over it; `payload` replaces it for raw
 * bodies. The key is the private one on key routes unless `key` says public.
 */
interface SuccessCall {
  key?: 'public';
  url?: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  payload?: string | Buffer;
}

interface SuccessContext {
  svc: TestService;
  org: TestOrganization;
  owned: Owned;
  /** A process of `org` with one participant as given; answers its code and the participant's token and id. */
  process(signer: Record<string, unknown>): Promise<{ code: string; token: string; participantId: string }>;
  /** A new console session of a user of `org`: the headers of the console's page. */
  console(role?: UserRole): Promise<Record<string, string>>;
}

const link = (token: string) => ({ headers: { 'x-link-token': token } });
const SDK_ORIGIN = 'https://app.example.com';

/** A package of two PDFs, one participant; answers its code. */
async function pdfPackage(c: SuccessContext): Promise<string> {
  const documents = [{ file: PDF_BYTES.toString('base64') }, { file: PDF_BYTES.toString('base64') }];
  const body = { email: c.org.email, name: 'Pack', signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test' }], documents };
  return (await call(c.svc.app, 'POST', '/document/many', { key: c.org.privateKey, body })).json().code;
}

async function allowSdkOrigin(c: SuccessContext): Promise<void> {
  const res = await call(c.svc.app, 'PUT', '/organization', { key: c.org.privateKey, body: { sdkOrigins: [SDK_ORIGIN], sdkRequireToken: false } });
  expect(res.statusCode, res.body).toBe(200);
}

/** At least one success call per route; on routes the public key may call, its reduced answer too. */
const SUCCESS: Record<string, (c: SuccessContext) => Promise<SuccessCall[]>> = {
  'POST /v1.5/ext/template': async () => [{}],
  'GET /v1.5/ext/template': async ({ owned }) => [{ query: { id: owned.template } }, { key: 'public', query: { id: owned.template } }, {}],
  'PUT /v1.5/ext/template': async ({ owned }) => [{ body: { id: owned.template } }],
  'DELETE /v1.5/ext/template': async ({ svc, org }) => [
    { query: { id: (await call(svc.app, 'POST', '/template', { key: org.privateKey, body: sampleTemplate() })).json().id } },
  ],
  'POST /v1.5/ext/template/reference': async ({ owned }) => [{ body: { template: owned.template } }],
  'GET /v1.5/ext/template/reference': async ({ owned }) => [{ query: { template: owned.template } }],
  // A link of its own: the people's routes below fill the organization's link.
  'DELETE /v1.5/ext/template/reference': async ({ svc, org, owned }) => [
    { query: { id: (await call(svc.app, 'POST', '/template/reference', { key: org.privateKey, body: { template: owned.template } })).json().id } },
  ],
  'PUT /v1.5/ext/template/reference': async ({ owned }) => [{ body: { id: owned.reference, enabled: true, signNow: true } }],
  'GET /v1.5/ext/template/reference/uses': async ({ owned }) => [{ query: { id: owned.reference } }],
  'POST /v1.5/ext/template/pdf': async () => [{ body: pdfTemplateBody() }],
  'GET /v1.5/ext/template/pdf': async ({ owned }) => [{ query: { id: owned.pdfTemplate } }, {}],
  'DELETE /v1.5/ext/template/pdf': async ({ svc, org }) => [
    { query: { id: (await call(svc.app, 'POST', '/template/pdf', { key: org.privateKey, body: pdfTemplateBody() })).json().id } },
  ],
  'POST /v1.5/ext/webhooks': async () => [{ body: { name: 'from-the-example' } }],
  'GET /v1.5/ext/webhooks': async () => [{}],
  'PUT /v1.5/ext/webhooks': async ({ owned }) => [{ body: { name: owned.webhook, enabled: true } }],
  'POST /v1.5/ext/webhooks/rotate-secret': async ({ owned }) => [{ body: { name: owned.webhook } }],
  'DELETE /v1.5/ext/webhooks': async ({ svc, org }) => {
    await call(svc.app, 'POST', '/webhooks', { key: org.privateKey, body: { name: 'to-delete', url: 'https://hooks.example.test/gone' } });
    return [{ query: { name: 'to-delete' } }];
  },
  'POST /v1.5/ext/webhooks/test': async ({ owned }) => [{ body: { name: owned.webhook } }],
  'GET /v1.5/ext/webhooks/deliveries': async ({ owned }) => [{ query: { id: owned.delivery } }, {}],
  'POST /v1.5/ext/webhooks/deliveries/resend': async ({ svc, owned }) => {
    // Delivered or failed, as a resend needs: the suite runs no delivery worker.
    await svc.deps.db.updateTable('outbox').set({ status: 'failed' }).where('id', '=', owned.delivery).execute();
    return [{ body: { id: owned.delivery } }];
  },
  'POST /v1.5/ext/veriface': async ({ org, owned }) => [{ body: { email: org.email, targetWebhooks: [owned.webhook] } }],
  'GET /v1.5/ext/veriface': async ({ owned }) => [{ query: { code: owned.veriface } }, { key: 'public', query: { code: owned.veriface } }],
  'POST /v1.5/ext/veriface/review': async ({ svc, org }) => [
    { body: { code: (await photographedVeriface(svc, org, { finish: true })).code, email: org.email } },
  ],
  'GET /v1.5/ext/veriface/documents': async () => [{ query: { country: 'CO' } }, { key: 'public' }],
  'POST /v1.5/ext/veriface/validate': async () => [{ body: { documentImage: jpeg().toString('base64'), photo: png().toString('base64') } }],
  'POST /v1.5/ext/veriface/check': async () => [{ body: { image: (await numberedCard({ number: '1001001010' })).toString('base64') } }],
  'POST /v1.5/ext/document/save': async ({ org, owned }) => [{ body: { document: owned.template, data: ANSWERS, email: org.email } }],
  'POST /v1.5/ext/document/upload': async ({ org }) => [{ body: { email: org.email } }],
  'POST /v1.5/ext/document/many': async ({ org, owned }) => [
    {
      body: {
        email: org.email,
        documents: [
          { document: owned.template, data: ANSWERS },
          { document: owned.template, data: ANSWERS },
        ],
      },
    },
  ],
  'GET /v1.5/ext/document': async ({ owned }): Promise<SuccessCall[]> => [
    { query: { code: owned.process, image: 'true' } },
    { key: 'public', query: { code: owned.process } },
    { query: { status: 'CREATED' } },
    { query: { folder: 'Leases/2026' } },
  ],
  'GET /v1.5/ext/document/roadmap': async ({ owned }) => [{ query: { code: owned.process } }],
  'GET /v1.5/ext/attachments': async (c): Promise<SuccessCall[]> => {
    const { code, token, participantId } = await c.process({ name: 'Ana Gómez', email: 'ana@people.test', files: [{ name: 'ID' }, { name: 'Payslip' }] });
    await giveAttachment(c.svc.deps, { token, position: 0, bytes: PDF_BYTES });
    return [{ query: { code } }, { query: { package: code, userId: participantId } }];
  },
  'PUT /v1.5/ext/attachments': async (c): Promise<SuccessCall[]> => {
    const { code, token, participantId } = await c.process({ name: 'Ana Gómez', email: 'ana@people.test', files: [{ name: 'ID' }] });
    await giveAttachment(c.svc.deps, { token, position: 0, bytes: PDF_BYTES });
    // Approved, then rejected: a rejected file is no longer given, so it could not be approved after.
    return [
      { body: { package: undefined, code, userId: participantId, approve: true, reason: undefined, files: ['ID'] } },
      { body: { package: code, userId: participantId, approve: false, reason: 'Blurred' } },
    ];
  },
  'POST /v1.5/ext/package/upload': async ({ org }) => [
    { body: { email: org.email } },
    { body: { email: org.email, name: 'Contract', file: PDF_BYTES.toString('base64') } },
  ],
  'POST /v1.5/ext/document/unlock': async (c) => {
    const blocked = await c.process({ name: 'Ana Gómez', email: 'ana@people.test', otpCode: true, options: { otpCode: 'email' } });
    await requestOtp(c.svc.deps, { token: blocked.token });
    for (let i = 0; i < 3; i++) await verifyOtp(c.svc.deps, { token: blocked.token, code: 'wrong!' }).catch(() => undefined);
    return [{ body: { code: `${blocked.code}${blocked.participantId}`, email: c.org.email } }];
  },
  'POST /v1.5/ext/document/cancel': async (c) => [
    { body: { codes: [(await c.process({ name: 'Ana Gómez', email: 'ana@people.test' })).code], email: c.org.email } },
  ],
  // A participant hears from the service at most once an hour: the reminder comes an hour after the invitation.
  'POST /v1.5/ext/document/reminder': async (c) => {
    const { code, participantId } = await c.process({ name: 'Ana Gómez', email: 'ana@people.test' });
    c.svc.clock.advance(HOUR);
    return [{ body: { code: `${code}${participantId}` } }];
  },
  'POST /v1.5/ext/document/many/reminder': async (c) => {
    const { code, participantId } = await c.process({ name: 'Ana Gómez', email: 'ana@people.test' });
    c.svc.clock.advance(HOUR);
    return [{ body: { package: `${code}${participantId}` } }];
  },
  'PUT /v1.5/ext/document/reactivate': async (c) => {
    const { code, token } = await c.process({ name: 'Ana Gómez', email: 'ana@people.test' });
    await rejectDocument(c.svc.deps, { token, reason: 'Not agreed' });
    return [{ body: { code, email: c.org.email } }];
  },
  'POST /v1.5/ext/document/edit': async (c) => [{ body: { code: (await c.process({ name: 'Ana Gómez', email: 'ana@people.test' })).code } }],
  'GET /v1.5/ext/document/edit': async (c) => {
    const { code } = await c.process({ name: 'Ana Gómez', email: 'ana@people.test' });
    await call(c.svc.app, 'POST', '/document/edit', { key: c.org.privateKey, body: { code } });
    return [{ query: { code } }];
  },
  'POST /v1.5/ext/package/edit': async (c) => [{ body: { package: await pdfPackage(c) } }],
  'GET /v1.5/ext/package/edit': async (c) => {
    const code = await pdfPackage(c);
    await call(c.svc.app, 'POST', '/package/edit', { key: c.org.privateKey, body: { package: code } });
    return [{ query: { package: code } }];
  },
  'PUT /files/*': async ({ svc, org }) => {
    const { urls } = (await call(svc.app, 'POST', '/template', { key: org.privateKey, body: sampleTemplate() })).json();
    return [{ url: localPath(urls.mask), headers: { 'content-type': 'text/html' }, payload: '<p>Mask</p>' }];
  },
  'GET /files/*': async ({ svc, org, owned }) => {
    const { urls } = (await call(svc.app, 'GET', '/template', { key: org.privateKey, query: { id: owned.template } })).json();
    return [{ url: localPath(urls.complete) }];
  },
  'GET /photos/*': async ({ svc, org, owned }) => {
    const read = await call(svc.app, 'GET', '/document', { key: org.privateKey, query: { code: owned.process, image: 'true' } });
    return [{ url: localPath(read.json().signProfile[0].photo.data) }];
  },
  'DELETE /v1.5/ext/document/photos': async ({ svc, org }) => [{ query: { code: (await photographedProcess(svc, org, { end: 'CANCELLED' })).code } }],
  'DELETE /v1.5/ext/veriface/photos': async ({ svc, org }) => [{ query: { code: (await photographedVeriface(svc, org, { finish: true })).code } }],
  'GET /health': async () => [{}],
  'GET /v1.5/ext/organization': async () => [{}],
  'PUT /v1.5/ext/organization': async () => [{}],
  'GET /v1.5/ext/company': async () => [{}, { key: 'public' }],
  // The organization's own webhook stays in the list: routes after this one still name it.
  'PUT /v1.5/ext/company': async ({ owned }) => [
    {
      body: {
        webhooks: [
          { id: 'default', url: 'https://hooks.example.test/default', header: { key: 'Authorization', value: 'Bearer route-security' } },
          { id: owned.webhook, url: 'https://hooks.example.test/own' },
        ],
      },
    },
  ],
  'GET /people/signing': async ({ owned }) => [link(owned.signingLink)],
  'GET /people/reading': async ({ owned }) => [link(owned.readingLink)],
  'GET /read/:token': async ({ owned }) => [{ url: `/read/${owned.readingLink}` }],
  'GET /people/fill': async ({ owned }) => [link(owned.referenceLink), link(owned.prebuiltLink)],
  'GET /people/fill/preview': async ({ owned }) => [link(owned.referenceLink)],
  'POST /people/fill/check': async ({ owned }) => [{ ...link(owned.referenceLink), body: { data: ANSWERS } }],
  'POST /people/fill': async ({ owned }) => [{ ...link(owned.referenceLink), body: { data: ANSWERS, idempotencyKey: `success-${upper(16)}` } }],
  'POST /people/fill/confirm': async ({ svc, owned }) => {
    const idempotencyKey = `confirmed-${upper(16)}`;
    await svc.app.inject({ method: 'POST', url: '/people/fill', ...link(owned.referenceLink), payload: { data: ANSWERS, idempotencyKey } });
    const sent = (await outbox(svc, 'email')).filter((row) => row.body.to === 'ana@buyer.test' && row.body.template === 'otp-code').at(-1);
    return [{ ...link(owned.referenceLink), body: { idempotencyKey, code: /\b(\d{6})\b/.exec(String(sent?.body.text))?.[1] } }];
  },
  'POST /people/fill/resend': async ({ svc, owned }) => {
    // A new code may be asked for 30 seconds after the last: a submission asks at once only once it is confirmed (and then sends nothing).
    const idempotencyKey = `resent-${upper(16)}`;
    await svc.app.inject({ method: 'POST', url: '/people/fill', ...link(owned.referenceLink), payload: { data: ANSWERS, idempotencyKey } });
    const sent = (await outbox(svc, 'email')).filter((row) => row.body.to === 'ana@buyer.test' && row.body.template === 'otp-code').at(-1);
    const code = /\b(\d{6})\b/.exec(String(sent?.body.text))?.[1];
    await svc.app.inject({ method: 'POST', url: '/people/fill/confirm', ...link(owned.referenceLink), payload: { idempotencyKey, code } });
    return [{ ...link(owned.referenceLink), body: { idempotencyKey } }];
  },
  'GET /r/:token': async ({ owned }) => [{ url: `/r/${owned.referenceLink}` }],
  'GET /f/:token': async ({ owned }) => [{ url: `/f/${owned.prebuiltLink}` }],
  'GET /e/:token': async ({ owned }) => [{ url: `/e/${owned.referenceLink}` }],
  'POST /v1.5/ext/document/prebuild': async ({ org, owned }) => [
    { body: { document: owned.prebuiltTemplate, email: org.email, preBuild: [{ key: 'price', value: '1' }], emailTo: 'ana@buyer.test' } },
    { body: { document: owned.prebuiltTemplate, email: org.email, preBuild: [], emailTo: 'ana@buyer.test', notification: false } },
  ],
  'POST /people/signing/otp': async (c) => [link((await c.process({ name: 'Ana Gómez', email: 'ana@people.test', otpCode: true })).token)],
  'POST /people/signing/otp/check': async (c) => {
    const { token } = await c.process({ name: 'Ana Gómez', email: 'otp@people.test', otpCode: true });
    await requestOtp(c.svc.deps, { token });
    const sent = (await outbox(c.svc, 'email')).filter((row) => row.body.to === 'otp@people.test').at(-1);
    return [{ ...link(token), body: { code: /\b(\d{6})\b/.exec(String(sent?.body.text))?.[1] } }];
  },
  'POST /people/signing/photo': async (c) => [
    {
      ...link((await c.process({ name: 'Ana Gómez', email: 'ana@people.test', camera: true, options: { camera: 'photo' } })).token),
      body: { image: png().toString('base64') },
    },
  ],
  'POST /people/signing/opened': async (c) => [{ ...link((await c.process({ name: 'Ana Gómez', email: 'ana@people.test' })).token), body: { document: 0 } }],
  'POST /people/signing/sign': async (c) => {
    const { token } = await c.process({ name: 'Ana Gómez', email: 'ana@people.test' });
    await openEveryDocument(c.svc.deps, token);
    return [link(token)];
  },
  'POST /people/signing/approve': async (c) => [link((await c.process({ name: 'Ana Gómez', email: 'ana@people.test', role: 'APPROVER' })).token)],
  'POST /people/signing/reject': async (c) => [link((await c.process({ name: 'Ana Gómez', email: 'ana@people.test' })).token)],
  'POST /people/signing/attachment': async (c) => [
    {
      ...link((await c.process({ name: 'Ana Gómez', email: 'ana@people.test', files: [{ name: 'ID' }] })).token),
      body: { attachment: 0, file: PDF_BYTES.toString('base64') },
    },
  ],
  'POST /people/signing/delegate': async (c) => {
    await updateSettings(c.svc.deps.db, { organizationId: c.org.id, changes: { signerDelegation: true } });
    const { token } = await c.process({ name: 'Ana Gómez', email: 'ana@people.test' });
    return [{ ...link(token), body: { name: 'María Gómez', email: 'maria@people.test', reason: 'Travelling' } }];
  },
  'POST /people/signing/copy': async ({ owned }) => [link(owned.signingLink)],
  'POST /people/signing/send-link': async ({ owned }) => [link(owned.signingLink)],
  'GET /people/signing/qr': async ({ owned }) => [link(owned.signingLink)],
  'GET /people/validation': async ({ owned }) => [link(owned.validationLink)],
  'GET /people/validation/qr': async ({ owned }) => [link(owned.validationLink)],
  'POST /people/validation/photo': async ({ owned }) => [{ ...link(owned.validationLink), body: { kind: 'documentFront', image: jpeg().toString('base64') } }],
  'POST /people/validation/finish': async ({ svc, org }) => [link((await photographedVeriface(svc, org)).token)],
  'POST /people/validation/send-link': async ({ owned }) => [link(owned.validationLink)],
  'POST /v1.5/ext/sdk/token': async (c) => {
    await allowSdkOrigin(c);
    return [{ body: { document: c.owned.veriface, origin: SDK_ORIGIN } }];
  },
  'POST /people/embed': async (c) => {
    await allowSdkOrigin(c);
    return [
      { body: { keyPublic: c.org.publicKey, document: c.owned.veriface, parentOrigin: SDK_ORIGIN } },
      { body: { keyPublic: c.org.publicKey, document: c.owned.template, parentOrigin: SDK_ORIGIN } },
      { body: { keyPublic: c.org.publicKey, document: c.owned.prebuiltTemplate, code: c.owned.prebuilt, preBuild: true, parentOrigin: SDK_ORIGIN } },
    ];
  },
  'GET /s/:token': async ({ owned }) => [{ url: `/s/${owned.signingLink}` }],
  'GET /v/:token': async ({ owned }) => [{ url: `/v/${owned.validationLink}` }],
  'GET /': async () => [{ query: { id: '2026-11-24T10-00-00.000Z' } }],
  'GET /assets/:file': async ({ svc }) => [{ url: svc.deps.pageAssets.script }],
  'GET /verify': async ({ owned }) => [{ query: { code: owned.process } }, { query: { code: owned.process }, headers: { accept: 'text/html' } }],
  'POST /verify': async () => [{ headers: { 'content-type': 'application/pdf' }, payload: PDF_BYTES }],
  'GET /whatsapp/webhook': async () => [{ query: { 'hub.mode': 'subscribe', 'hub.verify_token': WHATSAPP_VERIFY_TOKEN, 'hub.challenge': '1158201444' } }],
  'POST /whatsapp/webhook': async ({ svc }) => {
    const raw = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    return [
      { headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, svc.deps.whatsappWebhook.appSecret ?? '') }, payload: raw },
    ];
  },
  'GET /v1.5/ext/whatsapp/records': async ({ owned }) => [{ query: { userId: owned.participant } }],
  'GET /whatsapp/local': async () => [{}],
  'GET /whatsapp/local/conversations': async () => [{}],
  'GET /whatsapp/local/messages': async ({ owned }) => [{ query: { phone: owned.phone } }],
  'POST /whatsapp/local/messages': async ({ owned }) => [{ body: { phone: owned.phone, text: 'hola' } }],
  'GET /whatsapp/local/document': async ({ svc, org, owned }) => {
    // The invitation written to the local mailbox, "Empezar" tapped on it, and the PDF the conversation answers with.
    await runOutbox(svc);
    const chat = async () =>
      (
        await svc.app.inject({ method: 'GET', url: '/whatsapp/local/messages', query: { phone: owned.phone }, headers: { authorization: org.privateKey } })
      ).json();
    const invitation = (await chat()).messages.find((m: { content: { kind: string } }) => m.content.kind === 'buttons');
    const tap = { phone: owned.phone, reply: invitation.content.buttons[0], contextId: invitation.id };
    expect(
      (await svc.app.inject({ method: 'POST', url: '/whatsapp/local/messages', headers: { authorization: org.privateKey }, payload: tap })).statusCode,
    ).toBe(200);
    await runOutbox(svc);
    const document = (await chat()).messages.find((m: { content: { kind: string } }) => m.content.kind === 'document');
    return [{ query: { phone: owned.phone, id: document.id } }];
  },
  'GET /console': async () => [{}],
  'POST /console/api/sign-in': async ({ org }) => [
    { headers: { origin: CONSOLE_ORIGIN }, body: { email: org.email } },
    { headers: { origin: CONSOLE_ORIGIN }, body: { email: 'nobody@unknown.test' } },
  ],
  'POST /console/api/sign-in/link': async ({ svc, org }) => {
    await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: org.email }, remoteAddress: '198.51.100.8' });
    return [{ headers: { origin: CONSOLE_ORIGIN }, body: { token: (await signInEmail(svc, org, org.email)).token } }];
  },
  'POST /console/api/sign-in/code': async ({ svc, org }) => {
    // A user of its own: the organization's owner has had its sign-in e-mails for the quarter of an hour.
    await addUser(svc.deps.db, svc.clock, { organizationId: org.id, email: 'code@acme.test' });
    await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: 'code@acme.test' }, remoteAddress: '198.51.100.8' });
    return [{ headers: { origin: CONSOLE_ORIGIN }, body: { email: 'code@acme.test', code: (await signInEmail(svc, org, 'code@acme.test')).code } }];
  },
  'POST /console/api/sign-out': async (c) => [{ headers: await c.console() }],
  'GET /console/api/me': async (c) => [{ headers: await c.console() }, { headers: await c.console('sender') }],
  'GET /console/api/me/language': async (c) => [{ headers: await c.console('sender') }],
  'PUT /console/api/me/language': async (c) => [
    { headers: await c.console('sender'), body: { language: 'pt' } },
    { headers: await c.console('sender'), body: { language: null } },
  ],
  'GET /console/api/processes': async (c): Promise<SuccessCall[]> => [
    { headers: await c.console() },
    { headers: await c.console('sender'), query: { q: 'people.test', status: 'CREATED', from: '2020-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' } },
    { headers: await c.console(), query: { template: c.owned.template, limit: '1' } },
  ],
  'GET /console/api/process': async (c) => [{ headers: await c.console('sender'), query: { code: c.owned.process } }],
  'GET /console/api/templates': async (c) => [{ headers: await c.console() }],
  'GET /console/api/audit': async (c) => [{ headers: await c.console() }],
  'GET /console/api/audit/csv': async (c) => [{ headers: await c.console() }],
  'GET /console/api/template': async (c) => [{ headers: await c.console('sender'), query: { id: c.owned.template } }],
  'GET /console/api/template/preview': async (c) => [{ headers: await c.console('sender'), query: { id: c.owned.template } }],
  'POST /console/api/template': async (c) => [{ headers: await c.console('sender') }],
  'POST /console/api/template/update': async (c) => [{ headers: await c.console('sender'), body: { id: c.owned.template } }],
  'GET /console/api/references': async (c) => [{ headers: await c.console('sender'), query: { template: c.owned.template } }],
  'POST /console/api/reference': async (c) => [{ headers: await c.console('sender'), body: { template: c.owned.template } }],
  'POST /console/api/reference/update': async (c) => [{ headers: await c.console('sender'), body: { id: c.owned.reference } }],
  'GET /console/api/reference/qr': async (c) => [{ headers: await c.console('sender'), query: { id: c.owned.reference } }],
  'GET /console/api/webhooks': async (c) => [{ headers: await c.console() }],
  'GET /console/api/webhook-deliveries': async (c) => [{ headers: await c.console(), query: { id: c.owned.delivery } }, { headers: await c.console() }],
  'POST /console/api/webhook-deliveries/resend': async (c) => {
    await c.svc.deps.db.updateTable('outbox').set({ status: 'failed' }).where('id', '=', c.owned.delivery).execute();
    return [{ headers: await c.console(), body: { id: c.owned.delivery } }];
  },
  'GET /console/api/keys': async (c) => [{ headers: await c.console() }],
  'POST /console/api/keys': async (c) => [{ headers: await c.console(), body: { kind: 'private' } }],
  'POST /console/api/keys/revoke': async (c) => [{ headers: await c.console(), body: { id: c.owned.apiKey } }],
  'GET /console/api/settings': async (c) => [{ headers: await c.console() }],
  'POST /console/api/settings': async (c) => [{ headers: await c.console(), body: { sdkOrigins: [SDK_ORIGIN] } }],
  'GET /console/api/review': async (c) => {
    await photographedVeriface(c.svc, c.org, { finish: true });
    return [{ headers: await c.console('reviewer') }];
  },
  'GET /console/api/review/photo': async (c) => {
    const { code } = await photographedVeriface(c.svc, c.org, { finish: true });
    const headers = await c.console('reviewer');
    return [
      { headers, query: { kind: 'validation', code, photo: 'face' } },
      { headers, query: { kind: 'validation', code, photo: 'documentFront' } },
    ];
  },
  'POST /console/api/review/decide': async (c) => [
    {
      headers: await c.console('reviewer'),
      body: { kind: 'validation', code: (await photographedVeriface(c.svc, c.org, { finish: true })).code, decision: 'approve', reason: 'Checked' },
    },
  ],
  'POST /console/api/process/cancel': async (c) => [
    { headers: await c.console('sender'), body: { code: (await c.process({ name: 'Ana Gómez', email: 'ana@people.test' })).code } },
  ],
  // A participant hears from the service at most once an hour: the session is opened after that hour.
  'POST /console/api/process/remind': async (c) => {
    const { code, participantId } = await c.process({ name: 'Ana Gómez', email: 'ana@people.test' });
    c.svc.clock.advance(HOUR);
    return [{ headers: await c.console('sender'), body: { code: `${code}${participantId}` } }];
  },
  'POST /console/api/process/reactivate': async (c) => {
    const { code, token } = await c.process({ name: 'Ana Gómez', email: 'ana@people.test' });
    await rejectDocument(c.svc.deps, { token, reason: 'Not agreed' });
    return [{ headers: await c.console('sender'), body: { code } }];
  },
  'GET /console/api/process/file': async (c) => [{ headers: await c.console('sender'), query: { code: c.owned.process, file: 'document' } }],
  'GET /console/api/totp': async (c) => [{ headers: await c.console('sender') }],
  'POST /console/api/totp/enrol': async (c) => [{ headers: await c.console('sender') }],
  'POST /console/api/totp/confirm': async (c) => {
    const headers = await c.console('sender');
    const { secret } = (await c.svc.app.inject({ method: 'POST', url: '/console/api/totp/enrol', headers })).json<{ secret: string }>();
    return [{ headers, body: { code: await totpCode(c.svc, secret) } }];
  },
  'POST /console/api/sign-in/totp': async (c) => {
    const headers = await c.console('sender');
    const { secret } = (await c.svc.app.inject({ method: 'POST', url: '/console/api/totp/enrol', headers })).json<{ secret: string }>();
    await c.svc.app.inject({ method: 'POST', url: '/console/api/totp/confirm', headers, payload: { code: await totpCode(c.svc, secret) } });
    const email = (await c.svc.app.inject({ method: 'GET', url: '/console/api/me', headers })).json<{ email: string }>().email;
    await consoleCall(c.svc, 'POST', '/console/api/sign-in', { body: { email }, remoteAddress: '198.51.100.8' });
    const signIn = await consoleCall(c.svc, 'POST', '/console/api/sign-in/link', {
      body: { token: (await signInEmail(c.svc, c.org, email)).token },
      remoteAddress: '198.51.100.8',
    });
    return [{ headers: { origin: CONSOLE_ORIGIN, cookie: sessionCookieOf(signIn) }, body: { code: await totpCode(c.svc, secret, 1) } }];
  },
  'GET /console/api/passkeys': async (c) => [{ headers: await c.console('sender') }],
  'POST /console/api/passkeys/options': async (c) => [{ headers: await c.console('sender') }],
  'POST /console/api/passkeys': async (c) => {
    const headers = await c.console('sender');
    const options = (await c.svc.app.inject({ method: 'POST', url: '/console/api/passkeys/options', headers })).json();
    return [{ headers, body: { response: softPasskey(CONSOLE_ORIGIN).register(options) } }];
  },
  'POST /console/api/passkeys/remove': async (c) => {
    const headers = await c.console('sender');
    const options = (await c.svc.app.inject({ method: 'POST', url: '/console/api/passkeys/options', headers })).json();
    const added = await c.svc.app.inject({
      method: 'POST',
      url: '/console/api/passkeys',
      headers,
      payload: { response: softPasskey(CONSOLE_ORIGIN).register(options) },
    });
    return [{ headers, body: { id: added.json<{ id: string }>().id } }];
  },
  'POST /console/api/sign-in/passkey/options': async (c) => [{ headers: { origin: CONSOLE_ORIGIN }, body: { email: c.org.email } }],
  'POST /console/api/sign-in/passkey': async (c) => {
    const headers = await c.console('sender');
    const authenticator = softPasskey(CONSOLE_ORIGIN);
    const options = (await c.svc.app.inject({ method: 'POST', url: '/console/api/passkeys/options', headers })).json();
    await c.svc.app.inject({ method: 'POST', url: '/console/api/passkeys', headers, payload: { response: authenticator.register(options) } });
    const signIn = (await consoleCall(c.svc, 'POST', '/console/api/sign-in/passkey/options', { body: {}, remoteAddress: '198.51.100.8' })).json();
    return [{ headers: { origin: CONSOLE_ORIGIN }, body: { response: authenticator.assert(signIn) } }];
  },
  'POST /console/api/sign-in/oidc': async (c) => [{ headers: { origin: CONSOLE_ORIGIN }, body: { email: c.org.email } }],
  // Refused sign-ins land on the same page as good ones (the console says why): a good one is test/console-strong-sign-in.test.ts's.
  'GET /console/api/sign-in/oidc/callback': async () => [{ query: { code: 'abc', state: 'def' } }],
};

/** The code an authenticator app shows for `secret` at the service's clock, `stepsAhead` steps of 30 seconds on. */
function totpCode(svc: TestService, secret: string, stepsAhead = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(svc.clock.now().getTime() / 1000) + stepsAhead * 30 });
}

/**
 * The public key column. The public key sits in integrators' web pages: on each route it may call
 * (`any-key`), `hidden` are the fields of the sample's answer only the private key sees (the private
 * key's answer to `privateQuery` must show every one, so the sample really holds them: identity
 * photos included), and `refused` the requests it is answered 403 PRIVATE_KEY_REQUIRED.
 */
interface PublicKeyColumn {
  hidden: readonly string[];
  privateQuery?: Record<string, string>;
  refused: readonly ((owned: Owned) => Record<string, string>)[];
}

const PUBLIC_KEY_COLUMN: Record<string, PublicKeyColumn> = {
  'GET /v1.5/ext/document': {
    hidden: [
      'id',
      'email',
      'phone',
      'custom',
      'tags',
      'subject',
      'message',
      'validations',
      'similarity',
      'identityVerifiedAt',
      'identificationCard',
      'photo',
      'url',
      'sha256',
    ],
    privateQuery: { image: 'true' },
    refused: [(o) => ({ code: o.process, image: 'true' }), () => ({}), () => ({ status: 'CREATED' })],
  },
  'GET /v1.5/ext/veriface': {
    hidden: ['email', 'userEmail', 'phone', 'country', 'identificationType', 'identificationNumber', 'custom', 'targetWebhooks', 'photos', 'detail'],
    refused: [],
  },
  'GET /v1.5/ext/template': { hidden: [], refused: [() => ({})] },
  'GET /v1.5/ext/veriface/documents': { hidden: [], refused: [] },
  'GET /v1.5/ext/company': { hidden: ['format'], refused: [] },
};

/** Everything an organization owns, one of each kind, made through the API as an integrator would. */
async function own(svc: TestService, org: TestOrganization): Promise<Owned> {
  const key = org.privateKey;
  const template = await templateWithHtml(svc, org);
  const referenceLink = (await call(svc.app, 'POST', '/template/reference', { key, body: { template, name: 'Site' } })).json();
  const reference: string = referenceLink.id;
  const pdfTemplate = (await call(svc.app, 'POST', '/template/pdf', { key, body: pdfTemplateBody() })).json().id;
  const prebuiltTemplate = await templateWithHtml(svc, org, undefined, sampleTemplate({ preBuild: true, preBuildData: ['price', 'buyer_email'] }));
  const prebuilt = await call(svc.app, 'POST', '/document/prebuild', {
    key,
    body: {
      email: org.email,
      name: 'Sale',
      document: prebuiltTemplate,
      preBuild: [{ key: 'price', value: '10' }],
      emailTo: 'ana@buyer.test',
      notification: false,
    },
  });
  const webhook = `hook-${upper(6).toLowerCase()}`;
  // With a static header, whose value the public key column checks GET /company never shows.
  const header = { key: 'Authorization', value: 'Bearer own-header' };
  expect((await call(svc.app, 'POST', '/webhooks', { key, body: { name: webhook, url: 'https://hooks.example.test/own', header } })).statusCode).toBe(200);
  await call(svc.app, 'POST', '/webhooks/test', { key, body: { name: webhook } });
  const delivery = (await call(svc.app, 'GET', '/webhooks/deliveries', { key })).json().data[0].id;
  // Failed, as a resend needs: the suite runs no delivery worker.
  await svc.deps.db.updateTable('outbox').set({ status: 'failed' }).where('id', '=', delivery).execute();
  const apiKey = (await createApiKey(svc.deps.db, svc.clock, { organizationId: org.id, kind: 'public' })).id;
  // Identity photos, contact data and `custom` on both, so the public key column has something to hide.
  const custom = { crmId: 'deal-4711' };
  const { code: veriface } = await photographedVeriface(svc, org, { body: { targetWebhooks: [webhook], userEmail: 'juan@people.test', custom } });
  const { code: process } = await photographedProcess(svc, org, {
    body: { custom, tags: ['rent'], readers: [{ name: 'Rosa Díaz', email: 'rosa@board.test' }] },
    signer: { phone: '+573001234567' },
  });
  const { process: processRow, participants } = await stored(svc, org, process);
  const [reader] = await listReaders(svc.deps.db, processRow.id, 'READER');
  const validation = await findVerifaceByCode(svc.deps.db, org.id, veriface);
  // A signer whose flow runs through WhatsApp: the invitation's record makes the number the organization's conversation.
  const phone = newNumber();
  const chatSigner = { name: 'José Pérez', email: 'jose@people.test', phone: `+${phone}`, options: { whatsapp: true } };
  expect((await call(svc.app, 'POST', '/document/upload', { key, body: pdfProcess(org, { signProfile: [chatSigner] }) })).statusCode).toBe(200);
  return {
    template,
    reference,
    pdfTemplate,
    webhook,
    veriface,
    process,
    delivery,
    signingLink: participants[0]!.link_token,
    validationLink: validation!.link_token,
    referenceLink: String(referenceLink.url).split('/r/')[1]!,
    readingLink: reader!.link_token,
    prebuiltTemplate,
    prebuilt: prebuilt.json().document,
    prebuiltLink: String(prebuilt.json().url).split('/f/')[1]!,
    participant: participants[0]!.participant_id,
    phone,
    apiKey,
  };
}

/**
 * Every answer the suite gets, held to its route's declaration: a success is the declared JSON body
 * (checked by the response schema) or of a declared media type; an error is a code the route
 * declares, at the declared status, or one every route of its shape may answer (access, body, rate
 * limit), or a validation message naming its field.
 */
class DeclaredAnswers {
  readonly problems = new Set<string>();

  check(route: ApiRoute, res: LightMyRequestResponse): LightMyRequestResponse {
    const problem = this.problemOf(route, res);
    if (problem) this.problems.add(`${routeKey(route)}: ${problem}`);
    return res;
  }

  private problemOf(route: ApiRoute, res: LightMyRequestResponse): string | undefined {
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    if (res.statusCode < 400) {
      if (type === 'application/json' && 'json' in route.response) {
        const { error } = route.response.json.validate(res.json());
        return error ? `a success body the response schema refuses: ${error.message}` : undefined;
      }
      return route.response.raw?.mediaTypes.includes(type) ? undefined : `a success of undeclared type ${type}`;
    }
    // A page answers its refusals as a page, in words, not as codes.
    if (type !== 'application/json') return route.response.raw?.mediaTypes.includes(type) ? undefined : `an error of undeclared type ${type}`;
    const { message } = res.json() as { message: string };
    if (message.startsWith('"')) return res.statusCode === 400 ? undefined : `a validation message at ${res.statusCode}`;
    const code = codeOf(message);
    const declared = code === undefined ? undefined : route.answerableErrors.get(code);
    return declared === res.statusCode ? undefined : `${res.statusCode} ${code ?? message}, declared ${declared ?? 'nowhere'}`;
  }
}

const answers = new DeclaredAnswers();

/** The request `route` is declared for, with its sample; `method: 'HEAD'` asks a GET route's answer without its body. */
async function send(
  svc: TestService,
  route: ApiRoute,
  key: string | undefined,
  sample: Sample,
  method: ApiRoute['method'] | 'HEAD' = route.method,
): Promise<LightMyRequestResponse> {
  const res = await svc.app.inject({
    method,
    url: route.url.replace('*', 'templates/000000000000000000000000/mask.html'),
    headers: { ...(key ? { authorization: key } : {}), ...sample.headers },
    ...(sample.remoteAddress ? { remoteAddress: sample.remoteAddress } : {}),
    ...(sample.query ? { query: sample.query } : {}),
    ...(sample.body ? { payload: sample.body } : {}),
  });
  return method === 'HEAD' ? res : answers.check(route, res);
}

/** An error answer is exactly {message: string}, and the message is a catalogue code or names its field. */
function expectErrorShape(res: LightMyRequestResponse, label: string): void {
  expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const body: unknown = JSON.parse(res.body);
    expect(body, label).toEqual({ message: expect.any(String) });
    const { message } = body as { message: string };
    expect(codeOf(message) !== undefined || message.startsWith('"'), `${label}: ${message}`).toBe(true);
  }
}

describe.each(dialects)('route security, driven by the route table (%s)', (dialect) => {
  let svc: TestService;
  let routes: ApiRoute[];
  let ownedByB: Owned;
  beforeAll(async () => {
    // The suite makes thousands of unauthenticated calls from one address on purpose.
    svc = await startTestService(dialect, { AUTH_FAILURES_MAX: '1000000', VERIFY_RATE_LIMIT: '100000', WHATSAPP_VERIFY_TOKEN });
    answers.problems.clear();
    routes = routeTable(svc.config, svc.deps);
    ownedByB = await own(svc, svc.orgB);
    for (const org of [svc.orgA, svc.orgB]) {
      const domain = org.email.split('@')[1];
      const sessions: Record<UserRole, string> = {
        admin: await signedInUser(svc, org, org.email, 'admin', '198.51.100.10'),
        reviewer: await signedInUser(svc, org, `reviewer@${domain}`, 'reviewer', '198.51.100.10'),
        sender: await signedInUser(svc, org, `sender@${domain}`, 'sender', '198.51.100.10'),
        viewer: await signedInUser(svc, org, `viewer@${domain}`, 'viewer', '198.51.100.10'),
      };
      consoleSessions.set(org.id, sessions);
    }
  });
  afterAll(async () => svc.close());

  describe('every route of the table is declared with a sample request, and the OpenAPI document lists exactly the table', () => {
    it('each route has a sample here', () => {
      expect(routes.map(routeKey).filter((key) => !(key in SAMPLES))).toEqual([]);
    });

    it('the OpenAPI document and the route table name the same operations', async () => {
      const spec = (await svc.app.inject({ method: 'GET', url: '/docs/json' })).json();
      const documented = Object.entries(spec.paths as Record<string, Record<string, unknown>>)
        .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
        .sort();
      // Fastify's OpenAPI names a wildcard path by its parameter.
      const declared = routes.map((route) => `${route.method} ${route.url.replace('*', '{*}').replace(/:(\w+)/g, '{$1}')}`).sort();
      expect(documented).toEqual(declared);
    });
  });

  describe('no key is 401, a public key on a route that writes is 401, and on a read kept for the private key 403 (asked with GET or HEAD)', () => {
    it("every route that takes a key refuses none (the operator's, away from the service's machine), and refuses the public key unless it is in the public key column", async () => {
      for (const route of routes.filter((r) => r.access === 'private-key' || r.access === 'any-key' || r.access === 'operator')) {
        const sample = { ...SAMPLES[routeKey(route)]!(ownedByB, svc.orgB), ...(route.access === 'operator' ? { remoteAddress: ELSEWHERE } : {}) };
        const none = await send(svc, route, undefined, sample);
        expect(none.statusCode, routeKey(route)).toBe(401);
        expect(none.json()).toEqual({ message: 'UNAUTHORIZED' });
        const publicKey = await send(svc, route, svc.orgB.publicKey, sample);
        if (route.access === 'any-key') {
          expect(publicKey.statusCode, routeKey(route)).toBe(200);
        } else if (route.method === 'GET') {
          expect([publicKey.statusCode, publicKey.json()], routeKey(route)).toEqual([403, { message: 'PRIVATE_KEY_REQUIRED' }]);
          const head = await send(svc, route, svc.orgB.publicKey, sample, 'HEAD');
          expect([head.statusCode, head.body], `HEAD ${routeKey(route)}`).toEqual([403, '']);
        } else {
          expect([publicKey.statusCode, publicKey.json()], routeKey(route)).toEqual([401, { message: 'UNAUTHORIZED' }]);
        }
      }
    });
  });

  describe("the console's routes open nothing without a console session of the organization, and never with a key or a person's link", () => {
    const sessionRoutes = () => routes.filter((r) => r.access === 'console');

    it('no cookie, a forged one, an API key or a link token is 401 CONSOLE_SIGN_IN_REQUIRED', async () => {
      expect(sessionRoutes().length).toBeGreaterThanOrEqual(6);
      for (const route of sessionRoutes()) {
        const sample = SAMPLES[routeKey(route)]!(ownedByB, svc.orgB);
        const page = { origin: CONSOLE_ORIGIN, 'sec-fetch-site': 'same-origin' };
        const refused: Record<string, string>[] = [
          page,
          { ...page, cookie: `__Host-console-session=${crypto.randomBytes(32).toString('base64url')}` },
          { ...page, cookie: `console-session=${consoleSessions.get(svc.orgB.id)?.admin.split('=')[1]}` },
          { ...page, authorization: svc.orgB.privateKey },
          { ...page, 'x-link-token': ownedByB.signingLink },
        ];
        for (const headers of refused) {
          const res = await send(svc, route, undefined, { ...sample, headers });
          expect([res.statusCode, res.json()], `${routeKey(route)} ${JSON.stringify(headers)}`).toEqual([401, { message: 'CONSOLE_SIGN_IN_REQUIRED' }]);
        }
      }
    });

    it("a change from another site, or without the service's own Origin, is 403 CONSOLE_ORIGIN_REFUSED even with a session", async () => {
      const changes = routes.filter((r) => CONSOLE_ACCESS.has(r.access) && r.method !== 'GET');
      expect(changes.length).toBeGreaterThanOrEqual(4);
      for (const route of changes) {
        const sample = SAMPLES[routeKey(route)]!(ownedByB, svc.orgB);
        const cookie = consoleSessions.get(svc.orgB.id)?.admin ?? '';
        const forged: Record<string, string>[] = [
          { cookie },
          { cookie, origin: 'https://attacker.example' },
          { cookie, origin: CONSOLE_ORIGIN, 'sec-fetch-site': 'cross-site' },
        ];
        for (const headers of forged) {
          const res = await send(svc, route, undefined, { ...sample, headers });
          expect([res.statusCode, res.json()], `${routeKey(route)} ${JSON.stringify(headers)}`).toEqual([403, { message: 'CONSOLE_ORIGIN_REFUSED' }]);
        }
      }
      // The session those requests carried is still open: sign-out was refused with the rest.
      expect((await send(svc, routes.find((r) => routeKey(r) === 'GET /console/api/me')!, undefined, { headers: consoleHeaders(svc.orgB) })).statusCode).toBe(
        200,
      );
    });

    it("organization A's session, of every role, answers B's identifiers as ones nobody owns, and lists nothing of B's", async () => {
      for (const route of sessionRoutes().filter((r) => r.method === 'GET')) {
        for (const role of USER_ROLES) {
          const label = `${routeKey(route)} as ${role}`;
          const unknown = unknownOwned();
          const sample = (owned: Owned) => ({ ...SAMPLES[routeKey(route)]!(owned, svc.orgA), headers: consoleHeaders(svc.orgA, role) });
          const withForeign = await send(svc, route, undefined, sample(ownedByB));
          const withUnknown = await send(svc, route, undefined, sample(unknown));
          expect(withForeign.statusCode, label).toBe(withUnknown.statusCode);
          const normalize = (text: string, owned: Owned) => Object.values(owned).reduce((out: string, value: string) => out.split(value).join('<owned>'), text);
          expect(normalize(withForeign.body, ownedByB), label).toBe(normalize(withUnknown.body, unknown));
          for (const value of [ownedByB.process, ownedByB.template, svc.orgB.email, svc.orgB.id]) expect(withForeign.body, label).not.toContain(value);
        }
      }
    });
  });

  describe('every console route declares the permission it wants, and each role is served exactly the routes its permissions name (src/organizations/user-roles.ts)', () => {
    const sessionRoutes = () => routes.filter((r) => r.access === 'console');

    it('each console route wants the permission this table names: a route added without one fails here', () => {
      expect(Object.fromEntries(sessionRoutes().map((r) => [routeKey(r), r.permission]))).toEqual(CONSOLE_PERMISSIONS);
    });

    it('a viewer changes nothing: every console route that is not a read, but those of their own account, wants a permission a viewer lacks', () => {
      const changes = sessionRoutes().filter((r) => r.method !== 'GET' && r.permission !== 'account.self');
      expect(changes.length).toBeGreaterThanOrEqual(12);
      expect(changes.filter((r) => r.permission === undefined || may('viewer', r.permission)).map(routeKey)).toEqual([]);
    });

    it(
      "each role × each console route: a role that holds the route's permission is served (never 401 nor 403), any other is 403 with the permission's code and an audit line",
      async () => {
        const owned = await own(svc, svc.orgA);
        const domain = svc.orgA.email.split('@')[1];
        const sessions = new Map<UserRole, { cookie: string; email: string }>();
        // Sessions of their own: the walk signs each one out at its end.
        for (const role of USER_ROLES) {
          const email = `walk-${role}@${domain}`;
          sessions.set(role, { email, cookie: await signedInUser(svc, svc.orgA, email, role, '198.51.100.11') });
        }
        const signOut = (r: ApiRoute) => routeKey(r) === 'POST /console/api/sign-out';
        const walk = [...sessionRoutes().filter((r) => !signOut(r)), ...sessionRoutes().filter(signOut)];
        const refused: { email: string; action: string; route: string }[] = [];
        for (const route of walk) {
          const permission = route.permission!;
          const refusal = refusalOf(permission);
          for (const role of USER_ROLES) {
            const { cookie, email } = sessions.get(role)!;
            const label = `${routeKey(route)} as ${role}`;
            const headers = { cookie, origin: CONSOLE_ORIGIN, 'sec-fetch-site': 'same-origin' };
            const res = await send(svc, route, undefined, { ...SAMPLES[routeKey(route)]!(owned, svc.orgA), headers });
            if (may(role, permission) || refusal === undefined) {
              expect([401, 403], `${label}: ${res.body}`).not.toContain(res.statusCode);
            } else {
              expect([res.statusCode, res.json()], label).toEqual([403, { message: refusal.code }]);
              refused.push({ email, action: refusal.action, route: routeKey(route) });
            }
          }
        }
        expect(refused.length).toBeGreaterThanOrEqual(40);
        const audited = await svc.deps.db
          .selectFrom('console_audit')
          .select(['email', 'action', 'detail'])
          .where('organization_id', '=', svc.orgA.id)
          .where('email', 'like', 'walk-%')
          .where('action', 'in', ['ADMIN_REQUIRED', 'REVIEWER_REQUIRED', 'SENDER_REQUIRED'])
          .execute();
        const lines = audited.map((row) => ({ email: row.email, action: row.action, route: JSON.parse(row.detail ?? '{}').route }));
        expect(lines).toEqual(expect.arrayContaining(refused));
        expect(lines).toHaveLength(refused.length);
      },
      ROUTE_TABLE_TIMEOUT_MS,
    );
  });

  describe('the public key column: the public key sits in web pages, so it reads only what the holder of a code may see', () => {
    it('the routes the public key may call are exactly those of the column, and each says in the OpenAPI document what the public key gets', async () => {
      const anyKey = routes.filter((r) => r.access === 'any-key').map(routeKey);
      expect(anyKey.sort()).toEqual(Object.keys(PUBLIC_KEY_COLUMN).sort());
      const spec = (await svc.app.inject({ method: 'GET', url: '/docs/json' })).json();
      for (const route of routes.filter((r) => r.access === 'any-key')) {
        const operation = spec.paths[route.url][route.method.toLowerCase()];
        expect(operation['x-public-key'], routeKey(route)).toEqual(expect.any(String));
        expect(operation.description, routeKey(route)).toContain('With the public key:');
      }
    });

    it('on each, the fields only the private key sees are absent from the public answer and present in the private one, photos included', async () => {
      for (const route of routes.filter((r) => r.access === 'any-key')) {
        const column = PUBLIC_KEY_COLUMN[routeKey(route)]!;
        const sample = SAMPLES[routeKey(route)]!(ownedByB, svc.orgB);
        const full = await send(svc, route, svc.orgB.privateKey, { ...sample, query: { ...sample.query, ...column.privateQuery } });
        expect(full.statusCode, routeKey(route)).toBe(200);
        expect(
          column.hidden.filter((field) => !keysOf(full.json()).has(field)),
          `${routeKey(route)}: the sample holds every hidden field`,
        ).toEqual([]);
        const reduced = await send(svc, route, svc.orgB.publicKey, sample);
        expect(reduced.statusCode, routeKey(route)).toBe(200);
        expect(
          column.hidden.filter((field) => keysOf(reduced.json()).has(field)),
          routeKey(route),
        ).toEqual([]);
        expect(reduced.body, routeKey(route)).not.toContain('/photos/');
      }
    });

    it('on each, the requests kept for the private key (listings, photos) are 403 PRIVATE_KEY_REQUIRED and name nothing of the organization', async () => {
      for (const route of routes.filter((r) => r.access === 'any-key')) {
        for (const query of PUBLIC_KEY_COLUMN[routeKey(route)]!.refused.map((refused) => refused(ownedByB))) {
          const label = `${routeKey(route)} ${JSON.stringify(query)}`;
          expect((await send(svc, route, svc.orgB.privateKey, { query })).statusCode, label).toBe(200);
          const refused = await send(svc, route, svc.orgB.publicKey, { query });
          expect(refused.statusCode, label).toBe(403);
          expect(refused.json().message, label).toMatch(/^PRIVATE_KEY_REQUIRED: /);
          expect(refused.body, label).not.toContain(ownedByB.process);
        }
      }
    });

    it("on each, another organization's public key answers B's identifiers as ones nobody owns", async () => {
      for (const route of routes.filter((r) => r.access === 'any-key')) {
        const sample = SAMPLES[routeKey(route)]!;
        const unknown = unknownOwned();
        const withForeign = await send(svc, route, svc.orgA.publicKey, sample(ownedByB, svc.orgA));
        const withUnknown = await send(svc, route, svc.orgA.publicKey, sample(unknown, svc.orgA));
        expect(withForeign.statusCode, routeKey(route)).toBe(withUnknown.statusCode);
        const normalize = (text: string, owned: Owned) => Object.values(owned).reduce((out: string, value: string) => out.split(value).join('<owned>'), text);
        expect(normalize(withForeign.body, ownedByB), routeKey(route)).toBe(normalize(withUnknown.body, unknown));
      }
    });
  });

  describe("the people's API opens nothing without the secret token of a link", () => {
    it('no token, a malformed one, or one nobody holds is a 404, and an API key is no token', async () => {
      const linkRoutes = routes.filter((r) => r.access === 'link-token');
      expect(linkRoutes.length).toBeGreaterThanOrEqual(14);
      for (const route of linkRoutes) {
        const sample = SAMPLES[routeKey(route)]!(unknownOwned(), svc.orgA);
        const refusedHeaders: Record<string, string>[] = [
          {},
          { 'x-link-token': 'short' },
          { 'x-link-token': '../../etc/passwd' },
          { authorization: svc.orgB.privateKey },
        ];
        for (const headers of refusedHeaders) {
          const res = await send(svc, route, undefined, { ...sample, headers });
          expect(res.statusCode, `${routeKey(route)} ${JSON.stringify(headers)}`).toBe(404);
          expect(res.json()).toEqual({ message: 'LINK_NOT_FOUND' });
        }
        const unknown = await send(svc, route, undefined, sample);
        expect(unknown.statusCode, routeKey(route)).toBe(404);
        expect(unknown.json().message).toMatch(/^(SIGNING_LINK_NOT_FOUND|VERIFACE_NOT_FOUND|REFERENCE_LINK_NOT_FOUND|READING_LINK_NOT_FOUND)/);
      }
    });
  });

  describe("another organization's ids and codes answer exactly like unknown ones", () => {
    it('every route, called by organization A with what B owns, answers as with identifiers nobody owns', async () => {
      const compared: string[] = [];
      for (const route of routes.filter((r) => r.access === 'private-key' || r.access === 'any-key' || r.access === 'operator')) {
        const unknown = unknownOwned();
        const sample = SAMPLES[routeKey(route)]!;
        // A route whose request names nothing an organization owns has nothing to compare.
        if (JSON.stringify(sample(ownedByB, svc.orgA)) === JSON.stringify(sample(unknown, svc.orgA))) continue;
        const withForeign = await send(svc, route, svc.orgA.privateKey, sample(ownedByB, svc.orgA));
        const withUnknown = await send(svc, route, svc.orgA.privateKey, sample(unknown, svc.orgA));
        // Identifiers may be echoed in messages (`WEBHOOK_NOT_FOUND: <name>`) and new ids differ: compare shapes.
        const normalize = (text: string, owned: Owned) =>
          Object.values(owned)
            .reduce((out: string, value: string) => out.split(value).join('<owned>'), text)
            .replace(/"(id|code|document|secret|created_at|updated_at|message_id)":"[^"]*"/g, '"$1":"<new>"')
            .replace(/https?:\/\/[^"]*/g, '<url>');
        expect(withForeign.statusCode, routeKey(route)).toBe(withUnknown.statusCode);
        expect(normalize(withForeign.body, ownedByB), routeKey(route)).toBe(normalize(withUnknown.body, unknown));
        compared.push(routeKey(route));
      }
      // Every route that takes an identifier of the organization's was compared.
      expect(compared.length).toBeGreaterThanOrEqual(18);
      // And B still has everything it owned.
      const key = svc.orgB.privateKey;
      expect((await call(svc.app, 'GET', '/template', { key, query: { id: ownedByB.template } })).statusCode).toBe(200);
      expect((await call(svc.app, 'GET', '/template/reference', { key, query: { template: ownedByB.template } })).json().data).toHaveLength(1);
      expect((await call(svc.app, 'GET', '/webhooks', { key })).json().data.map((w: { name: string; enabled: boolean }) => [w.name, w.enabled])).toContainEqual(
        [ownedByB.webhook, true],
      );
      expect((await call(svc.app, 'GET', '/document', { key, query: { code: ownedByB.process } })).json().status).not.toBe('CANCELLED');
    });
  });

  describe("every route answers a success with its declared body, built from its schemas' examples", () => {
    it('each route has success calls here', () => {
      expect(routes.map(routeKey).filter((key) => !(key in SUCCESS))).toEqual([]);
    });

    it(
      "each success call answers 200, and the answer is the route's declared response",
      async () => {
        // The face matcher decides as a real one would, so the comparisons answer too (the suite's service has none).
        const app = await buildApp(svc.config, { ...svc.deps, faceMatcher: matcher(95) });
        const org = svc.orgA;
        const context: SuccessContext = {
          svc,
          org,
          owned: await own(svc, org),
          async process(signer) {
            const res = await call(svc.app, 'POST', '/document/upload', { key: org.privateKey, body: pdfProcess(org, { signProfile: [signer] }) });
            expect(res.statusCode, res.body).toBe(200);
            const participant = (await stored(svc, org, res.json().code)).participants[0]!;
            return { code: res.json().code, token: participant.link_token, participantId: participant.participant_id };
          },
          async console(role = 'admin') {
            // Each from an address of its own: one address asks for at most 10 sign-in e-mails in a quarter of an hour.
            const cookie = await signedInUser(
              svc,
              org,
              `${role}-${upper(6).toLowerCase()}@acme.test`,
              role,
              `198.18.${Math.floor(++consoleAddresses / 250)}.${(consoleAddresses % 250) + 1}`,
            );
            return { cookie, origin: CONSOLE_ORIGIN, 'sec-fetch-site': 'same-origin' };
          },
        };
        try {
          for (const route of routes) {
            for (const success of await SUCCESS[routeKey(route)]!(context)) {
              const takesKey = route.access === 'private-key' || route.access === 'any-key' || route.access === 'operator';
              const jsonBody =
                route.body.describe().keys && !route.rawBody ? { ...(exampleOf(route.body) as Record<string, unknown>), ...success.body } : undefined;
              const res = await app.inject({
                method: route.method,
                url: success.url ?? route.url,
                // Its own address, so that the limits the other tests reached do not count here.
                remoteAddress: '198.51.100.7',
                headers: { ...(takesKey ? { authorization: success.key === 'public' ? org.publicKey : org.privateKey } : {}), ...success.headers },
                ...(success.query ? { query: success.query } : {}),
                ...(success.payload !== undefined ? { payload: success.payload } : jsonBody && Object.keys(jsonBody).length > 0 ? { payload: jsonBody } : {}),
              });
              expect(res.statusCode, `${routeKey(route)} ${JSON.stringify(success).slice(0, 300)}: ${res.body.slice(0, 300)}`).toBe(200);
              answers.check(route, res);
            }
          }
        } finally {
          await app.close();
        }
        expect([...answers.problems]).toEqual([]);
      },
      ROUTE_TABLE_TIMEOUT_MS,
    );
  });

  describe('bad input on every route is never a 5xx and always {message}', () => {
    const text = fc.string({ maxLength: 40, unit: 'binary' });
    const query = fc.dictionary(
      fc.oneof(text, fc.constantFrom('id', 'code', 'name', 'template', 'limit', 'cursor', 'status', 'country', 'expires', 'signature')),
      fc.oneof(text, fc.array(text, { maxLength: 3 })),
      { maxKeys: 4 },
    );
    const json = fc.jsonValue({ maxDepth: 4 });

    it(
      'arbitrary query strings and JSON bodies, and valid requests with one field replaced',
      async () => {
        for (const route of routes) {
          const sample = SAMPLES[routeKey(route)]!(ownedByB, svc.orgA);
          const keys = Object.keys(sample.body ?? {});
          const body = fc.oneof(
            json,
            fc
              .tuple(fc.nat(), fc.jsonValue({ maxDepth: 3 }))
              .map(([index, value]) => (keys.length === 0 ? value : { ...sample.body, [keys[index % keys.length]!]: value })),
          );
          await fc.assert(
            fc.asyncProperty(query, body, async (q, b) => {
              const res = answers.check(
                route,
                await svc.app.inject({
                  method: route.method,
                  url: route.url.replace('*', 'templates/000000000000000000000000/mask.html'),
                  headers: { authorization: svc.orgA.privateKey, 'content-type': 'application/json', ...sample.headers },
                  query: q,
                  ...(route.method === 'POST' || route.method === 'PUT' ? { payload: JSON.stringify(b) } : {}),
                }),
              );
              expectErrorShape(res, `${routeKey(route)} ${JSON.stringify(q)} ${JSON.stringify(b).slice(0, 200)}`);
            }),
            { numRuns: 100, seed: 20261123 },
          );
        }
      },
      ROUTE_TABLE_TIMEOUT_MS,
    );

    it('no body at all, or an empty one, on every route', async () => {
      for (const route of routes) {
        for (const headers of [{}, { 'content-type': 'application/json' }]) {
          const res = answers.check(
            route,
            await svc.app.inject({
              method: route.method,
              url: route.url.replace('*', 'templates/000000000000000000000000/mask.html'),
              headers: { authorization: svc.orgA.privateKey, ...headers },
            }),
          );
          expectErrorShape(res, `${routeKey(route)} without a body ${JSON.stringify(headers)}`);
        }
      }
    });

    it('bodies that are not JSON, or not of the declared media type', async () => {
      for (const route of routes.filter((r) => r.method === 'POST' || r.method === 'PUT')) {
        await fc.assert(
          fc.asyncProperty(
            fc.string({ maxLength: 200 }),
            fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'),
            async (raw, type) => {
              const res = answers.check(
                route,
                await svc.app.inject({
                  method: route.method,
                  url: route.url.replace('*', 'templates/000000000000000000000000/mask.html'),
                  headers: { authorization: svc.orgA.privateKey, 'content-type': type },
                  payload: raw,
                }),
              );
              expectErrorShape(res, `${routeKey(route)} ${type} ${raw.slice(0, 100)}`);
            },
          ),
          { numRuns: 25, seed: 20261123 },
        );
      }
    });
  });

  describe('every answer this suite got is one its route declares: success bodies by its response schema, errors by its codes', () => {
    it('no route answered anything it does not declare', () => {
      expect([...answers.problems].sort()).toEqual([]);
    });
  });

  describe('file URLs the service issued are refused once altered', () => {
    it("organization A's signed upload URL cannot be turned to B's template", async () => {
      const res = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() });
      const altered = localPath(res.json().urls.mask).replace(res.json().id, ownedByB.template);
      const put = await svc.app.inject({ method: 'PUT', url: altered, headers: { 'content-type': 'text/html' }, payload: '<p>x</p>' });
      expect(put.statusCode).toBe(403);
      expect(put.json()).toEqual({ message: 'URL_SIGNATURE_INVALID' });
    });
  });
});
