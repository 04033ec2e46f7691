import crypto from 'node:crypto';
import path from 'node:path';
import type { Config } from './config.js';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import type { ServiceContext } from './context.js';
import { openDatabase, type Db } from './db/database.js';
import type { BlobStore } from './files/blob-store.js';
import { LocalBlobStore } from './files/local-blob-store.js';
import { S3BlobStore } from './files/s3-blob-store.js';
import { UrlSigner } from './files/url-signer.js';

export interface Deps extends ServiceContext {
  signer: UrlSigner;
  close(): Promise<void>;
}

/** Shared by every instance through the database unless the operator sets URL_SIGNING_SECRET. */
async function urlSigningSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db
    .insertInto('settings')
    .values({ key: 'url_signing_secret', value: crypto.randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'url_signing_secret').executeTakeFirstOrThrow();
  return row.value;
}

/** The one place where the outside world is chosen from configuration. Tests pass their own clock. */
export async function createDeps(config: Config, overrides: { clock?: Clock } = {}): Promise<Deps> {
  const clock = overrides.clock ?? systemClock;
  const database = await openDatabase(config);
  const signer = new UrlSigner(await urlSigningSecret(database.db, config.urlSigningSecret), clock);
  const s3 = config.s3 ? new S3BlobStore(config.s3, clock) : undefined;
  const blobs: BlobStore = s3 ?? new LocalBlobStore(path.join(config.dataDir, 'files'), config.publicUrl, signer);
  return {
    db: database.db,
    dialect: database.dialect,
    clock,
    blobs,
    signer,
    publicUrl: config.publicUrl,
    async close() {
      s3?.destroy();
      await database.close();
    },
  };
}
