import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentReader } from '../src/veriface/document/document-reader.js';
import { machineZoneIn } from '../src/veriface/document/machine-zone.js';
import { photographCard, SHOTS } from './support/card-photos.js';
import { cedulaBack, numberedCard, type PassportHolder, passportPage, td1Lines, td3Lines } from './support/document-photos.js';
import { notAnImage } from './support/face-photos.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';

const holder: PassportHolder = {
  surname: 'ERIKSSON',
  givenNames: 'ANNA MARIA',
  number: 'AB1234567',
  nationality: 'COL',
  birth: '740812',
  sex: 'F',
  expiry: '320415',
};

const photos = { card: '', passport: '', back: '', blurred: '', small: '', noFace: '' };
beforeAll(async () => {
  const card = await numberedCard({ number: '1.020.304.050', person: 'authorSelected' });
  photos.card = card.toString('base64');
  photos.passport = (await passportPage(holder, 'womanBrownHair')).toString('base64');
  photos.back = (await cedulaBack({ number: '52123456', surnames: ['PEREZ', 'GOMEZ'], names: ['ANA', 'LUCIA'], sex: 'F', birth: '19850309' })).toString(
    'base64',
  );
  photos.blurred = (await sharp(card).blur(4).jpeg().toBuffer()).toString('base64');
  photos.small = (await sharp(card).resize(320).jpeg().toBuffer()).toString('base64');
  photos.noFace = (await numberedCard({ number: '1.020.304.050' })).toString('base64');
});

const body = (image: string, identification = '1020304050', type = 'CC') => ({ country: 'CO', type, identification, image });

/** Rows in every table of the service's store (on PostgreSQL, its own schema): a check must leave them as they were. */
async function rowCounts(svc: TestService): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const schema =
    svc.deps.dialect === 'postgres' ? (await sql<{ name: string }>`select current_schema() as name`.execute(svc.deps.db)).rows[0]?.name : undefined;
  for (const table of await svc.deps.db.introspection.getTables()) {
    if (table.schema !== schema) continue;
    const { rows } = await sql<{
      n: number | string;
    }>`select count(*) as n from ${schema ? sql.table(`${schema}.${table.name}`) : sql.table(table.name)}`.execute(svc.deps.db);
    counts[table.name] = Number(rows[0]?.n);
  }
  return counts;
}

describe.each(dialects)('POST /veriface/check makes only the checks this machine can honestly make (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect, { FACE_MATCHER: 'local', FACE_WORKERS: '1', FACE_QUEUE_MAX: '2' });
  });
  afterAll(async () => svc.close());
  const check = (payload: Record<string, unknown>, key = svc.orgA.privateKey) => call(svc.app, 'POST', '/veriface/check', { key, body: payload });

  it('a card whose printed number is identification: error false, the number read by OCR matches, a portrait is on it, forgery and liveness not checked', async () => {
    const res = await check(body(photos.card));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      code: expect.stringMatching(/^[A-Z0-9]{16}$/),
      error: false,
      isFront: true,
      data: { documentNumber: '1020304050' },
      checks: {
        imageQuality: { passed: true, width: 1000, height: 630, sharpness: expect.any(Number) },
        portrait: { made: true, found: true },
        documentNumber: { readFrom: 'OCR', number: '1020304050', matches: true },
      },
      notChecked: ['forgery', 'liveness'],
    });
  });

  it('a card whose number is not identification: error true with DOCUMENT_NUMBER_MISMATCH, for either organization', async () => {
    for (const key of [svc.orgA.privateKey, svc.orgB.privateKey]) {
      const answer = (await check(body(photos.card, '1020304051'), key)).json();
      expect(answer).toMatchObject({
        error: true,
        message: 'DOCUMENT_NUMBER_MISMATCH',
        isFront: true,
        checks: { documentNumber: { readFrom: 'OCR', matches: false } },
      });
    }
  });

  it("a passport's data page: its machine-readable zone is read and parsed (number, names, dates) and compared with identification", async () => {
    const answer = (await check(body(photos.passport, 'AB1234567', 'PASSPORT'))).json();
    expect(answer).toMatchObject({
      error: false,
      isFront: true,
      data: { documentNumber: 'AB1234567', surname: 'ERIKSSON', givenNames: 'ANNA MARIA', dateOfBirth: '740812', dateOfExpiry: '320415', sex: 'female' },
      checks: { documentNumber: { readFrom: 'MRZ', matches: true, machineZoneValid: true } },
    });
  });

  it("the back of an older cédula: its PDF417 barcode is decoded, the holder's data returned and the number compared", async () => {
    const matching = (await check(body(photos.back, '52123456'))).json();
    expect(matching).toMatchObject({
      error: false,
      isFront: false,
      data: { documentNumber: '52123456', surname: 'PEREZ GOMEZ', givenNames: 'ANA LUCIA', sex: 'F', dateOfBirth: '1985-03-09', bloodGroup: 'O+' },
      checks: { portrait: { made: true, found: false }, documentNumber: { readFrom: 'PDF417', number: '52123456', matches: true } },
    });
    const other = (await check(body(photos.back, '52123457'))).json();
    expect(other).toMatchObject({ error: true, message: 'DOCUMENT_NUMBER_MISMATCH' });
  });

  it('a card without a portrait and without a barcode or zone: the portrait check fails with DOCUMENT_NO_FACE, though its number is read', async () => {
    const answer = (await check(body(photos.noFace))).json();
    expect(answer).toMatchObject({
      error: true,
      message: 'DOCUMENT_NO_FACE',
      isFront: false,
      checks: { portrait: { made: true, found: false, problem: 'DOCUMENT_NO_FACE' } },
    });
  });

  it('image quality: a blurred photo is IMAGE_BLURRY, a small one IMAGE_TOO_SMALL, and nothing further is claimed', async () => {
    const blurred = (await check(body(photos.blurred))).json();
    expect(blurred).toMatchObject({
      error: true,
      message: 'IMAGE_BLURRY',
      isFront: false,
      data: {},
      checks: { imageQuality: { passed: false, problem: 'IMAGE_BLURRY' }, portrait: { made: false } },
    });
    const small = (await check(body(photos.small))).json();
    expect(small).toMatchObject({
      error: true,
      message: 'IMAGE_TOO_SMALL',
      checks: { imageQuality: { passed: false, problem: 'IMAGE_TOO_SMALL', width: 320 } },
    });
  });

  it('bytes that are not an image are 422 IMAGE_UNREADABLE; bad input 400 in Joi words; the public key 401', async () => {
    const res = await check(body(notAnImage().toString('base64')));
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^IMAGE_UNREADABLE: /);
    expect((await check({ country: 'CO', type: 'CC', identification: '1020304050' })).json()).toEqual({ message: '"image" is required' });
    expect((await check({ ...body(photos.card), image: 'not base64!' })).json()).toEqual({ message: '"image" must be a valid base64 string' });
    expect((await check({ ...body(photos.card), type: 'XX' })).json().message).toMatch(/^"type" must be a document type/);
    expect((await check(body(photos.card), svc.orgA.publicKey)).statusCode).toBe(401);
  });

  it('the check stores nothing: every table of both organizations has the rows it had', async () => {
    const before = await rowCounts(svc);
    await check(body(photos.back, '52123456'), svc.orgA.privateKey);
    await check(body(photos.back, '52123456'), svc.orgB.privateKey);
    expect(Object.keys(before).length).toBeGreaterThan(5);
    expect(await rowCounts(svc)).toEqual(before);
  });
});

describe('with FACE_MATCHER=manual the portrait check is not made, and the answer says so', () => {
  it('checks.portrait is {made: false}; the number is still read', async () => {
    const svc = await startTestService('sqlite');
    try {
      const res = await call(svc.app, 'POST', '/veriface/check', { key: svc.orgA.privateKey, body: body(photos.back, '52123456') });
      expect(res.json()).toMatchObject({
        error: false,
        isFront: false,
        checks: { portrait: { made: false }, documentNumber: { readFrom: 'PDF417', matches: true } },
      });
    } finally {
      await svc.close();
    }
  });
});

describe('a machine-readable zone is parsed from OCR text with the letters OCR swaps corrected', () => {
  it('a TD3 zone read with O for 0 in the dates gives the right number, names and dates', () => {
    const [first, second] = td3Lines(holder);
    const zone = machineZoneIn(`PASSPORT\n${first}\n${second.replace('740812', '74O812')}\n`);
    expect(zone).toMatchObject({
      format: 'TD3',
      documentNumber: 'AB1234567',
      surname: 'ERIKSSON',
      givenNames: 'ANNA MARIA',
      dateOfBirth: '740812',
      valid: true,
    });
  });

  it("the new cédula's TD1 zone gives the card's number and the national number (NUIP) beside it, both compared with identification", () => {
    const lines = td1Lines({
      cardNumber: '000123456',
      nuip: '1020304050',
      surnames: 'PEREZ GOMEZ',
      names: 'JUAN CARLOS',
      birth: '800101',
      sex: 'M',
      expiry: '300101',
    });
    const zone = machineZoneIn(`REPUBLICA DE COLOMBIA\n${lines.join('\n')}\n`);
    expect(zone).toMatchObject({
      format: 'TD1',
      documentNumber: '000123456',
      optionalData: ['1020304050'],
      surname: 'PEREZ GOMEZ',
      givenNames: 'JUAN CARLOS',
      valid: true,
    });
  });
});

describe('a document photographed turned is read as one photographed level', { timeout: 120_000 }, () => {
  const reader = new DocumentReader();
  afterAll(async () => reader.close());
  const shot = (name: string) => {
    const found = SHOTS.find((s) => s.name === name);
    if (!found) throw new Error(`no shot ${name}`);
    return found;
  };

  it("the back's barcode is found askew by 5°, turned a quarter and three quarters (zxing alone finds it only level or upside down)", async () => {
    const back = await cedulaBack({ number: '52123456', surnames: ['PEREZ', 'GOMEZ'], names: ['ANA', 'LUCIA'], sex: 'F', birth: '19850309' });
    for (const name of ['askew on a table', 'turned a quarter', 'turned three quarters']) {
      const reading = await reader.readNumber(await photographCard(back, shot(name)));
      expect(reading, name).toMatchObject({ source: 'PDF417', data: { personalNumber: '52123456' } });
    }
  });

  it("the front's printed number is read turned three quarters and upside down (tesseract reads only level text)", async () => {
    const front = await numberedCard({ number: '52.123.456', person: 'authorSelected' });
    for (const name of ['turned three quarters', 'upside down']) {
      const reading = await reader.readNumber(await photographCard(front, shot(name)));
      expect(reading, name).toMatchObject({ source: 'OCR', dotted: ['52123456'] });
    }
  });
});
