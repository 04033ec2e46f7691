import { describe, expect, it } from 'vitest';
import type { TemplateRow } from '../src/db/schema.js';
import { parsedTemplateBody } from '../src/documents/creating/template-body.js';

function row(question: string): TemplateRow {
  const body = { config: [{ name: question, type: 'text', description: 'A question' }], sign: [], signatureProfile: [], preBuild: false };
  return {
    id: 'template',
    organization_id: 'organization',
    name: 'Template',
    description: null,
    body: JSON.stringify(body),
    build: 1,
    status: 'active',
    created_at: '2026-11-25T00:00:00.000Z',
    updated_at: '2026-11-25T00:00:00.000Z',
    files_stored: 1,
  };
}

const noCache = { templateCache: undefined };

describe('a parsed body is kept only beside a frozen row, and frozen itself', () => {
  it('a frozen row (as the template cache answers) is parsed once: every creation reads the same parse', () => {
    const template = Object.freeze(row('tenant'));
    const first = parsedTemplateBody(noCache, template);
    expect(parsedTemplateBody(noCache, template)).toBe(first);
    expect(first.config[0]?.name).toBe('tenant');
  });

  it('the kept parse is frozen through and through, so no creation can change what the next reads', () => {
    const body = parsedTemplateBody(noCache, Object.freeze(row('tenant')));
    expect(Object.isFrozen(body)).toBe(true);
    expect(Object.isFrozen(body.config)).toBe(true);
    expect(Object.isFrozen(body.config[0])).toBe(true);
    expect(() => {
      (body.config as unknown as unknown[]).push({});
    }).toThrow(TypeError);
  });

  it('a row that is not frozen could change, so it is parsed anew for each caller', () => {
    const template = row('tenant');
    const first = parsedTemplateBody(noCache, template);
    expect(parsedTemplateBody(noCache, template)).not.toBe(first);
    template.body = row('landlord').body;
    expect(parsedTemplateBody(noCache, template).config[0]?.name).toBe('landlord');
  });

  it('the row loaded after a write is another object, with its own parse of its own body', () => {
    const before = Object.freeze(row('tenant'));
    const after = Object.freeze(row('landlord'));
    expect(parsedTemplateBody(noCache, before).config[0]?.name).toBe('tenant');
    expect(parsedTemplateBody(noCache, after).config[0]?.name).toBe('landlord');
  });
});
