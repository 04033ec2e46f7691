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
    const byName = reusableQuery((db, p: { name: string }) => db.selectFrom('organizations').select(['id', 'name']).where('name', '=', p.name));
    expect((await byName(svc.deps.db, { name: 'Acme' })).map((o) => o.id)).toEqual([svc.orgA.id]);
    expect((await byName(svc.deps.db, { name: 'Globex' })).map((o) => o.id)).toEqual([svc.orgB.id]);
    expect(await byName(svc.deps.db, { name: 'Nobody' })).toEqual([]);
  });

  it('never sees what an open transaction wrote: a query started meanwhile answers after it ends', async () => {
    const byName = reusableQuery((db, p: { name: string }) => db.selectFrom('organizations').select('id').where('name', '=', p.name));
    expect(await byName(svc.deps.db, { name: 'Uncommitted' })).toEqual([]);
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
    const during = byName(svc.deps.db, { name: 'Uncommitted' });
    rollBack();
    await expect(transaction).rejects.toThrow('roll back');
    expect(await during).toEqual([]);
    expect((await byName(svc.deps.db, { name: 'Acme' })).map((o) => o.id)).toEqual([svc.orgA.id]);
  });

  it('takes its parameters by name, in whatever order the SQL uses them, a name used twice included', async () => {
    const query = reusableQuery((db, p: { id: string; name: string }) =>
      db.selectFrom('organizations').select('id').where('id', '=', p.id).where('name', '=', p.name).where('id', '=', p.id),
    );
    expect((await query(svc.deps.db, { name: 'Acme', id: svc.orgA.id })).map((o) => o.id)).toEqual([svc.orgA.id]);
    expect(await query(svc.deps.db, { name: 'Acme', id: svc.orgB.id })).toEqual([]);
    expect((await query(svc.deps.db, { name: 'Globex', id: svc.orgB.id })).map((o) => o.id)).toEqual([svc.orgB.id]);
  });

  it('keeps the values the SQL fixes itself, beside the named ones', async () => {
    const query = reusableQuery((db, p: { id: string }) => db.selectFrom('organizations').select('id').where('id', '=', p.id).where('name', '=', 'Acme'));
    expect((await query(svc.deps.db, { id: svc.orgA.id })).map((o) => o.id)).toEqual([svc.orgA.id]);
    expect(await query(svc.deps.db, { id: svc.orgB.id })).toEqual([]);
  });
});
