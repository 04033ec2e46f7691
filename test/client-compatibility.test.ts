import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectDocument } from '../src/documents/participant/signer-flow.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { ANSWERS, COMPLETE_HTML, sampleTemplate, verifaceBody } from './support/fixtures.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { PDF_BASE64, readAndSign, stored } from './support/signing.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * A client written for the real service, replayed: each request is an example of
 * ../shared/REFERENCE.md (the section in each test's name), sent as that client sends it, and each
 * answer is held to the shape the reference documents. Where this service differs on purpose (the
 * public key's reach) the test says so. A receiver configured through PUT /company gets the flat
 * webhook bodies of §11.2. Two organizations: neither sees the other's processes nor webhooks.
 */
const HOUR = 60 * 60 * 1000;
const CODE = /^[A-Z0-9]{10}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(dialects)("a client of the real service's API v1.5, replayed against this one (%s)", (dialect) => {
  let svc: TestService;
  const receivers = { A: new WebhookReceiver(), B: new WebhookReceiver() };
  let templateId = '';

  beforeAll(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    for (const [name, org] of [
      ['A', svc.orgA],
      ['B', svc.orgB],
    ] as const) {
      const receiver = receivers[name];
      receiver.now = () => svc.clock.now();
      const url = await receiver.start();
      // §10.2: the company's webhooks, `default` among them, with the static header.
      const put = await call(svc.app, 'PUT', '/company', {
        key: org.privateKey,
        body: { webhooks: [{ id: 'default', description: 'Webhook principal', url, header: { key: 'Authorization', value: `Bearer ${name}` } }] },
      });
      expect(put.json()).toEqual({ response: 'OK' });
      receiver.secret = (await call(svc.app, 'POST', '/webhooks/rotate-secret', { key: org.privateKey, body: { name: 'default' } })).json().secret;
    }
  });
  afterAll(async () => {
    await svc.close();
    for (const receiver of Object.values(receivers)) await receiver.close();
  });

  const prk = (org: TestOrganization) => org.privateKey;
  const flush = async () => {
    while ((await svc.deps.worker.deliverDue()) > 0);
  };
  const bodies = (receiver: WebhookReceiver, code: string) =>
    receiver.received
      .filter((hook) => hook.json.code === code)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((hook) => hook.json);
  const upload = async (org: TestOrganization, extra: Record<string, unknown> = {}) => {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: prk(org),
      body: {
        email: org.email,
        name: 'Contrato de prueba del API',
        file: PDF_BASE64,
        signProfile: [{ name: 'Juan Pérez', email: 'juan@people.test', phone: '+573001234567' }],
        ...extra,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().document as string;
  };

  it('§1.2 the raw key in Authorization: GET with the public key, writes with the private key; Bearer, a wrong kind or none is 401 {message}', async () => {
    expect((await call(svc.app, 'GET', '/company', { key: svc.orgA.publicKey })).statusCode).toBe(200);
    for (const key of [`Bearer ${svc.orgA.privateKey}`, svc.orgA.publicKey, undefined]) {
      const res = await call(svc.app, 'POST', '/template', { ...(key ? { key } : {}), body: sampleTemplate() });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
  });

  it('§2.1 templates: POST {id, urls}, both HTML uploads (text/html, binary/octet-stream), GET list and detail, PUT, DELETE', async () => {
    const created = await call(svc.app, 'POST', '/template', { key: prk(svc.orgA), body: sampleTemplate() });
    expect(created.json()).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), urls: { mask: expect.any(String), complete: expect.any(String) } });
    templateId = created.json().id;
    const { mask, complete } = created.json().urls;
    for (const [url, type] of [
      [mask, 'text/html'],
      [complete, 'binary/octet-stream'],
    ]) {
      const put = await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': type }, payload: COMPLETE_HTML });
      expect(put.statusCode, type).toBe(200);
    }
    // Listings take the private key here: the public key, which sits in web pages, reads one template by its id.
    const list = (await call(svc.app, 'GET', '/template', { key: prk(svc.orgA) })).json();
    expect(list.data).toContainEqual(
      expect.objectContaining({
        id: templateId,
        name: 'Purchase agreement',
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
        status: 'active',
      }),
    );
    const detail = (await call(svc.app, 'GET', '/template', { key: svc.orgA.publicKey, query: { id: templateId } })).json();
    expect(detail).toMatchObject({ id: templateId, config: expect.any(Array), sign: expect.any(Array), signatureProfile: expect.any(Array), preBuild: false });
    expect((await call(svc.app, 'GET', '/template', { key: svc.orgB.publicKey, query: { id: templateId } })).statusCode).toBe(404);
    const updated = await call(svc.app, 'PUT', '/template', { key: prk(svc.orgA), body: { id: templateId, description: 'Compraventa' } });
    expect(updated.json()).toEqual({ id: templateId, urls: { mask: expect.any(String), complete: expect.any(String) } });
    const spare = (await call(svc.app, 'POST', '/template', { key: prk(svc.orgA), body: sampleTemplate() })).json().id;
    expect((await call(svc.app, 'DELETE', '/template', { key: prk(svc.orgB), query: { id: spare } })).json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
    expect((await call(svc.app, 'DELETE', '/template', { key: prk(svc.orgA), query: { id: spare } })).json()).toEqual({
      id: spare,
      deleted: true,
      references: 0,
    });
  });

  it('§3.1 POST /document/save as its example: {email, name, notification: false, document, sign: true, data} answers {document, signProfile: [{id, email}]}', async () => {
    const res = await call(svc.app, 'POST', '/document/save', {
      key: prk(svc.orgA),
      body: { email: svc.orgA.email, name: 'Compraventa', notification: false, document: templateId, sign: true, data: ANSWERS },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().document).toMatch(CODE);
    expect(res.json().signProfile).toEqual([
      expect.objectContaining({ id: expect.any(String), email: 'ana@buyer.test' }),
      expect.objectContaining({ id: expect.any(String), email: 'luis@seller.test' }),
    ]);
  });

  it('§3.2 POST /document/upload: base64 `file` answers {document}; `compress: true` answers {document, url} to PUT the PDF to', async () => {
    expect(await upload(svc.orgA)).toMatch(CODE);
    const compress = await call(svc.app, 'POST', '/document/upload', {
      key: prk(svc.orgA),
      body: { email: svc.orgA.email, name: 'Grande', compress: true, signProfile: [{ name: 'Juan Pérez', email: 'juan@people.test' }] },
    });
    expect(compress.json()).toMatchObject({ document: expect.stringMatching(CODE), url: expect.any(String) });
  });

  it('§3.4 GET /document?code: {url, name, code, status, data: {camera, otpCode, signFinish, signProfile}, signProfile: [{name, email, id, status}], custom}', async () => {
    const code = await upload(svc.orgA, { custom: { externalId: 'ORDER-123' } });
    const res = (await call(svc.app, 'GET', '/document', { key: prk(svc.orgA), query: { code } })).json();
    expect(res).toMatchObject({
      name: 'Contrato de prueba del API',
      code,
      status: 'CREATED',
      custom: { externalId: 'ORDER-123' },
      signProfile: [{ name: 'Juan Pérez', email: 'juan@people.test', id: expect.any(String), status: 'NOTIFICATION' }],
    });
    // The public key sits in web pages: it reads the process's state, never the participants' e-mails.
    const reduced = await call(svc.app, 'GET', '/document', { key: svc.orgA.publicKey, query: { code } });
    expect(reduced.json()).toMatchObject({ code, status: 'CREATED' });
    expect(reduced.body).not.toContain('juan@people.test');
    // §1.6 and §16.14: not found is 400 DOCUMENT_NOT_FOUND, another organization's code included.
    const foreign = await call(svc.app, 'GET', '/document', { key: svc.orgB.publicKey, query: { code } });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
  });

  it('§3.5 GET /document/roadmap: {name, documentCode, createdAt, author, participants, activityLog}, empty keys left out', async () => {
    const code = await upload(svc.orgA);
    const res = (await call(svc.app, 'GET', '/document/roadmap', { key: prk(svc.orgA), query: { code } })).json();
    expect(res).toMatchObject({
      name: 'Contrato de prueba del API',
      documentCode: code,
      createdAt: expect.stringMatching(ISO),
      author: { email: svc.orgA.email },
      participants: [{ id: expect.any(String), name: 'Juan Pérez', role: 'SIGNER', email: 'juan@people.test', phone: '+573001234567' }],
    });
    expect(res.activityLog.length).toBeGreaterThan(0);
    for (const line of res.activityLog) {
      expect(line).toMatchObject({ action: expect.any(String), participant: expect.any(String), timestamp: expect.stringMatching(ISO) });
      for (const value of Object.values(line)) expect(value === null || value === '').toBe(false);
    }
  });

  it('§3.6 POST /document/cancel {codes, message, email} answers {success, errors: {cant, documents?}}', async () => {
    const code = await upload(svc.orgA);
    const body = { codes: [code], message: 'Ya no aplica', email: svc.orgA.email };
    expect((await call(svc.app, 'POST', '/document/cancel', { key: prk(svc.orgA), body })).json()).toEqual({ success: 1, errors: { cant: 0 } });
    expect((await call(svc.app, 'POST', '/document/cancel', { key: prk(svc.orgA), body })).json()).toEqual({
      success: 0,
      errors: { cant: 1, documents: [code] },
    });
  });

  it('§3.7 POST /document/reminder {code: CODE+signerId} answers {message: OK}; §3.8 PUT /document/reactivate {code, email} answers {notifications, users}', async () => {
    const code = await upload(svc.orgA);
    const { participants } = await stored(svc, svc.orgA, code);
    const [juan] = participants;
    svc.clock.advance(HOUR + 1000);
    const reminder = await call(svc.app, 'POST', '/document/reminder', { key: prk(svc.orgA), body: { code: `${code}${juan?.participant_id}` } });
    expect(reminder.json()).toEqual({ message: 'OK' });
    await rejectDocument(svc.deps, { token: juan?.link_token ?? '', reason: 'No estoy de acuerdo' });
    const reactivated = await call(svc.app, 'PUT', '/document/reactivate', { key: prk(svc.orgA), body: { code, email: svc.orgA.email } });
    expect(reactivated.json()).toEqual({ notifications: 1, users: ['Juan Pérez'] });
    const foreign = await call(svc.app, 'PUT', '/document/reactivate', { key: prk(svc.orgB), body: { code, email: svc.orgB.email } });
    expect(foreign.json()).toEqual({ message: 'PROCESS_NOT_FOUND' });
  });

  it('§4.1 POST /document/many with fewer than two documents is 400 DOCUMENTS_MIN_TWO', async () => {
    const res = await call(svc.app, 'POST', '/document/many', {
      key: prk(svc.orgA),
      body: {
        email: svc.orgA.email,
        name: 'Paquete',
        signProfile: [{ name: 'Juan Pérez', email: 'juan@people.test' }],
        documents: [{ document: templateId, data: ANSWERS }],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'DOCUMENTS_MIN_TWO' });
  });

  it('§3.2 and §5.2 files asked of a signer; GET /attachments {package, name, finish, signers: [{userId, email, name}]} (the private key here)', async () => {
    const code = await upload(svc.orgA, {
      signProfile: [{ name: 'Juan Pérez', email: 'juan@people.test', files: [{ name: 'Documento Identidad' }, { name: 'RUT', optional: true }] }],
    });
    const res = (await call(svc.app, 'GET', '/attachments', { key: prk(svc.orgA), query: { code } })).json();
    expect(res).toMatchObject({
      package: code,
      name: 'Contrato de prueba del API',
      finish: false,
      signers: [{ userId: expect.any(String), email: 'juan@people.test', name: 'Juan Pérez' }],
    });
    const one = (await call(svc.app, 'GET', '/attachments', { key: prk(svc.orgA), query: { code, userId: res.signers[0].userId } })).json();
    expect(one.signer).toMatchObject({ userId: res.signers[0].userId, status: 'pending', files: [{ name: 'Documento Identidad' }, { name: 'RUT' }] });
    expect((await call(svc.app, 'GET', '/attachments', { key: prk(svc.orgB), query: { code } })).json()).toEqual({ message: 'ATTACHMENT_NOT_FOUND' });
  });

  it('§8.1 POST /veriface answers {code} of 16 characters; an expiry within 3 days is {message: EXPIRED_DATE_INVALID}; §8.2 GET /veriface?code', async () => {
    const res = await call(svc.app, 'POST', '/veriface', { key: prk(svc.orgA), body: verifaceBody(svc.orgA.email, { custom: { reference: 'RF-XXXXXXX' } }) });
    expect(res.json()).toEqual({ code: expect.stringMatching(/^[A-Z0-9]{16}$/) });
    const soon = new Date(svc.clock.now().getTime() + 24 * HOUR).toISOString();
    const refused = await call(svc.app, 'POST', '/veriface', { key: prk(svc.orgA), body: verifaceBody(svc.orgA.email, { expiredDate: soon }) });
    expect(refused.json()).toEqual({ message: 'EXPIRED_DATE_INVALID' });
    const read = (await call(svc.app, 'GET', '/veriface', { key: prk(svc.orgA), query: { code: res.json().code } })).json();
    expect(read).toMatchObject({
      email: svc.orgA.email,
      platform: 'whatsapp',
      status: 'INPROGRESS',
      country: 'CO',
      identificationType: 'CC',
      createdAt: expect.stringMatching(ISO),
    });
  });

  it('§10 GET /company (public key) and PUT /company: uxOptions merged key by key, webhooks without `default` refused', async () => {
    const put = (body: Record<string, unknown>) => call(svc.app, 'PUT', '/company', { key: prk(svc.orgB), body });
    expect((await put({ uxOptions: { primaryColor: '#021C30', alternateColor: '#A557F2' } })).json()).toEqual({ response: 'OK' });
    expect((await put({ uxOptions: { primaryColor: '#123456' } })).json()).toEqual({ response: 'OK' });
    const company = (await call(svc.app, 'GET', '/company', { key: svc.orgB.publicKey })).json();
    expect(company).toMatchObject({ id: expect.any(String), name: 'Globex', uxOptions: { alternateColor: '#A557F2' }, webhooks: expect.any(Array) });
    expect(company.uxOptions.primaryColor.toLowerCase()).toBe('#123456');
    const noDefault = await put({ webhooks: [{ id: 'other', url: 'https://hooks.example.test/other' }] });
    expect(noDefault.statusCode).toBe(400);
  });

  it('§11.2 the receiver gets the flat bodies: CREATE {code, name, status, url}, NOTIFICATION {signer}, FINISH {url}; REJECT then REJECTED {signer, message}; never another organization’s', async () => {
    const signed = await upload(svc.orgA, { tags: ['document tag'] });
    const { process, participants } = await stored(svc, svc.orgA, signed);
    await readAndSign(svc.deps, { token: participants[0]?.link_token ?? '' });
    // FINISH is sent once the signed files are stored: its `url` is the file a receiver keeps.
    expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
    const rejected = await upload(svc.orgA);
    const [juan] = (await stored(svc, svc.orgA, rejected)).participants;
    await rejectDocument(svc.deps, { token: juan?.link_token ?? '', reason: 'message' });
    await flush();
    const file = expect.stringMatching(/^http:\/\/service\.test\/files\/\S+\.pdf\?/);
    const signer = { id: participants[0]?.participant_id, name: 'Juan Pérez', email: 'juan@people.test', phone: '+573001234567' };
    const name = 'Contrato de prueba del API';
    const tags = ['document tag'];
    expect(bodies(receivers.A, signed)).toEqual([
      { code: signed, name, status: 'CREATE', url: file, tags },
      { code: signed, name, status: 'NOTIFICATION', signer, tags },
      { code: signed, name, status: 'FINISH', url: file, tags },
    ]);
    const ending = bodies(receivers.A, rejected).filter((body) => body.status !== 'CREATE');
    expect(ending.map((body) => body.status)).toEqual(['REJECT', 'REJECTED']);
    expect(ending[1]).toMatchObject({ code: rejected, signer: { id: juan?.participant_id, name: 'Juan Pérez' }, message: 'message' });
    for (const hook of receivers.A.received) {
      expect(hook.verified).toBe(true);
      expect(hook.headers.authorization).toBe('Bearer A');
    }
    expect(receivers.B.received.filter((hook) => hook.json.code === signed || hook.json.code === rejected)).toEqual([]);
  });
});
