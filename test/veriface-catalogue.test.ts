import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../src/domain-error.js';
import { errorAnswer } from '../src/http/errors.js';
import { catalogueRoutes } from '../src/veriface/catalogue-routes.js';
import { checkIdentification, DOCUMENTS_CATALOGUE, documentTypesOf, isSupportedCountry, isSupportedDocument } from '../src/veriface/documents-catalogue.js';
import { ISO_COUNTRY_CODES } from '../src/veriface/iso-countries.js';

const LATIN_AMERICA = ['AR', 'BO', 'BR', 'CL', 'CO', 'CR', 'CU', 'DO', 'EC', 'SV', 'GT', 'HN', 'MX', 'NI', 'PA', 'PY', 'PE', 'PR', 'UY', 'VE'];

const typesOf = (country: string) => documentTypesOf(country).map((document) => document.type);

describe('every Latin-American country, Spain and the United States are listed with at least one document', () => {
  it.each([...LATIN_AMERICA, 'ES', 'US'])('%s has national documents', (country) => {
    const entry = DOCUMENTS_CATALOGUE.find((listed) => listed.country === country);
    expect(entry?.documents.length).toBeGreaterThanOrEqual(1);
  });

  it('every listed country is an ISO 3166-1 code and is listed once', () => {
    const codes = DOCUMENTS_CATALOGUE.map((entry) => entry.country);
    expect(codes.every((code) => ISO_COUNTRY_CODES.includes(code))).toBe(true);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('every country and document has an English and a Spanish name', () => {
    for (const entry of DOCUMENTS_CATALOGUE) {
      expect(entry.name.en && entry.name.es).toBeTruthy();
      for (const document of entry.documents) expect(document.name.en && document.name.es).toBeTruthy();
    }
  });
});

describe('each country has its usual documents', () => {
  it.each([
    ['CO', ['CC', 'CE', 'TI', 'PPT', 'PA']],
    ['MX', ['INE', 'CURP']],
    ['CL', ['RUT', 'RUN']],
    ['PE', ['DNI', 'CE']],
    ['AR', ['DNI']],
    ['BR', ['CPF', 'RG', 'CNH']],
    ['EC', ['CI']],
    ['UY', ['CI']],
    ['VE', ['CI']],
    ['PA', ['CI']],
    ['SV', ['DUI']],
    ['HN', ['DNI']],
    ['CR', ['CCCR', 'DIMEX']],
    ['ES', ['DNI', 'NIE']],
    ['US', ['DL']],
  ])('%s has %j', (country, types) => {
    expect(typesOf(country)).toEqual(expect.arrayContaining(types));
  });

  it('a Social Security number is not an identity document', () => {
    expect(isSupportedDocument('US', 'SSN')).toBe(false);
  });

  it('a document of one country is not accepted for another', () => {
    expect(isSupportedDocument('CO', 'CURP')).toBe(false);
    expect(isSupportedDocument('MX', 'CC')).toBe(false);
  });
});

describe('a passport is accepted for any ISO 3166-1 country', () => {
  it.each(['JP', 'DE', 'CO', 'NG', 'AQ'])('PASSPORT is valid with %s', (country) => {
    expect(isSupportedCountry(country)).toBe(true);
    expect(isSupportedDocument(country, 'PASSPORT')).toBe(true);
    expect(typesOf(country)).toContain('PASSPORT');
  });

  it.each(['XX', 'XK', 'co', 'COL', ''])('%j is not a country code', (country) => {
    expect(isSupportedCountry(country)).toBe(false);
    expect(isSupportedDocument(country, 'PASSPORT')).toBe(false);
    expect(documentTypesOf(country)).toEqual([]);
  });

  it('a country without national documents listed accepts only the passport', () => {
    expect(typesOf('JP')).toEqual(['PASSPORT']);
  });

  it("Colombia's passport is accepted as PA and as PASSPORT", () => {
    expect(isSupportedDocument('CO', 'PA')).toBe(true);
    expect(isSupportedDocument('CO', 'PASSPORT')).toBe(true);
  });

  it('the ISO list holds the 249 assigned codes, each once', () => {
    expect(ISO_COUNTRY_CODES).toHaveLength(249);
    expect(new Set(ISO_COUNTRY_CODES).size).toBe(249);
  });
});

describe('an identification number must match the format of its document where one is known', () => {
  it.each([
    ['CO', 'CC', '123456'],
    ['CO', 'CC', '1084340519'],
    ['CO', 'TI', '1001234567'],
    ['AR', 'DNI', '30123456'],
    ['BR', 'CPF', '12345678909'],
    ['CL', 'RUN', '12345678-5'],
    ['CL', 'RUT', '7654321K'],
    ['CR', 'CCCR', '112345678'],
    ['EC', 'CI', '1712345678'],
    ['ES', 'DNI', '12345678Z'],
    ['ES', 'NIE', 'X1234567L'],
    ['MX', 'CURP', 'GODE561231HDFRRN09'],
    ['PE', 'DNI', '45678912'],
    ['SV', 'DUI', '01234567-8'],
    ['NI', 'CI', '001-010190-0001A'],
    ['UY', 'CI', '1234567-8'],
  ])('%s %s accepts %s', (country, type, number) => {
    expect(checkIdentification(country, type, number)).toEqual({ ok: true });
  });

  it.each([
    ['CO', 'CC', '12345', '6 to 10 digits'],
    ['CO', 'CC', '12345678901', '6 to 10 digits'],
    ['CO', 'CC', '1.084.340.519', '6 to 10 digits'],
    ['AR', 'DNI', '301234567', '7 or 8 digits'],
    ['BR', 'CPF', '123.456.789-09', '11 digits'],
    ['CL', 'RUN', '12345678-X', '7 or 8 digits and a check digit (0-9 or K)'],
    ['ES', 'DNI', '12345678', '8 digits and a letter'],
    ['ES', 'NIE', 'A1234567L', 'X, Y or Z, 7 digits and a letter'],
    ['MX', 'CURP', 'GODE561231', '18 characters in the CURP format'],
    ['PE', 'DNI', '4567891', '8 digits'],
  ])('%s %s refuses %s', (country, type, number, format) => {
    expect(checkIdentification(country, type, number)).toEqual({
      ok: false,
      message: `"identification" does not match the format of a ${country} ${type} (${format})`,
    });
  });

  it('a document without a known format accepts any number', () => {
    expect(checkIdentification('CO', 'CE', 'E-123 456')).toEqual({ ok: true });
    expect(checkIdentification('JP', 'PASSPORT', 'TK1234567')).toEqual({ ok: true });
  });

  it('an unknown country or document is refused before the number', () => {
    expect(checkIdentification('XX', 'PASSPORT', '1')).toEqual({ ok: false, message: '"country" must be a supported country code' });
    expect(checkIdentification('CO', 'DNI', '1')).toEqual({ ok: false, message: '"type" must be a document type supported for CO' });
  });
});

describe('GET /veriface/documents publishes the catalogue, optionally for one country', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // The same switches and error shape as src/app.ts: Joi validates, errors are {message}.
    app = Fastify();
    app.setValidatorCompiler(() => () => true);
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    app.setErrorHandler((error, _request, reply) => {
      const answer = error instanceof DomainError ? errorAnswer(error) : undefined;
      return answer ? reply.status(answer.status).send({ message: answer.message }) : reply.status(500).send({ message: 'INTERNAL_ERROR' });
    });
    for (const route of catalogueRoutes()) app.route({ method: route.method, url: route.url, ...route.options, handler: route.handle });
  });
  afterAll(async () => app.close());

  const get = (query: Record<string, string> = {}) => app.inject({ method: 'GET', url: '/v1.5/ext/veriface/documents', query });

  it('lists every country with its documents, and the passport for any country', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(DOCUMENTS_CATALOGUE.length);
    expect(body.passport).toEqual({ type: 'PASSPORT', countries: 'any' });
    expect(body.data).toContainEqual({
      country: 'CO',
      name: { en: 'Colombia', es: 'Colombia' },
      documents: expect.arrayContaining([{ type: 'CC', name: { en: 'Citizenship card', es: 'Cédula de ciudadanía' } }]),
    });
  });

  it('?country=CO answers Colombia only, without the number patterns', async () => {
    const res = await get({ country: 'CO' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((entry: { country: string }) => entry.country)).toEqual(['CO']);
    expect(JSON.stringify(body)).not.toContain('number');
  });

  it('a lower-case country code is read as upper case', async () => {
    const res = await get({ country: 'mx' });
    expect(res.json().data[0].country).toBe('MX');
  });

  it('an ISO country without national documents answers an empty list and the passport', async () => {
    const res = await get({ country: 'JP' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [], passport: { type: 'PASSPORT', countries: 'any' } });
  });

  it('an unknown country is 400 "country" must be a supported country code', async () => {
    const res = await get({ country: 'XX' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: '"country" must be a supported country code' });
  });

  it('an unknown query field is refused', async () => {
    const res = await get({ colour: 'red' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: '"colour" is not allowed' });
  });
});
