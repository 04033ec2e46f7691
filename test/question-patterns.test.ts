import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnswerPattern, compileAnswerPattern, MAX_PATTERN_WORK } from '../src/templates/answer-pattern.js';
import { ANSWERS, COMPLETE_HTML, sampleTemplate } from './support/fixtures.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { templateWithHtml } from './support/signing.js';

function compiled(source: string): AnswerPattern {
  const result = compileAnswerPattern(source);
  if (!result.ok) throw new Error(`${source} does not compile: ${result.problem}`);
  return result.pattern;
}

/** Patterns integrators write, each with the characters its answers are made of. */
const COMMON_PATTERNS: [what: string, pattern: string, alphabet: string[]][] = [
  ['digits only', '^\\d+$', ['1', '9', '0', 'a', ' ', '-', '\n']],
  ['a Colombian cédula: 6 to 10 digits', '^[0-9]{6,10}$', ['1', '0', '7', 'x', '.', '\n']],
  ['a NIT with its check digit', '^\\d{9}-\\d$', ['9', '0', '-', '.', ' ']],
  ['an e-mail-like value', '^[\\w.+-]+@[\\w-]+(\\.[\\w-]+)+$', ['a', 'Z', '_', '.', '+', '-', '@', 'ñ', ' ']],
  ['an ISO date', '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', ['2', '0', '1', '3', '9', '-', '/']],
  ['a day/month/year date', '^(0[1-9]|[12][0-9]|3[01])/(0[1-9]|1[0-2])/(19|20)\\d{2}$', ['0', '1', '2', '9', '/', '-']],
  ['a Spanish name', '^[a-zA-ZáéíóúÁÉÍÓÚñÑ ]{2,60}$', ['a', 'Z', 'ñ', 'É', ' ', '1', '-', 'ü']],
  ['letters with accents by \\u escapes', '^[A-Za-z\\u00C0-\\u017F ]+$', ['a', 'Z', 'ñ', 'ő', ' ', '1', 'Ʃ']],
  ['a Colombian mobile', '^\\+57 ?3\\d{9}$', ['+', '5', '7', '3', ' ', '0', 'x']],
  ['a car plate, unanchored at the end', '^[A-Z]{3}-?\\d{3}', ['A', 'Z', '-', '1', 'a', ' ']],
  ['a word anywhere (unanchored search)', 'contrato', ['c', 'o', 'n', 't', 'r', 'a', 'x']],
  ['a word boundary', '\\bCC\\b', ['C', ' ', 'a', '-', '_']],
  ['alternatives and an optional group', '^(CC|CE|NIT)( \\d+)?$', ['C', 'E', 'N', 'I', 'T', ' ', '1']],
  ['a lazy repeat and an escaped slash', '^a.*?\\/b$', ['a', 'b', '/', 'x', '\n']],
];

describe('a question regex matches what it matches in JavaScript', () => {
  it.each(COMMON_PATTERNS)('%s: %s', (_what, pattern, alphabet) => {
    const re2 = compiled(pattern);
    const javascript = new RegExp(pattern);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 24 }), (value) => re2.test(value) === javascript.test(value)),
      { numRuns: 400 },
    );
  });

  it('is searched anywhere in the answer unless the pattern anchors it, as RegExp.test does', () => {
    expect(compiled('\\d{3}').test('abc 123 def')).toBe(true);
    expect(compiled('^\\d{3}$').test('abc 123 def')).toBe(false);
    // Without the m flag, $ is the very end: a trailing newline does not match.
    expect(compiled('^\\d{3}$').test('123\n')).toBe(false);
  });

  it('prints as JavaScript prints it, for the answer error', () => {
    expect(compiled('^a/b$').text).toBe('/^a\\/b$/');
  });
});

describe('where RE2 reads a pattern unlike JavaScript (documented for integrators)', () => {
  it('. also matches a carriage return and \\u2028; it still stops at \\n', () => {
    expect(compiled('^a.b$').test('a\rb')).toBe(true);
    expect(/^a.b$/.test('a\rb')).toBe(false);
    expect(compiled('^a.b$').test('a\u2028b')).toBe(true);
    expect(compiled('^a.b$').test('a\nb')).toBe(false);
  });

  it('\\s is ASCII white space: a no-break space is not one', () => {
    expect(compiled('^\\s$').test('\u00a0')).toBe(false);
    expect(/^\s$/.test('\u00a0')).toBe(true);
  });

  it('\\p{L} is any letter (JavaScript without the u flag reads it as the text "p{L}")', () => {
    expect(compiled('^\\p{L}+$').test('Peña')).toBe(true);
    expect(/^p{L}+$/.test('Peña')).toBe(false);
  });

  it('a character outside the BMP, such as an emoji, is one character', () => {
    expect(compiled('^.$').test('😀')).toBe(true);
    expect(/^.$/.test('😀')).toBe(false);
  });
});

describe('a pattern that would backtrack catastrophically compiles to linear matching', () => {
  // Backtracking would take seconds at 28 characters and years at 10,000; the bound leaves room for a busy machine.
  it.each([28, 10_000])("^(a+)+$ against 'a'×%i + '!' takes well under half a second", (count) => {
    const pattern = compiled('^(a+)+$');
    const started = performance.now();
    expect(pattern.test(`${'a'.repeat(count)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('a repeat of 1000 items, such as .{0,1000}, is accepted', () => {
    expect(compileAnswerPattern('^.{0,1000}$').ok).toBe(true);
  });
});

/** A template of the organization with the sample's questions plus `extra`, and its Complete HTML uploaded. */
function templateWith(svc: TestService, org: TestOrganization, extra: Record<string, unknown>[]): Promise<string> {
  const base = sampleTemplate();
  return templateWithHtml(svc, org, COMPLETE_HTML, { ...base, config: [...(base.config as Record<string, unknown>[]), ...extra] });
}

describe.each(dialects)('POST /document/save checks answers against question patterns in linear time (%s)', (dialect) => {
  let svc: TestService;
  let templateA: string;
  let templateB: string;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    templateA = await templateWith(svc, svc.orgA, [
      { name: 'code', type: 'text', description: 'Code', regex: '^(a+)+$' },
      { name: 'cedula', type: 'text', description: 'Cédula', regex: '^\\d{6,10}$' },
    ]);
    templateB = await templateWith(svc, svc.orgB, [{ name: 'cedula', type: 'text', description: 'Cédula', regex: '^CC \\d+$' }]);
  });
  afterAll(async () => svc.close());

  const save = (org: TestOrganization, document: string, extra: { key: string; value: string }[]) =>
    call(svc.app, 'POST', '/document/save', { key: org.privateKey, body: { email: org.email, name: 'Sale', document, data: [...ANSWERS, ...extra] } });

  // 9 999 a's and the '!' make the longest answer accepted, 10 000 characters.
  it.each([28, 9_999])(
    "^(a+)+$ against 'a'×%i + '!' is refused in well under 200 ms, and another organization's request meanwhile is not held",
    async (count) => {
      const value = `${'a'.repeat(count)}!`;
      const started = performance.now();
      const timed = async (request: Promise<{ statusCode: number; json(): unknown }>) => {
        const res = await request;
        return { res, ms: performance.now() - started };
      };
      const [evil, other] = await Promise.all([
        timed(save(svc.orgA, templateA, [{ key: 'code', value }])),
        timed(call(svc.app, 'GET', `/template?id=${templateB}`, { key: svc.orgB.privateKey })),
      ]);
      expect(other.res.statusCode).toBe(200);
      expect(other.ms).toBeLessThan(200);
      expect(evil.res.statusCode).toBe(400);
      expect(evil.res.json()).toEqual({ message: `"code" with value "${value}" fails to match the required pattern: /^(a+)+$/` });
      expect(evil.ms).toBeLessThan(200);
    },
  );

  it('a valid answer still creates the process', async () => {
    const res = await save(svc.orgA, templateA, [
      { key: 'code', value: 'aaaa' },
      { key: 'cedula', value: '1084340519' },
    ]);
    expect(res.statusCode).toBe(200);
  });

  it('an invalid answer still gets the answer error, naming the pattern', async () => {
    const res = await save(svc.orgA, templateA, [{ key: 'cedula', value: 'CC 1084340519' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: '"cedula" with value "CC 1084340519" fails to match the required pattern: /^\\d{6,10}$/' });
  });

  it("each organization's answers are checked against its own template's pattern", async () => {
    const answer = [{ key: 'cedula', value: 'CC 1084340519' }];
    expect((await save(svc.orgB, templateB, answer)).statusCode).toBe(200);
    expect((await save(svc.orgA, templateA, answer)).statusCode).toBe(400);
    expect((await save(svc.orgB, templateB, [{ key: 'cedula', value: '1084340519' }])).json()).toEqual({
      message: '"cedula" with value "1084340519" fails to match the required pattern: /^CC \\d+$/',
    });
    expect((await save(svc.orgB, templateA, answer)).json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
  });
});

describe.each(dialects)("one request's answers may cost the patterns at most MAX_PATTERN_WORK steps in all (%s)", (dialect) => {
  let svc: TestService;
  let template: string;
  // About 2,400 instructions each: the largest patterns a template may hold.
  const large = '^\\p{L}{0,1000}\\d{0,150}$';
  const questions = Array.from({ length: 40 }, (_, i) => ({ name: `long${i}`, type: 'text', description: `Long ${i}`, regex: large }));
  beforeAll(async () => {
    svc = await startTestService(dialect);
    template = await templateWith(svc, svc.orgA, questions);
  });
  afterAll(async () => svc.close());

  it('forty 10,000-character answers to the largest patterns are refused at once with PATTERNS_TOO_COSTLY, without running them', async () => {
    const size = compiled(large).size;
    expect(size).toBeGreaterThan(2000);
    const data = [...ANSWERS, ...questions.map((q) => ({ key: q.name, value: 'á'.repeat(10_000) }))];
    const started = performance.now();
    const res = await call(svc.app, 'POST', '/document/save', {
      key: svc.orgA.privateKey,
      body: { email: svc.orgA.email, name: 'Big', document: template, data },
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^PATTERNS_TOO_COSTLY: /);
    expect(40 * 10_000 * size).toBeGreaterThan(MAX_PATTERN_WORK);
  });

  it('short answers to the same patterns are checked as usual, and organization B never reaches the template', async () => {
    const data = [...ANSWERS, ...questions.slice(0, 3).map((q) => ({ key: q.name, value: 'Ñandú' }))];
    const res = await call(svc.app, 'POST', '/document/save', {
      key: svc.orgA.privateKey,
      body: { email: svc.orgA.email, name: 'Small', document: template, data },
    });
    expect(res.statusCode).toBe(200);
    const other = await call(svc.app, 'POST', '/document/save', {
      key: svc.orgB.privateKey,
      body: { email: svc.orgB.email, name: 'Small', document: template, data },
    });
    expect(other.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
  });
});
