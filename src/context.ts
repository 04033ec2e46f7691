import type { Clock } from './clock.js';
import type { Db, Dialect } from './db/database.js';
import type { BlobStore } from './files/blob-store.js';
import type { OutboxSignal } from './outbox/enqueue.js';
import type { PhotoVault } from './photos/photo-vault.js';
import type { TemplateCache } from './templates/cache/template-cache.js';
import type { WhatsAppTemplates } from './whatsapp/message/approved-templates.js';

/** What a domain operation may touch: the store, the time and the outside world, chosen in one place (deps.ts). */
export interface ServiceContext {
  db: Db;
  dialect: Dialect;
  clock: Clock;
  blobs: BlobStore;
  /** Identity photos: encrypted in `blobs`, served through the service's own short-lived URLs. */
  photos: PhotoVault;
  /** The AES-256 key of sensitive data at rest (PHOTO_ENCRYPTION_KEY, or the one kept in the database): photos, TOTP secrets. */
  dataKey: Buffer;
  publicUrl: string;
  /** Woken after a commit that queued messages, so delivery starts at once. */
  outbox: OutboxSignal;
  allowPrivateUrls: boolean;
  /** Largest file accepted by upload URLs and inline in requests. */
  uploadMaxBytes: number;
  whatsappTemplates: WhatsAppTemplates;
  /** Templates read lately, on SQLite only: several PostgreSQL instances could not see each other's writes. */
  templateCache: TemplateCache | undefined;
}
