import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import type { TemplateRow } from '../src/db/schema.js';
import { parsedTemplateBody } from '../src/documents/creating/template-body.js';
import { TemplateCache } from '../src/templates/cache/template-cache.js';

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

/** A cache keeping `template`, as it does for the rows it answers; answers the row object it keeps. */
async function keeping(template: TemplateRow): Promise<{ ctx: { templateCache: TemplateCache }; kept: Readonly<TemplateRow> }> {
  const cache = new TemplateCache(new ManualClock(), 1024 * 1024);
  const kept = await cache.find(template.organization_id, template.id, async () => template);
  if (!kept) throw new Error('the cache answers the row it loaded');
  return { ctx: { templateCache: cache }, kept };
}

describe('a parsed body is kept only beside a row the template cache keeps, and frozen itself', () => {
  it('a row the cache keeps is parsed once: every creation reads the same parse', async () => {
    const { ctx, kept } = await keeping(row('tenant'));
    const first = parsedTemplateBody(ctx, kept);
    expect(parsedTemplateBody(ctx, kept)).toBe(first);
    expect(first.config[0]?.name).toBe('tenant');
  });

  it('the kept parse is frozen through and through, so no creation can change what the next reads', async () => {
    const { ctx, kept } = await keeping(row('tenant'));
    const body = parsedTemplateBody(ctx, kept);
    expect(Object.isFrozen(body)).toBe(true);
    expect(Object.isFrozen(body.config)).toBe(true);
    expect(Object.isFrozen(body.config[0])).toBe(true);
    expect(() => {
      (body.config as unknown as unknown[]).push({});
    }).toThrow(TypeError);
  });

  it('a row no cache keeps could change, so it is parsed anew for each caller', () => {
    const template = row('tenant');
    const first = parsedTemplateBody(noCache, template);
    expect(parsedTemplateBody(noCache, template)).not.toBe(first);
    template.body = row('landlord').body;
    expect(parsedTemplateBody(noCache, template).config[0]?.name).toBe('landlord');
  });

  it('after a write the cache keeps another row object, with its own parse of its own body; the old row gets none kept', async () => {
    const { ctx, kept: before } = await keeping(row('tenant'));
    expect(parsedTemplateBody(ctx, before).config[0]?.name).toBe('tenant');
    ctx.templateCache.written(before.id);
    const after = await ctx.templateCache.find(before.organization_id, before.id, async () => row('landlord'));
    if (!after) throw new Error('the cache answers the row it loaded');
    expect(parsedTemplateBody(ctx, after).config[0]?.name).toBe('landlord');
    expect(parsedTemplateBody(ctx, before)).not.toBe(parsedTemplateBody(ctx, before));
  });
});
