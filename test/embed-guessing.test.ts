import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { updateSettings } from '../src/organizations/settings.js';
import { verifaceBody } from './support/fixtures.js';
import { pdfToolsInstalled, pdftotext } from './support/pdf-tools.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { openEveryDocument, stored } from './support/signing.js';

const ORIGIN_A = 'https://app.acme.test';
const OTHER_ORIGIN_A = 'https://shop.acme.test';
const ORIGIN_B = 'https://app.globex.test';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

async function pdfBase64(): Promise<string> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  document.addPage([400, 300]).drawText('Lease', { x: 40, y: 200, font, size: 14 });
  return Buffer.from(await document.save()).toString('base64');
}

async function startService(dialect: (typeof dialects)[number]): Promise<TestService> {
  const svc = await startTestService(dialect);
  await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { sdkOrigins: [ORIGIN_A, OTHER_ORIGIN_A] } });
  await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { sdkOrigins: [ORIGIN_B] } });
  return svc;
}

/** A process of two signers; answers its code and each participant's SDK `document` and link token. */
async function twoSigners(
  svc: TestService,
  org: TestOrganization,
): Promise<{ code: string; processId: string; people: { document: string; id: string; token: string }[] }> {
  const res = await call(svc.app, 'POST', '/document/upload', {
    key: org.privateKey,
    body: {
      email: org.email,
      name: 'Lease',
      file: await pdfBase64(),
      signProfile: [
        { name: 'Ana Gómez', email: 'ana@people.test' },
        { name: 'Luis Pérez', email: 'luis@people.test' },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { code } = res.json() as { code: string };
  const { process, participants } = await stored(svc, org, code);
  participants.sort((a, b) => a.position - b.position);
  return {
    code,
    processId: process.id,
    people: participants.map((p) => ({ document: `${code}${p.participant_id}`, id: p.participant_id, token: p.link_token })),
  };
}

function embed(svc: TestService, body: Record<string, string>, remoteAddress = '127.0.0.1') {
  return svc.app.inject({ method: 'POST', url: '/people/embed', payload: body, remoteAddress });
}

function mint(svc: TestService, org: TestOrganization, body: Record<string, string>) {
  return call(svc.app, 'POST', '/sdk/token', { key: org.privateKey, body });
}

async function mintedToken(svc: TestService, org: TestOrganization, document: string, origin: string): Promise<string> {
  const res = await mint(svc, org, { document, origin });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { token: string }).token;
}

const REFUSED = { message: 'EMBED_NOT_FOUND' };

describe.each(dialects)('participant ids cannot be guessed (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(dialect);
  });
  afterAll(() => svc?.close());

  it('participant ids are 16 uppercase letters and digits from a random source, different in every process', async () => {
    const first = await twoSigners(svc, svc.orgA);
    const second = await twoSigners(svc, svc.orgA);
    const ids = [...first.people, ...second.people].map((p) => p.id);
    for (const id of ids) expect(id).toMatch(/^[A-Z0-9]{16}$/);
    expect(new Set(ids).size).toBe(4);
  });

  it('trying every two-character id from 50 addresses finds nobody and is answered 429 once the organization has been refused 100 times', async () => {
    const { code, people } = await twoSigners(svc, svc.orgA);
    const found: string[] = [];
    const statuses = new Map<number, number>();
    const guesses = [...ALPHABET].flatMap((a) => [...ALPHABET].map((b) => `${a}${b}`));
    for (const [i, guess] of guesses.entries()) {
      const res = await embed(svc, { keyPublic: svc.orgA.publicKey, document: `${code}${guess}`, parentOrigin: ORIGIN_A }, `127.0.0.${(i % 50) + 1}`);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode === 200) found.push(guess);
    }
    expect(found).toEqual([]);
    expect(statuses.get(404)).toBe(100);
    expect(statuses.get(429)).toBe(guesses.length - 100);
    // Right or wrong: the participant's own id without a token waits for the window too.
    const right = await embed(svc, { keyPublic: svc.orgA.publicKey, document: people[0]?.document ?? '', parentOrigin: ORIGIN_A }, '127.0.1.1');
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toMatch(/^\d+$/);
    // A minted token cannot be guessed, so it still opens the flow.
    const token = await mintedToken(svc, svc.orgA, people[0]?.document ?? '', ORIGIN_A);
    const withToken = await embed(svc, { keyPublic: svc.orgA.publicKey, document: people[0]?.document ?? '', parentOrigin: ORIGIN_A, token }, '127.0.1.2');
    expect(withToken.json()).toEqual({ flow: 'sign', token: people[0]?.token });
    // Another organization's embedding is not locked by these guesses.
    const other = await twoSigners(svc, svc.orgB);
    const opened = await embed(svc, { keyPublic: svc.orgB.publicKey, document: other.people[0]?.document ?? '', parentOrigin: ORIGIN_B }, '127.0.1.3');
    expect(opened.json()).toEqual({ flow: 'sign', token: other.people[0]?.token });
  });

  it('one address is answered 429 past 30 lookups a minute', async () => {
    const { code } = await twoSigners(svc, svc.orgB);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await embed(svc, { keyPublic: svc.orgB.publicKey, document: `${code}ZZ`, parentOrigin: ORIGIN_B }, '127.0.2.1')).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe.each(dialects)('processes created before, with two-character participant ids, keep working (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(dialect);
  });
  afterAll(() => svc?.close());

  it('a two-character id opens its flow in the SDK and is accepted by unlock', async () => {
    const { code, processId, people } = await twoSigners(svc, svc.orgA);
    await svc.deps.db.updateTable('participants').set({ participant_id: 'G8' }).where('process_id', '=', processId).where('position', '=', 0).execute();
    const res = await embed(svc, { keyPublic: svc.orgA.publicKey, document: `${code}G8`, parentOrigin: ORIGIN_A });
    expect(res.json()).toEqual({ flow: 'sign', token: people[0]?.token });
    const unlock = await call(svc.app, 'POST', '/document/unlock', {
      key: svc.orgA.privateKey,
      body: { code: `${code}G8`, email: svc.orgA.email, status: 'reset' },
    });
    expect(unlock.json()).toEqual({ message: 'NOT_BLOCKED_PROCESS' });
    const unlockNew = await call(svc.app, 'POST', '/document/unlock', {
      key: svc.orgA.privateKey,
      body: { code: people[1]?.document, email: svc.orgA.email, status: 'reset' },
    });
    expect(unlockNew.json()).toEqual({ message: 'NOT_BLOCKED_PROCESS' });
  });
});

describe.each(dialects)('a token minted with the private key opens one flow, from one origin, once, for ten minutes (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(dialect);
  });
  afterAll(() => svc?.close());

  it('opens the participant it was minted for, and answers when it expires', async () => {
    const { people } = await twoSigners(svc, svc.orgA);
    const res = await mint(svc, svc.orgA, { document: people[0]?.document ?? '', origin: ORIGIN_A });
    expect(res.statusCode).toBe(200);
    const { token, expiresAt } = res.json() as { token: string; expiresAt: string };
    expect(token).toMatch(/^sdt_[A-Za-z0-9_-]{32}$/);
    expect(expiresAt).toBe(new Date(svc.clock.now().getTime() + 10 * 60_000).toISOString());
    const opened = await embed(svc, { keyPublic: svc.orgA.publicKey, document: people[0]?.document ?? '', parentOrigin: ORIGIN_A, token });
    expect(opened.json()).toEqual({ flow: 'sign', token: people[0]?.token });
  });

  it('a token for one participant does not open another; a used (even by a request at the same moment), expired or other-origin token is refused', async () => {
    const { people } = await twoSigners(svc, svc.orgA);
    const [first, second] = [people[0]?.document ?? '', people[1]?.document ?? ''];
    const body = (document: string, token: string, parentOrigin = ORIGIN_A) => ({ keyPublic: svc.orgA.publicKey, document, parentOrigin, token });

    const forFirst = await mintedToken(svc, svc.orgA, first, ORIGIN_A);
    expect((await embed(svc, body(second, forFirst))).json()).toEqual(REFUSED);

    const otherOrigin = await mintedToken(svc, svc.orgA, first, OTHER_ORIGIN_A);
    expect((await embed(svc, body(first, otherOrigin, ORIGIN_A))).json()).toEqual(REFUSED);

    const once = await mintedToken(svc, svc.orgA, first, ORIGIN_A);
    expect((await embed(svc, body(first, once))).statusCode).toBe(200);
    expect((await embed(svc, body(first, once))).json()).toEqual(REFUSED);

    const raced = await mintedToken(svc, svc.orgA, first, ORIGIN_A);
    const both = await Promise.all([embed(svc, body(first, raced), '127.0.3.1'), embed(svc, body(first, raced), '127.0.3.2')]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 404]);

    const expiring = await mintedToken(svc, svc.orgA, first, ORIGIN_A);
    svc.clock.advance(10 * 60_000 + 1);
    const expired = await embed(svc, body(first, expiring));
    expect(expired.statusCode).toBe(404);
    expect(expired.json()).toEqual(REFUSED);
  });

  it("another organization's private key cannot mint for this one's documents, nor its token open them", async () => {
    const { people } = await twoSigners(svc, svc.orgA);
    const document = people[0]?.document ?? '';
    const foreign = await mint(svc, svc.orgB, { document, origin: ORIGIN_B });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    const ownB = await twoSigners(svc, svc.orgB);
    const tokenB = await mintedToken(svc, svc.orgB, ownB.people[0]?.document ?? '', ORIGIN_B);
    expect((await embed(svc, { keyPublic: svc.orgA.publicKey, document, parentOrigin: ORIGIN_A, token: tokenB })).json()).toEqual(REFUSED);
    expect(
      (await embed(svc, { keyPublic: svc.orgA.publicKey, document: ownB.people[0]?.document ?? '', parentOrigin: ORIGIN_B, token: tokenB })).json(),
    ).toEqual(REFUSED);
  });

  it('is minted only for an origin of the SDK origins, with the private key', async () => {
    const { people } = await twoSigners(svc, svc.orgA);
    const document = people[0]?.document ?? '';
    const unlisted = await mint(svc, svc.orgA, { document, origin: ORIGIN_B });
    expect(unlisted.statusCode).toBe(400);
    expect(unlisted.json()).toEqual({ message: 'SDK_ORIGIN_NOT_ALLOWED' });
    const withPublicKey = await call(svc.app, 'POST', '/sdk/token', { key: svc.orgA.publicKey, body: { document, origin: ORIGIN_A } });
    expect(withPublicKey.statusCode).toBe(401);
    expect((await mint(svc, svc.orgA, { document: `${document.slice(0, 10)}ZZ`, origin: ORIGIN_A })).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
  });

  it('a face validation gets a token too', async () => {
    const created = await call(svc.app, 'POST', '/veriface', { key: svc.orgA.privateKey, body: verifaceBody(svc.orgA.email, { platform: 'web' }) });
    expect(created.statusCode, created.body).toBe(200);
    const { code } = created.json() as { code: string };
    const token = await mintedToken(svc, svc.orgA, code, ORIGIN_A);
    expect((await embed(svc, { keyPublic: svc.orgA.publicKey, document: code, parentOrigin: ORIGIN_A, token })).json()).toMatchObject({ flow: 'validation' });
  });
});

describe.each(dialects)('an organization can require the token (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(dialect);
  });
  afterAll(() => svc?.close());

  it('sdkRequireToken: embedding without a token is refused with the same answer as any other refusal', async () => {
    const { people } = await twoSigners(svc, svc.orgA);
    const document = people[0]?.document ?? '';
    const set = await call(svc.app, 'PUT', '/organization', { key: svc.orgA.privateKey, body: { sdkRequireToken: true } });
    expect(set.json()).toMatchObject({ sdkRequireToken: true, sdkOrigins: [ORIGIN_A, OTHER_ORIGIN_A] });
    expect((await call(svc.app, 'GET', '/organization', { key: svc.orgA.privateKey })).json()).toMatchObject({ sdkRequireToken: true });
    const without = await embed(svc, { keyPublic: svc.orgA.publicKey, document, parentOrigin: ORIGIN_A });
    expect(without.statusCode).toBe(404);
    expect(without.json()).toEqual(REFUSED);
    const token = await mintedToken(svc, svc.orgA, document, ORIGIN_A);
    expect((await embed(svc, { keyPublic: svc.orgA.publicKey, document, parentOrigin: ORIGIN_A, token })).json()).toEqual({
      flow: 'sign',
      token: people[0]?.token,
    });
    // The other organization's setting is its own.
    expect((await call(svc.app, 'GET', '/organization', { key: svc.orgB.privateKey })).json()).toMatchObject({ sdkRequireToken: false });
    const other = await twoSigners(svc, svc.orgB);
    expect((await embed(svc, { keyPublic: svc.orgB.publicKey, document: other.people[0]?.document ?? '', parentOrigin: ORIGIN_B })).statusCode).toBe(200);
  });
});

describe.each(dialects)("a participant's page and documents never show other participants' ids or links (%s)", (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(dialect);
  });
  afterAll(() => svc?.close());

  it.runIf(pdfToolsInstalled)('the page, the signed document and the certificate carry no participant id and no other link token', async () => {
    const { processId, people } = await twoSigners(svc, svc.orgA);
    for (const person of people) {
      await openEveryDocument(svc.deps, person.token);
      const signed = await svc.app.inject({
        method: 'POST',
        url: '/people/signing/sign',
        headers: { 'x-link-token': person.token },
        payload: { consent: true },
      });
      expect(signed.statusCode, signed.body).toBe(200);
    }
    expect(await sealProcess(svc.deps, { processId })).toBe(true);
    const [me, other] = people;
    if (!me || !other) throw new Error('two participants');
    const page = await svc.app.inject({ method: 'GET', url: '/people/signing', headers: { 'x-link-token': me.token } });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(other.id);
    expect(page.body).not.toContain(other.token);
    const { documents } = page.json() as { documents: { kind: string; url: string }[] };
    expect(documents.map((d) => d.kind)).toEqual(['document', 'certificate']);
    for (const { url } of documents) {
      const file = await svc.app.inject({ method: 'GET', url: localPath(url) });
      expect(file.statusCode).toBe(200);
      const text = pdftotext(file.rawPayload).replace(/\s+/g, '');
      expect(text).toContain('Luis');
      for (const person of people) {
        expect(text).not.toContain(person.id);
        expect(text).not.toContain(person.token);
      }
    }
  });
});
