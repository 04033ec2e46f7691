import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DomainError, fail, invalid, tooManyRequests } from '../src/domain-error.js';
import { answerMessage, codeOf, ERROR_CATALOGUE, type ErrorCode } from '../src/error-catalogue.js';
import { withErrorTable } from '../src/http/error-table.js';
import { errorAnswer } from '../src/http/errors.js';

/** Every TypeScript file under a folder, with its text. */
function sources(dir: string): { file: string; text: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(file);
    return file.endsWith('.ts') ? [{ file, text: fs.readFileSync(file, 'utf8') }] : [];
  });
}

describe('one error catalogue: every code with its status and meaning', () => {
  it("the API guide's table is the catalogue's (npm run docs:errors writes it)", () => {
    const guide = fs.readFileSync('docs/api.md', 'utf8');
    expect(withErrorTable(guide)).toBe(guide);
  });

  it('every code of the source is in the catalogue', () => {
    const used = new Set<string>();
    for (const { text } of sources('src')) for (const match of text.matchAll(/\bfail(?:For)?\(\s*'([A-Z][A-Z_]+[A-Z])'/g)) used.add(match[1]!);
    expect(used.size).toBeGreaterThan(40);
    expect([...used].filter((code) => codeOf(code) === undefined)).toEqual([]);
  });

  it('a message is a code, a code with a detail, or a validation message naming its field', () => {
    expect(answerMessage('TEMPLATE_NOT_FOUND')).toBe('TEMPLATE_NOT_FOUND');
    expect(answerMessage('WEBHOOK_NOT_FOUND: crm')).toBe('WEBHOOK_NOT_FOUND: crm');
    expect(answerMessage('"id" is required')).toBe('"id" is required');
    expect(() => answerMessage('something went wrong')).toThrow(/outside the error catalogue/);
    for (const { status } of Object.values(ERROR_CATALOGUE)) expect(status.length).toBeGreaterThan(0);
  });
});

describe('the status of an answer comes from the catalogue, not from the throw site', () => {
  const situated = Object.entries(ERROR_CATALOGUE).flatMap(([code, entry]) => ('when' in entry ? [{ code, entry }] : []));

  it('a code with one status is answered at it, with its detail after a colon', () => {
    for (const [code, { status }] of Object.entries(ERROR_CATALOGUE)) {
      if (status.length !== 1) continue;
      // Any code of one status: the literal types of fail() are checked where it is called in src/.
      const error = new DomainError(code as ErrorCode);
      expect(errorAnswer(error)).toEqual({ status: status[0], message: code, headers: {} });
    }
    expect(errorAnswer(fail('WEBHOOK_NOT_FOUND', 'crm'))).toEqual({ status: 400, message: 'WEBHOOK_NOT_FOUND: crm', headers: {} });
    expect(errorAnswer(fail('FILE_TOO_LARGE', 'at most 10 bytes'))?.status).toBe(413);
  });

  it('a code answered at several statuses names, in the catalogue, the situation of each, and each throw site names its own', () => {
    expect(situated.map(({ code }) => code).sort()).toEqual(['DOCUMENT_NOT_FOUND', 'PDF_TEMPLATE_NOT_FOUND', 'TEMPLATE_NOT_FOUND', 'VERIFACE_NOT_FOUND']);
    for (const { entry } of situated) {
      const named = Object.values(entry.when ?? {});
      expect([...new Set(named)].sort()).toEqual([...entry.status].sort());
    }
    expect(errorAnswer(fail('TEMPLATE_NOT_FOUND', { when: 'readingOne' }))?.status).toBe(404);
    expect(errorAnswer(fail('TEMPLATE_NOT_FOUND', { when: 'elsewhere' }))?.status).toBe(400);
    expect(errorAnswer(fail('VERIFACE_NOT_FOUND', { when: 'personLink', detail: 'gone' }))).toEqual({
      status: 404,
      message: 'VERIFACE_NOT_FOUND: gone',
      headers: {},
    });
  });

  it('a code answered at several statuses without its situation, or a message outside the catalogue, is no answer (a logged 500)', () => {
    expect(errorAnswer(new DomainError('TEMPLATE_NOT_FOUND'))).toBeUndefined();
    expect(errorAnswer(new DomainError('USER_NOTFOUND', 'elsewhere'))).toBeUndefined();
    expect(errorAnswer(new DomainError(answerMessage('"id" is required')))).toEqual({ status: 400, message: '"id" is required', headers: {} });
    expect(() => answerMessage('not a code')).toThrow(/outside the error catalogue/);
  });

  it('a validation message naming its field is a 400; a limit says its seconds in the message and in Retry-After', () => {
    expect(errorAnswer(invalid('"cursor" is invalid'))).toEqual({ status: 400, message: '"cursor" is invalid', headers: {} });
    expect(errorAnswer(tooManyRequests(1_500))).toEqual({
      status: 429,
      message: 'TOO_MANY_REQUESTS: try again in 2 s',
      headers: { 'retry-after': '2' },
    });
  });

  it('no throw site outside src/http/errors.ts names a status', () => {
    const offending = sources('src').filter(({ text }) => /(?<![.\w])(?:badRequest|notFound|forbidden|unauthorized)\(|new ApiError\(/.test(text));
    expect(offending.map(({ file }) => file)).toEqual([]);
  });
});

describe('domain code throws its own error, mapped to HTTP in one place', () => {
  it('only src/http, the app and route files import the HTTP answer of an error', () => {
    const http = /^src\/(?:http\/|app\.ts$|[a-z-]+\/routes\.ts$)/;
    const importers = sources('src').filter(({ text }) => /from '[./]*(?:http\/)?errors\.js'/.test(text));
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.map(({ file }) => file).filter((file) => !http.test(file))).toEqual([]);
  });
});
