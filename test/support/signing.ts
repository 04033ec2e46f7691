import { expect } from 'vitest';
import type { ServiceContext } from '../../src/context.js';
import type { OutboxRow, ParticipantRow, ProcessRow } from '../../src/db/schema.js';
import { expireDueProcesses } from '../../src/documents/lifecycle/process-sweeps.js';
import { approveDocument, openDocument, rejectDocument, type SigningOutcome, signDocument } from '../../src/documents/participant/signer-flow.js';
import { findParticipantByToken, findProcessByCode, listDocuments, listParticipants } from '../../src/documents/queries.js';
import { ANSWERS, COMPLETE_HTML, sampleTemplate } from './fixtures.js';
import { onePagePdf } from './pdf-files.js';

export { ANSWERS, COMPLETE_HTML };

import { call, localPath, type TestOrganization, type TestService } from './service.js';

/** A small PDF the service accepts as it is: one page, with its cross-reference table. */
export const PDF_BYTES = onePagePdf('Lease');
export const PDF_BASE64 = PDF_BYTES.toString('base64');

export function signers(count = 2): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({ name: `Signer ${i}`, email: `signer${i}@people.test` }));
}

/** A body for POST /document/upload with an inline PDF; fields given replace the defaults. */
export function pdfProcess(org: TestOrganization, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { email: org.email, name: 'Lease', file: PDF_BASE64, signProfile: signers(), ...overrides };
}

/** A template of the organization (the sample one unless `body` is given) with both HTML files uploaded. */
export async function templateWithHtml(svc: TestService, org: TestOrganization, html = COMPLETE_HTML, body = sampleTemplate()): Promise<string> {
  const res = await call(svc.app, 'POST', '/template', { key: org.privateKey, body });
  expect(res.statusCode).toBe(200);
  const { id, urls } = res.json();
  for (const url of [urls.mask, urls.complete]) {
    const up = await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'text/html' }, payload: html });
    expect(up.statusCode).toBe(200);
  }
  return id;
}

/** Creates a process through the API and answers its code; the call must succeed. */
export async function createProcess(
  svc: TestService,
  org: TestOrganization,
  route: '/document/upload' | '/document/save' | '/document/many',
  body: Record<string, unknown>,
): Promise<string> {
  const res = await call(svc.app, 'POST', route, { key: org.privateKey, body });
  expect(res.json()).toMatchObject({ code: expect.stringMatching(/^[A-Z0-9]{10}$/) });
  return res.json().code;
}

export async function stored(svc: TestService, org: TestOrganization, code: string): Promise<{ process: ProcessRow; participants: ParticipantRow[] }> {
  const process = await findProcessByCode(svc.deps.db, org.id, code);
  if (!process) throw new Error(`process ${code} not stored`);
  return { process, participants: await listParticipants(svc.deps.db, process.id) };
}

/** Opens every document of the link's process, as the signing page does when it shows them. */
export async function openEveryDocument(ctx: ServiceContext, token: string): Promise<void> {
  const participant = await findParticipantByToken(ctx.db, token);
  if (!participant) return;
  for (const document of await listDocuments(ctx.db, participant.process_id)) await openDocument(ctx, { token, document: document.position });
}

/** Signs as a person does on the page: every document opened first, since a signer signs only what they opened. */
export async function readAndSign(ctx: ServiceContext, options: Parameters<typeof signDocument>[1]): Promise<SigningOutcome> {
  await openEveryDocument(ctx, options.token);
  return signDocument(ctx, options);
}

/** Messages queued since the test started, oldest first, with their payloads parsed. */
export async function outbox(svc: TestService, kind: OutboxRow['kind']): Promise<(OutboxRow & { body: Record<string, unknown> })[]> {
  const rows = await svc.deps.db.selectFrom('outbox').selectAll().where('kind', '=', kind).orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => ({ ...row, body: JSON.parse(row.payload) }));
}

/** Webhook event types queued for the organization, in order. */
export async function webhookTypes(svc: TestService, org: TestOrganization): Promise<string[]> {
  const rows = await svc.deps.db
    .selectFrom('outbox')
    .select(['event_type'])
    .where('kind', '=', 'webhook')
    .where('organization_id', '=', org.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.event_type ?? '');
}

/**
 * Brings a process without identity validations out of signature the way it happens for real:
 * everyone signs (FINISH), the first participant rejects, the expiry sweep runs after its date
 * (the process must have one), or the creator cancels through the API.
 */
export async function endProcess(svc: TestService, org: TestOrganization, code: string, to: 'FINISH' | 'REJECTED' | 'EXPIRED' | 'CANCELLED'): Promise<void> {
  const { process, participants } = await stored(svc, org, code);
  if (to === 'CANCELLED') {
    const res = await call(svc.app, 'POST', '/document/cancel', {
      key: org.privateKey,
      body: { codes: [code], message: 'No longer needed', email: org.email },
    });
    expect(res.json()).toEqual({ success: 1, errors: { cant: 0 } });
  } else if (to === 'EXPIRED') {
    if (process.expires_at === null) throw new Error('only a process with an expiry date expires');
    svc.clock.advance(Date.parse(process.expires_at) - svc.clock.now().getTime() + 1);
    await expireDueProcesses(svc.deps);
  } else if (to === 'REJECTED') {
    const first = participants[0];
    if (!first) throw new Error('no participant');
    await rejectDocument(svc.deps, { token: first.link_token, reason: 'Not agreed' });
  } else {
    for (const turn of [...new Set(participants.map((p) => p.sign_order))].sort((a, b) => a - b)) {
      for (const p of participants.filter((x) => x.sign_order === turn)) {
        if (p.role === 'APPROVER') await approveDocument(svc.deps, { token: p.link_token });
        else await readAndSign(svc.deps, { token: p.link_token });
      }
    }
  }
  expect((await stored(svc, org, code)).process.status).toBe(to);
}

/** A process of `org` whose one signer must photograph their face and their identity document, declaring `identification`. */
export async function identifiedSigner(
  svc: TestService,
  org: TestOrganization,
  identification = '1001001010',
): Promise<{ code: string; token: string; processId: string; participantId: string }> {
  const res = await call(svc.app, 'POST', '/document/upload', {
    key: org.privateKey,
    body: {
      email: org.email,
      name: 'Lease agreement',
      file: PDF_BASE64,
      signProfile: [
        {
          name: 'Juan Pérez',
          email: `juan-${Math.random().toString(36).slice(2)}@people.test`,
          identification,
          identificationType: 'CC',
          country: 'CO',
          camera: true,
          options: { camera: 'identification' },
        },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const code: string = res.json().code;
  const process = await findProcessByCode(svc.deps.db, org.id, code);
  const [participant] = process ? await listParticipants(svc.deps.db, process.id) : [];
  if (!process || !participant) throw new Error('created process not found');
  return { code, token: participant.link_token, processId: process.id, participantId: participant.id };
}
