import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../src/clock.js';
import type { TemplateRow } from '../src/db/schema.js';
import { newObjectId } from '../src/ids.js';
import { TEMPLATE_CACHE_TTL_MS, TemplateCache } from '../src/templates/cache/template-cache.js';
import { KeptBesideRows } from '../src/templates/kept-beside-rows.js';
import { sampleTemplate } from './support/fixtures.js';
import { call, dialects, localPath, startTestService, type TestService } from './support/service.js';

/** Changes a template's description the way a tool outside the service would: its own connection to the file. */
function describeFromOutside(svc: TestService, id: string, description: string): void {
  const file = new BetterSqlite3(path.join(svc.config.dataDir, 'service.sqlite'));
  try {
    file.pragma('busy_timeout = 5000');
    file.prepare('UPDATE templates SET description = ? WHERE id = ?').run(description, id);
  } finally {
    file.close();
  }
}

async function create(svc: TestService, key: string): Promise<string> {
  const res = await call(svc.app, 'POST', '/template', { key, body: sampleTemplate() });
  expect(res.statusCode).toBe(200);
  return String(res.json().id);
}

const read = (svc: TestService, id: string, key: string) => call(svc.app, 'GET', `/template?id=${id}`, { key });

describe('on SQLite, templates read lately are answered from memory for at most a second', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService('sqlite');
  });
  afterAll(async () => svc.close());

  it('a change made outside the service shows within one second, not on every read', async () => {
    const id = await create(svc, svc.orgA.privateKey);
    expect((await read(svc, id, svc.orgA.privateKey)).json().description).toBe('Sale of goods between two parties');
    describeFromOutside(svc, id, 'Changed by an operator');
    expect((await read(svc, id, svc.orgA.privateKey)).json().description).toBe('Sale of goods between two parties');
    svc.clock.advance(TEMPLATE_CACHE_TTL_MS);
    expect((await read(svc, id, svc.orgA.privateKey)).json().description).toBe('Changed by an operator');
  });

  it('a change made through the API shows on the next read', async () => {
    const id = await create(svc, svc.orgA.privateKey);
    await read(svc, id, svc.orgA.privateKey);
    expect((await call(svc.app, 'PUT', '/template', { key: svc.orgA.privateKey, body: { id, description: 'Updated' } })).statusCode).toBe(200);
    expect((await read(svc, id, svc.orgA.privateKey)).json().description).toBe('Updated');
  });

  it('a template deleted through the API is gone on the next read', async () => {
    const id = await create(svc, svc.orgA.privateKey);
    expect((await read(svc, id, svc.orgA.privateKey)).statusCode).toBe(200);
    expect((await call(svc.app, 'DELETE', '/template', { key: svc.orgA.privateKey, query: { id } })).statusCode).toBe(200);
    const res = await read(svc, id, svc.orgA.privateKey);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
  });

  it("another organization's template is TEMPLATE_NOT_FOUND while it is kept in memory, and stays the other's", async () => {
    const ofA = await create(svc, svc.orgA.privateKey);
    const ofB = await create(svc, svc.orgB.privateKey);
    expect((await read(svc, ofA, svc.orgA.privateKey)).statusCode).toBe(200);
    expect((await read(svc, ofB, svc.orgB.privateKey)).statusCode).toBe(200);
    for (const [id, key] of [
      [ofA, svc.orgB.privateKey],
      [ofB, svc.orgA.privateKey],
    ] as const) {
      const res = await read(svc, id, key);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
    }
    expect((await read(svc, ofA, svc.orgA.privateKey)).json().id).toBe(ofA);
    expect((await read(svc, ofB, svc.orgB.privateKey)).json().id).toBe(ofB);
  });

  it('a refused update leaves the stored template answered as it is', async () => {
    const id = await create(svc, svc.orgA.privateKey);
    await read(svc, id, svc.orgA.privateKey);
    const refused = await call(svc.app, 'PUT', '/template', { key: svc.orgA.privateKey, body: { id, description: '' } });
    expect(refused.statusCode).toBe(400);
    expect((await read(svc, id, svc.orgA.privateKey)).json().description).toBe('Sale of goods between two parties');
  });
});

describe('every write of a template tells the template cache, through the one function that writes templates', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService('sqlite');
  });
  afterAll(async () => svc.close());

  /** The ids the cache is told were written while `act` runs. */
  async function told(act: () => Promise<void>): Promise<string[]> {
    const cache = svc.deps.templateCache;
    if (!cache) throw new Error('the SQLite service keeps a template cache');
    const written = vi.spyOn(cache, 'written');
    try {
      await act();
      return written.mock.calls.map(([id]) => id);
    } finally {
      written.mockRestore();
    }
  }

  it('creating a template tells the cache its id', async () => {
    let id = '';
    expect(
      await told(async () => {
        id = await create(svc, svc.orgA.privateKey);
      }),
    ).toEqual([id]);
  });

  it('updating a template tells the cache, and the next read answers the change', async () => {
    const id = await create(svc, svc.orgA.privateKey);
    await read(svc, id, svc.orgA.privateKey);
    const update = () => call(svc.app, 'PUT', '/template', { key: svc.orgA.privateKey, body: { id, name: 'Renamed' } });
    expect(await told(async () => expect((await update()).statusCode).toBe(200))).toEqual([id]);
    expect((await read(svc, id, svc.orgA.privateKey)).json().name).toBe('Renamed');
  });

  it('recording an uploaded HTML file on its template tells the cache', async () => {
    const res = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() });
    const { id, urls } = res.json();
    const upload = () => svc.app.inject({ method: 'PUT', url: localPath(urls.complete), headers: { 'content-type': 'text/html' }, payload: '<p>x</p>' });
    expect(await told(async () => expect((await upload()).statusCode).toBe(200))).toEqual([id]);
  });

  it('deleting a template tells the cache, with or without reference links, and the next read is TEMPLATE_NOT_FOUND', async () => {
    const plain = await create(svc, svc.orgA.privateKey);
    const linked = await create(svc, svc.orgA.privateKey);
    expect((await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template: linked } })).statusCode).toBe(200);
    for (const id of [plain, linked]) {
      await read(svc, id, svc.orgA.privateKey);
      const remove = () => call(svc.app, 'DELETE', '/template', { key: svc.orgA.privateKey, query: { id } });
      expect(await told(async () => expect((await remove()).statusCode).toBe(200))).toEqual([id]);
      expect((await read(svc, id, svc.orgA.privateKey)).json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
    }
  });

  it("a refused write of another organization's template still leaves it answered to its own", async () => {
    const ofB = await create(svc, svc.orgB.privateKey);
    await read(svc, ofB, svc.orgB.privateKey);
    const refused = await call(svc.app, 'PUT', '/template', { key: svc.orgA.privateKey, body: { id: ofB, name: 'Taken' } });
    expect(refused.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
    expect((await read(svc, ofB, svc.orgB.privateKey)).json().name).toBe(sampleTemplate().name);
  });

  it('no module but template-writes.ts reaches the statements that change the templates table', () => {
    const importers = fs
      .readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /from '[./]*(templates\/)?write-queries\.js'/.test(fs.readFileSync(path.join('src', file), 'utf8')));
    expect(importers).toEqual([path.join('templates', 'template-writes.ts')]);
  });
});

describe('TEMPLATE_CACHE_MB=0 turns the template cache off', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService('sqlite', { TEMPLATE_CACHE_MB: '0' });
  });
  afterAll(async () => svc.close());

  it('every read goes to the database: a change made outside shows at once', async () => {
    expect(svc.deps.templateCache).toBeUndefined();
    const id = await create(svc, svc.orgA.privateKey);
    const ofB = await create(svc, svc.orgB.privateKey);
    await read(svc, id, svc.orgA.privateKey);
    describeFromOutside(svc, id, 'Changed by an operator');
    expect((await read(svc, id, svc.orgA.privateKey)).json().description).toBe('Changed by an operator');
    expect((await read(svc, ofB, svc.orgA.privateKey)).statusCode).toBe(404);
  });
});

describe.each(dialects.filter((dialect) => dialect === 'postgres'))('on PostgreSQL nothing is kept in memory (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  it('several instances share the store, so a template is always read from it', () => {
    expect(svc.deps.templateCache).toBeUndefined();
  });
});

describe('TemplateCache keeps only what it can trust, within its memory budget', () => {
  const clock = new ManualClock();
  const organizationId = newObjectId(clock.now());

  function row(id: string, bodyLength = 100): TemplateRow {
    const now = clock.now().toISOString();
    return {
      id,
      organization_id: organizationId,
      name: 'Template',
      description: null,
      body: JSON.stringify({ text: 'x'.repeat(bodyLength) }),
      build: 1,
      status: 'active',
      created_at: now,
      updated_at: now,
      files_stored: 0,
    };
  }

  /** Counts how often the cache asks the database. */
  function loader(found: (id: string) => TemplateRow | undefined) {
    const loads: string[] = [];
    return {
      loads,
      load: (id: string) => async () => {
        loads.push(id);
        return found(id);
      },
    };
  }

  it('a template read again within a second is not loaded again; after a second it is', async () => {
    const cache = new TemplateCache(clock, 1024 * 1024);
    const id = newObjectId(clock.now());
    const db = loader(() => row(id));
    await cache.find(organizationId, id, db.load(id));
    await cache.find(organizationId, id, db.load(id));
    expect(db.loads).toEqual([id]);
    clock.advance(TEMPLATE_CACHE_TTL_MS);
    await cache.find(organizationId, id, db.load(id));
    expect(db.loads).toEqual([id, id]);
  });

  it('reads that miss together share one load and answer one row; a write meanwhile starts a new load', async () => {
    const cache = new TemplateCache(clock, 1024 * 1024);
    const id = newObjectId(clock.now());
    const db = loader(() => row(id));
    const together = await Promise.all([1, 2, 3].map(() => cache.find(organizationId, id, db.load(id))));
    expect(db.loads).toEqual([id]);
    expect(new Set(together).size).toBe(1);
    clock.advance(TEMPLATE_CACHE_TTL_MS);
    const first = cache.find(organizationId, id, db.load(id));
    cache.written(id);
    const second = cache.find(organizationId, id, db.load(id));
    expect(await first).not.toBe(await second);
    expect(db.loads).toEqual([id, id, id]);
  });

  it("another organization's read never shares a load with this one's", async () => {
    const cache = new TemplateCache(clock, 1024 * 1024);
    const id = newObjectId(clock.now());
    const other = newObjectId(clock.now());
    const db = loader(() => row(id));
    const [ours, theirs] = await Promise.all([cache.find(organizationId, id, db.load(id)), cache.find(other, id, async () => undefined)]);
    expect(ours?.id).toBe(id);
    expect(theirs).toBeUndefined();
  });

  it('what is kept cannot be changed by whoever reads it', async () => {
    const cache = new TemplateCache(clock, 1024 * 1024);
    const id = newObjectId(clock.now());
    const found = await cache.find(organizationId, id, loader(() => row(id)).load(id));
    expect(Object.isFrozen(found)).toBe(true);
  });

  it('a template written is loaded again; the others stay in memory', async () => {
    const cache = new TemplateCache(clock, 1024 * 1024);
    const [written, other] = [newObjectId(clock.now()), newObjectId(clock.now())];
    const db = loader((id) => row(id));
    for (const id of [written, other]) await cache.find(organizationId, id, db.load(id));
    cache.written(written);
    for (const id of [written, other]) await cache.find(organizationId, id, db.load(id));
    expect(db.loads).toEqual([written, other, written]);
  });

  it("a write told to one cache leaves another cache's entries alone", async () => {
    const [cache, other] = [new TemplateCache(clock, 1024 * 1024), new TemplateCache(clock, 1024 * 1024)];
    const id = newObjectId(clock.now());
    const db = loader(() => row(id));
    await cache.find(organizationId, id, db.load(id));
    await other.find(organizationId, id, db.load(id));
    cache.written(id);
    await other.find(organizationId, id, db.load(id));
    await cache.find(organizationId, id, db.load(id));
    expect(db.loads).toEqual([id, id, id]);
  });

  it('a read that a write overtook is answered but not kept', async () => {
    const cache = new TemplateCache(clock, 1024 * 1024);
    const id = newObjectId(clock.now());
    const loads: string[] = [];
    const overtaken = async () => {
      loads.push(id);
      cache.written(newObjectId(clock.now()));
      return row(id);
    };
    expect((await cache.find(organizationId, id, overtaken))?.id).toBe(id);
    await cache.find(organizationId, id, overtaken);
    expect(loads).toEqual([id, id]);
  });

  it('an unknown id is never kept, so guessing cannot fill the memory', async () => {
    const cache = new TemplateCache(clock, 1024 * 1024);
    const id = newObjectId(clock.now());
    const db = loader(() => undefined);
    expect(await cache.find(organizationId, id, db.load(id))).toBeUndefined();
    expect(await cache.find(organizationId, id, db.load(id))).toBeUndefined();
    expect(db.loads).toEqual([id, id]);
  });

  it('over the budget the oldest entries leave first; a template larger than the budget is never kept', async () => {
    const cache = new TemplateCache(clock, 4000);
    const ids = [newObjectId(clock.now()), newObjectId(clock.now()), newObjectId(clock.now())];
    const huge = newObjectId(clock.now());
    const db = loader((id) => row(id, id === huge ? 5000 : 1000));
    for (const id of ids) await cache.find(organizationId, id, db.load(id));
    for (const id of [...ids].reverse()) await cache.find(organizationId, id, db.load(id));
    expect(db.loads).toEqual([...ids, ids[0]]);
    await cache.find(organizationId, huge, db.load(huge));
    await cache.find(organizationId, huge, db.load(huge));
    expect(db.loads.filter((id) => id === huge)).toHaveLength(2);
  });

  it('what is kept beside a row is forgotten when the row leaves: a write, or the budget', async () => {
    const cache = new TemplateCache(clock, 6000);
    const beside = new KeptBesideRows<string>();
    const [written, pushedOut, newer] = [newObjectId(clock.now()), newObjectId(clock.now()), newObjectId(clock.now())];
    const db = loader((id) => row(id, 1000));
    const kept = await cache.find(organizationId, written, db.load(written));
    const old = await cache.find(organizationId, pushedOut, db.load(pushedOut));
    if (!kept || !old) throw new Error('both templates exist');
    expect(beside.keep(cache, kept, 'parse of the written one')).toBe(true);
    expect(beside.keep(cache, old, 'parse of the oldest', 1500)).toBe(true);
    cache.written(written);
    expect(beside.find(kept)).toBeUndefined();
    expect(beside.find(old)).toBe('parse of the oldest');
    await cache.find(organizationId, newer, db.load(newer));
    await cache.find(organizationId, written, db.load(written));
    expect(beside.find(old)).toBeUndefined();
  });

  it('nothing is kept beside a row the cache does not keep', async () => {
    const cache = new TemplateCache(clock, 1024 * 1024);
    const beside = new KeptBesideRows<string>();
    const id = newObjectId(clock.now());
    const before = await cache.find(organizationId, id, loader(() => row(id)).load(id));
    if (!before) throw new Error('the template exists');
    cache.written(id);
    expect(beside.keep(cache, before, 'parse of a row written since')).toBe(false);
    expect(beside.find(before)).toBeUndefined();
    expect(beside.keep(cache, row(id), 'parse of a row read elsewhere')).toBe(false);
  });
});
