import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reusableQuery } from '../src/db/reusable-query.js';
import { dialects, startTestService, type TestService } from './support/service.js';

describe.each(dialects)('a reusable query is compiled once and run with new parameters (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  it('answers for each call its own parameters, never the first call', async () => {
    const byName = reusableQuery((db, name: string) => db.selectFrom('organizations').select(['id', 'name']).where('name', '=', name));
    expect((await byName(svc.deps.db, 'Acme')).map((o) => o.id)).toEqual([svc.orgA.id]);
    expect((await byName(svc.deps.db, 'Globex')).map((o) => o.id)).toEqual([svc.orgB.id]);
    expect(await byName(svc.deps.db, 'Nobody')).toEqual([]);
  });

  it('refuses a query that does not use its parameters once each, in order', async () => {
    const swapped = reusableQuery((db, name: string, id: string) =>
      db.selectFrom('organizations').select('id').where('id', '=', id).where('name', '=', name),
    );
    await expect(swapped(svc.deps.db, 'Acme', svc.orgA.id)).rejects.toThrow('must use each of its parameters once, in order');
  });
});
