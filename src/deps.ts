import crypto from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Agent } from 'undici';
import { ApiKeyResolver } from './auth/key-resolver.js';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { type Config, ConfigError } from './config.js';
import { CONSOLE_SIGN_IN_JOB, sendSignIns } from './console/sign-in.js';
import type { ServiceContext } from './context.js';
import { type Db, openDatabase } from './db/database.js';
import { keptSetting, replaceKeptSetting } from './db/kept-settings.js';
import { collectUploadedPdfs } from './documents/creating/pdf-uploads.js';
import { PRINT_PROCESS_JOB, printProcess } from './documents/creating/print-process.js';
import { expireDueProcesses, remindDueParticipants } from './documents/lifecycle/process-sweeps.js';
import { READER_UPDATE_JOB, sendReaderUpdate } from './documents/readers/notify-readers.js';
import { runSealJob } from './documents/sealing/seal-failure.js';
import { SEAL_PROCESS_JOB } from './documents/sealing/seal-job-name.js';
import type { BlobStore } from './files/blob-store.js';
import { LocalBlobStore } from './files/local-blob-store.js';
import { S3BlobStore } from './files/s3-blob-store.js';
import { UrlSigner } from './files/url-signer.js';
import { Readiness } from './health/readiness.js';
import { type HitCounter, PostgresHitCounter } from './http/rate-limit-store.js';
import { chooseSenders } from './messages/choose-senders.js';
import { emailHandler, smsHandler, whatsAppHandler } from './messages/handlers.js';
import type { Channel } from './messages/local-mailbox.js';
import { jobHandler, type RecurringJob } from './outbox/jobs.js';
import { OutboxWorker, type WorkerLogger } from './outbox/worker.js';
import type { DocumentSigner } from './pdf-signing/seal-signature.js';
import {
  hasDerSerial,
  identityFromP12,
  identityFromStored,
  makeSelfSignedIdentity,
  type SigningIdentity,
  SigningIdentityError,
  type StoredIdentity,
} from './pdf-signing/signing-identity.js';
import { failoverTimestampClient } from './pdf-signing/timestamp-client.js';
import { type PageAssets, pageAssets } from './people/assets.js';
import { EmbeddingOrigins } from './people/embed.js';
import { dataKeyOf } from './photos/data-key.js';
import { purgeDuePhotos } from './photos/deletion/purge-photos.js';
import { PhotoVault } from './photos/photo-vault.js';
import type { PdfRenderer } from './rendering/renderer.js';
import { RendererThread } from './rendering/renderer-thread.js';
import { TemplateCache } from './templates/cache/template-cache.js';
import { DocumentReader } from './veriface/document/document-reader.js';
import { expireDueVerifaces } from './veriface/expire-verifaces.js';
import { LocalFaceMatcher } from './veriface/face/local-matcher.js';
import { type FaceMatcher, manualReview } from './veriface/face-matcher.js';
import { webhookDeliveryHandler } from './webhooks/deliver-webhook.js';
import { guardedLookup } from './webhooks/url-guard.js';
import type { HandleChatMessage } from './whatsapp/chat-context.js';
import { handleChatMessage } from './whatsapp/conversation/handle-message.js';
import { drainConversation } from './whatsapp/inbound/drain.js';
import { CONVERSATION_JOB } from './whatsapp/inbound/receive.js';
import type { WhatsAppWebhookSecrets } from './whatsapp/inbound/routes.js';
import { CloudChatMedia } from './whatsapp/media/cloud-media.js';
import { LocalChatMedia } from './whatsapp/media/local-media.js';
import type { ChatMedia } from './whatsapp/message/chat-message.js';
import { whatsAppDeliveryRecords } from './whatsapp/records/delivery-records.js';

/** Scheduled work every instance keeps going (one pending row each, shared through the outbox). */
export const RECURRING_JOBS: RecurringJob[] = [
  { name: 'veriface-expiry', everyMs: 60_000 },
  { name: 'process-expiry', everyMs: 60_000 },
  { name: 'process-reminders', everyMs: 60_000 },
  { name: 'document-uploads', everyMs: 60_000 },
  { name: 'photo-retention', everyMs: 60 * 60_000 },
  { name: 'rate-limit-windows', everyMs: 60_000 },
];

export interface Deps extends ServiceContext {
  signer: UrlSigner;
  /** Renders final documents and certificates to PDF. */
  renderer: PdfRenderer;
  /** Signs final PDFs (PAdES) with the instance's certificate. */
  documentSigner: DocumentSigner;
  faceMatcher: FaceMatcher;
  /** The WhatsApp conversation: called for each message a person sends, one at a time per number (src/whatsapp/inbound/drain.ts). */
  handleChatMessage: HandleChatMessage;
  /** The photos people send in WhatsApp: from the Cloud API, or from the local chat page's store. */
  chatMedia: ChatMedia;
  /** What Meta's webhook is checked with (src/whatsapp/inbound/routes.ts). */
  whatsappWebhook: WhatsAppWebhookSecrets;
  /**
   * The readers of identity documents (barcode, OCR, machine-readable zones), each in a worker
   * thread started at the first photo: POST /veriface/check and /veriface/validate, and every flow
   * that photographs an identity document.
   */
  documentReader: DocumentReader;
  keys: ApiKeyResolver;
  worker: OutboxWorker;
  /** The people's pages' scripts and styles. */
  pageAssets: PageAssets;
  embeddingOrigins: EmbeddingOrigins;
  /**
   * Where per-address limits are counted: in the database on PostgreSQL, so that instances behind
   * one balancer share them; undefined on SQLite (one instance), where @fastify/rate-limit counts in memory.
   */
  rateLimitHits: HitCounter | undefined;
  /** What this instance has started and how far each piece got (GET /health). */
  readiness: Readiness;
  /**
   * What a serving instance runs beside its requests: the outbox worker, the face workers and the
   * store's upkeep. Called before the service listens, so /health counts them from its first answer.
   */
  startBackgroundWork(): void;
  /** Renders a tiny PDF to check the renderer (a serving instance does at start), tracked by /health; rejects with what went wrong. */
  startRendererSelfTest(): Promise<void>;
  /** Channels that write to DATA_DIR/mailbox because no provider is configured for them. */
  localMailbox: Channel[];
  close(): Promise<void>;
}

export interface DepsOverrides {
  clock?: Clock;
  logger?: WorkerLogger;
}

/** Shared by every instance through the database unless the operator sets URL_SIGNING_SECRET. */
async function urlSigningSecret(db: Db, configured: string | undefined): Promise<string> {
  return configured ?? keptSetting(db, 'url_signing_secret', () => crypto.randomBytes(32).toString('hex'));
}

/**
 * What Meta signs its deliveries with: WHATSAPP_APP_SECRET. With no provider configured (the local
 * mailbox), a secret kept in the database instead, shared by every instance, for the local chat page
 * to sign what the operator sends as a person, through the same path as Meta's; with a provider but
 * no app secret, none: no delivery can be checked, so none is taken.
 */
async function whatsAppAppSecret(db: Db, config: Config): Promise<string | undefined> {
  if (config.whatsappWebhook.appSecret !== undefined) return config.whatsappWebhook.appSecret;
  if (config.whatsapp !== undefined) return undefined;
  return keptSetting(db, 'whatsapp_local_app_secret', () => crypto.randomBytes(32).toString('hex'));
}

function isStoredIdentity(value: unknown): value is StoredIdentity {
  return (
    typeof value === 'object' &&
    value !== null &&
    'certificate' in value &&
    'privateKey' in value &&
    typeof value.certificate === 'string' &&
    typeof value.privateKey === 'string'
  );
}

/**
 * The certificate final documents are signed with: SIGNING_P12 (a path, or the file in base64),
 * or else a self-signed one made by the first instance to start and shared through the database,
 * as the URL signing secret is. Generating a key takes a moment, so an instance that loses the
 * race simply reads the winner's.
 */
async function signingIdentity(db: Db, config: Config, clock: Clock): Promise<SigningIdentity> {
  if (config.signingP12) {
    const { source, password } = config.signingP12;
    try {
      return await identityFromP12(existsSync(source) ? readFileSync(source) : Buffer.from(source, 'base64'), password);
    } catch (error) {
      // Refused like a bad setting: the service does not start with a certificate it cannot use.
      if (error instanceof SigningIdentityError) throw new ConfigError(`Invalid configuration: SIGNING_P12: ${error.message}`);
      throw error;
    }
  }
  const make = async () =>
    JSON.stringify(await makeSelfSignedIdentity({ commonName: `Document seal of ${new URL(config.publicUrl).host}`, now: clock.now(), years: 10 }));
  const kept = await keptSetting(db, 'document_signing_identity', make);
  const identity = await storedIdentity(kept);
  if (hasDerSerial(identity.certificate)) return identity;
  // Made before serials were always minimal DER: nothing it sealed verifies in NSS, so it is replaced.
  const replacement = await replaceKeptSetting(db, 'document_signing_identity', kept, make);
  return { ...(await storedIdentity(replacement)), replacedUnverifiable: true };
}

async function storedIdentity(kept: string): Promise<SigningIdentity> {
  const stored: unknown = JSON.parse(kept);
  if (!isStoredIdentity(stored)) throw new Error('the stored document signing identity is unreadable');
  return identityFromStored(stored);
}

/** Each authority of TSA_URLS gets this long before the next is asked. */
const TSA_TIMEOUT_MS = 5_000;

const silentLogger: WorkerLogger = { error: () => undefined };

/** A photo that takes longer than this in a worker is given up (its worker replaced); one takes about half a second. */
const FACE_JOB_TIMEOUT_MS = 30_000;

function chooseFaceMatcher(config: Config, logger: WorkerLogger): FaceMatcher | LocalFaceMatcher {
  const face = config.faceMatcher;
  if (face.kind === 'manual') return manualReview;
  return new LocalFaceMatcher({
    size: face.workers,
    queueMax: face.queueMax,
    threshold: face.threshold,
    livenessThreshold: face.livenessThreshold,
    jobTimeoutMs: FACE_JOB_TIMEOUT_MS,
    onWorkerEvent: (event) => {
      if (event.kind === 'died') logger.error({ err: event.error }, 'face worker stopped');
    },
  });
}

/** The one place where the outside world is chosen from configuration. Tests pass their own clock. */
export async function createDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? silentLogger;
  const database = await openDatabase(config);
  const signer = new UrlSigner(await urlSigningSecret(database.db, config.urlSigningSecret), clock);
  const identity = await signingIdentity(database.db, config, clock).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const documentSigner: DocumentSigner = {
    identity,
    timestamps: config.tsaUrls.length > 0 ? failoverTimestampClient({ urls: config.tsaUrls, timeoutMs: TSA_TIMEOUT_MS }) : undefined,
    defaultLevel: config.padesLevel,
  };
  // One browser per instance, in a thread of its own, started on the first render.
  const renderer = new RendererThread({
    chromiumPath: config.chromiumPath,
    concurrency: config.renderConcurrency,
    engine: config.chromiumPath ? `chromium at ${config.chromiumPath}` : 'bundled chromium (@sparticuz/chromium)',
    warn: (details, message) => (logger.warn ?? logger.error).call(logger, details, message),
  });
  const s3 = config.s3 ? new S3BlobStore(config.s3, clock) : undefined;
  const blobs: BlobStore = s3 ?? new LocalBlobStore(path.join(config.dataDir, 'files'), config.publicUrl, signer);
  // Keep-alive connections to receivers; the lookup refuses private addresses at connect time.
  const webhookAgent = new Agent({
    connections: config.webhookConnections,
    keepAliveTimeout: 10_000,
    ...(config.webhookAllowPrivate ? {} : { connect: { lookup: guardedLookup } }),
  });
  const senders = chooseSenders({
    dataDir: config.dataDir,
    clock,
    timeoutMs: config.messageTimeoutMs,
    smtp: config.smtp,
    whatsapp: config.whatsapp,
    sms: config.sms,
    blobs,
  });
  const rateLimitHits = database.dialect === 'postgres' ? new PostgresHitCounter(database.db) : undefined;
  const worker = new OutboxWorker({
    db: database.db,
    dialect: database.dialect,
    clock,
    logger,
    batchSize: config.outboxBatchSize,
    leaseMs: config.outboxLeaseMs,
    handlers: {
      webhook: webhookDeliveryHandler({
        db: database.db,
        clock,
        dispatcher: webhookAgent,
        allowPrivateUrls: config.webhookAllowPrivate,
        timeoutMs: config.webhookTimeoutMs,
        connectionsPerOrigin: config.webhookConnections,
        blobs,
      }),
      email: emailHandler(senders.mailer, blobs),
      // The worker is the outbox signal of the records' transactions; it exists by the time one runs.
      whatsapp: whatsAppHandler(senders.whatsapp, whatsAppDeliveryRecords({ db: database.db, clock, outbox: { wake: () => worker.wake() } })),
      sms: smsHandler(senders.sms),
      // The runners read `deps` only when a job runs, after it is built below.
      job: jobHandler(
        {
          'veriface-expiry': () => expireDueVerifaces(database.db, clock),
          'process-expiry': () => expireDueProcesses(deps),
          'process-reminders': () => remindDueParticipants(deps),
          'document-uploads': () => collectUploadedPdfs(deps),
          'photo-retention': () => purgeDuePhotos(deps),
          'rate-limit-windows': async () => rateLimitHits?.deleteEndedWindows(),
          [CONVERSATION_JOB]: (data, claim) =>
            drainConversation(deps, {
              phone: typeof data?.phone === 'string' ? data.phone : '',
              // Read when the job runs: tests put a recording conversation in its place.
              handle: deps.handleChatMessage,
              claim,
              leaseMs: config.outboxLeaseMs,
            }),
          [CONSOLE_SIGN_IN_JOB]: (data) =>
            sendSignIns(deps, { email: typeof data?.email === 'string' ? data.email : '', address: typeof data?.address === 'string' ? data.address : '' }),
          [SEAL_PROCESS_JOB]: (data, claim) => runSealJob(deps, { processId: typeof data?.processId === 'string' ? data.processId : '', claim, logger }),
          [READER_UPDATE_JOB]: (data, claim) => sendReaderUpdate(deps, { data, ...(claim ? { claim } : {}) }),
          [PRINT_PROCESS_JOB]: (data) => printProcess(deps, { processId: typeof data?.processId === 'string' ? data.processId : '' }),
        },
        clock,
      ),
    },
  });
  const faceMatcher = chooseFaceMatcher(config, logger);
  const documentReader = new DocumentReader();
  const readiness = new Readiness();
  // openDatabase answers once the store is migrated.
  readiness.passed('migrations');
  // Photos and the console's TOTP secrets: the one key the service encrypts sensitive data with.
  const dataKey = await dataKeyOf(database.db, config.photoEncryptionKey);
  const deps: Deps = {
    db: database.db,
    dialect: database.dialect,
    clock,
    blobs,
    photos: new PhotoVault({
      db: database.db,
      clock,
      blobs,
      signer,
      publicUrl: config.publicUrl,
      key: dataKey,
    }),
    dataKey,
    signer,
    renderer,
    documentSigner,
    keys: new ApiKeyResolver(database.db, clock),
    pageAssets: await pageAssets(),
    embeddingOrigins: new EmbeddingOrigins({ db: database.db, clock }),
    rateLimitHits,
    faceMatcher,
    handleChatMessage,
    chatMedia: config.whatsapp
      ? new CloudChatMedia({ token: config.whatsapp.token, baseUrl: config.whatsapp.baseUrl, timeoutMs: config.messageTimeoutMs })
      : new LocalChatMedia(blobs),
    whatsappWebhook: { verifyToken: config.whatsappWebhook.verifyToken, appSecret: await whatsAppAppSecret(database.db, config) },
    documentReader,
    worker,
    readiness,
    startBackgroundWork() {
      worker.start();
      readiness.passed('outbox');
      // A serving instance loads the face model now, not while a person waits; tests and the CLI
      // start the workers only if they compare faces.
      if (faceMatcher instanceof LocalFaceMatcher) void readiness.track('faceWorkers', faceMatcher.pool.startWorkers());
      database.startUpkeep((error) => logger.error({ err: error }, 'database upkeep failed'));
    },
    startRendererSelfTest: () => readiness.track('renderer', renderer.selfTest()),
    localMailbox: senders.local,
    outbox: worker,
    allowPrivateUrls: config.webhookAllowPrivate,
    whatsappTemplates: config.whatsappTemplates,
    uploadMaxBytes: config.uploadMaxBytes,
    templateCache: database.dialect === 'sqlite' && config.templateCacheBytes > 0 ? new TemplateCache(clock, config.templateCacheBytes) : undefined,
    publicUrl: config.publicUrl,
    async close() {
      await worker.stop();
      await faceMatcher.close();
      await renderer.close();
      await documentReader.close();
      await webhookAgent.close();
      await senders.close();
      s3?.destroy();
      await database.close();
    },
  };
  return deps;
}
