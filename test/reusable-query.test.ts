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

  it('never sees what an open transaction wrote: a query started meanwhile answers after it ends', async () => {
    const byName = reusableQuery((db, name: string) => db.selectFrom('organizations').select('id').where('name', '=', name));
    expect(await byName(svc.deps.db, 'Uncommitted')).toEqual([]);
    let rollBack: () => void = () => undefined;
    const rolledBack = new Promise<void>((resolve) => (rollBack = resolve));
    let written: () => void = () => undefined;
    const renamed = new Promise<void>((resolve) => (written = resolve));
    const transaction = svc.deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('organizations').set({ name: 'Uncommitted' }).where('id', '=', svc.orgA.id).execute();
      written();
      await rolledBack;
      throw new Error('roll back');
    });
    await renamed;
    const during = byName(svc.deps.db, 'Uncommitted');
    rollBack();
    await expect(transaction).rejects.toThrow('roll back');
    expect(await during).toEqual([]);
    expect((await byName(svc.deps.db, 'Acme')).map((o) => o.id)).toEqual([svc.orgA.id]);
  });

  it('refuses a query that does not use its parameters once each, in order', async () => {
    const swapped = reusableQuery((db, name: string, id: string) => db.selectFrom('organizations').select('id').where('id', '=', id).where('name', '=', name));
    await expect(swapped(svc.deps.db, 'Acme', svc.orgA.id)).rejects.toThrow('must use each of its parameters once, in order');
  });
});
