import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerMessage, codeOf, ERROR_CATALOGUE } from '../src/http/error-catalogue.js';
import { withErrorTable } from '../src/http/error-table.js';

describe('one error catalogue: every code with its status and meaning', () => {
  it("the API guide's table is the catalogue's (npm run docs:errors writes it)", () => {
    const guide = fs.readFileSync('docs/api.md', 'utf8');
    expect(withErrorTable(guide)).toBe(guide);
  });

  it('every code of the source is in the catalogue', () => {
    const used = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(file);
        else if (file.endsWith('.ts')) {
          for (const match of fs.readFileSync(file, 'utf8').matchAll(/(?:badRequest|notFound|ApiError\(\d+,)\s*\(?\s*[`']([A-Z][A-Z_]+[A-Z])[:`']/g))
            used.add(match[1]!);
        }
      }
    };
    walk('src');
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
