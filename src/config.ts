import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Joi from 'joi';
import type { S3Config } from './files/s3-blob-store.js';
import { TWILIO_API_URL } from './messages/twilio-sms.js';
import { WHATSAPP_CLOUD_API_URL } from './messages/whatsapp-cloud.js';
import { isPadesLevel, needsTimestamps, PADES_LEVELS, type PadesLevel } from './pdf-signing/pades-level.js';
import { parsePhotoKey } from './photos/photo-cipher.js';
import type { WhatsAppTemplates } from './whatsapp/message/approved-templates.js';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databaseSchema: string;
  /** PostgreSQL: frequent statements prepared once per connection (src/db/prepared-statements.ts). */
  databasePreparedStatements: boolean;
  uploadMaxBytes: number;
  /** Memory for templates read lately, on SQLite (0: none). */
  templateCacheBytes: number;
  urlSigningSecret: string | undefined;
  /** The AES-256 key identity photos are encrypted with; made and kept in the database when unset. */
  photoEncryptionKey: Buffer | undefined;
  logLevel: string;
  s3: S3Config | undefined;
  /** Let webhooks reach private, loopback and link-local addresses (local receivers, tests). */
  webhookAllowPrivate: boolean;
  webhookTimeoutMs: number;
  /** Connections kept open to each receiver's origin; more deliveries than this wait for one, unclocked. */
  webhookConnections: number;
  /** Outbox messages claimed and delivered side by side by one worker round. */
  outboxBatchSize: number;
  /** How long a worker's claim holds: after a crash, its messages wait this long before another worker retakes them. */
  outboxLeaseMs: number;
  /** Longest one e-mail, WhatsApp or SMS delivery may take. */
  messageTimeoutMs: number;
  /** E-mail through this SMTP relay; the local mailbox (DATA_DIR/mailbox) when unset. */
  smtp: { url: string; from: string } | undefined;
  /** WhatsApp through Meta's Cloud API; the local mailbox when unset. */
  whatsapp: { token: string; phoneNumberId: string; baseUrl: string } | undefined;
  /**
   * Approved WhatsApp message templates for invitations the business starts (Meta refuses free text
   * outside a conversation the person opened): the face-validation invitation takes two body
   * parameters, the person's name and the link. Free text when unset (the local mailbox, tests).
   */
  whatsappTemplates: WhatsAppTemplates;
  /**
   * Meta's webhook of the WhatsApp Business Cloud API (PUBLIC_URL/whatsapp/webhook): the token the
   * subscription handshake must repeat, and the app secret every delivery is signed with. Unset, the
   * handshake is answered 404, and so are deliveries unless no provider is configured (see deps.ts).
   */
  whatsappWebhook: { verifyToken: string | undefined; appSecret: string | undefined };
  /** SMS through a Twilio-compatible Messages API; the local mailbox when unset. */
  sms: { baseUrl: string; accountSid: string; authToken: string; from: string } | undefined;
  /** Failed authentications one client address may make in a window before it is answered 429. */
  authFailures: { max: number; windowMs: number };
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (Fastify's trustProxy): none
   * (false), the number of proxies in front of the service (their hops), or their addresses and
   * CIDR ranges. Never every sender (true): every per-address limit is keyed on that address, and a
   * client writes its own X-Forwarded-For as it likes.
   */
  trustProxy: false | number | string[];
  /**
   * The port, bound to 127.0.0.1 only, on which the local WhatsApp chat's operator needs no key
   * (src/auth/operator-machine.ts); undefined when off. Its own listener, not the service's port:
   * a reverse proxy on the same machine relays the service's port from loopback.
   */
  localChatPort: number | undefined;
  /** How long the server waits for a whole request, for its headers, and keeps an idle connection. */
  timeouts: { requestMs: number; headersMs: number; keepAliveMs: number };
  /**
   * How faces are compared with identity documents: `local` (face-api in worker threads on this
   * machine) or `manual` (every comparison waits for a person).
   */
  faceMatcher: { kind: 'local'; workers: number; queueMax: number; threshold: number; livenessThreshold: number } | { kind: 'manual' };
  /** A Chromium to render PDFs with; the one inside the @sparticuz/chromium package when unset. */
  chromiumPath: string | undefined;
  /** Pages the renderer prints at once. */
  renderConcurrency: number;
  /** The PKCS#12 final documents are signed with (a path, or its bytes in base64); a self-signed certificate when unset. */
  signingP12: { source: string; password: string } | undefined;
  /** RFC 3161 timestamp authorities for the documents' signatures (PAdES B-T and up), tried in this order; none when empty. */
  tsaUrls: readonly string[];
  /** The PAdES level final documents are sealed at when their organization chose none (PADES_LEVEL). */
  padesLevel: PadesLevel;
  /** Requests to /verify one client address may make per minute. */
  verifyRateLimit: { max: number; windowMs: number };
}

/**
 * Similarity (100 × (1 − descriptor distance)) from which a face matches its document: a distance
 * of 0.5, where face-api's authors suggest 0.6; see docs/face-matching.md for the measurements behind it.
 */
export const DEFAULT_FACE_MATCH_THRESHOLD = 50;

/**
 * Liveness score (0 – 1, src/veriface/face/liveness-model.ts) below which a selfie that matches
 * goes to a person instead of being approved: the lowest genuine selfie measured 0.6; see
 * docs/face-matching.md for the measurement and what it cannot catch.
 */
export const DEFAULT_LIVENESS_THRESHOLD = 0.5;

interface ParsedEnv {
  PORT: number;
  HOST: string;
  PUBLIC_URL?: string;
  DATA_DIR: string;
  DATABASE_URL?: string;
  DATABASE_SCHEMA: string;
  DATABASE_PREPARED_STATEMENTS: boolean;
  UPLOAD_MAX_BYTES: number;
  TEMPLATE_CACHE_MB: number;
  URL_SIGNING_SECRET?: string;
  PHOTO_ENCRYPTION_KEY?: string;
  LOG_LEVEL: string;
  S3_BUCKET?: string;
  S3_ENDPOINT?: string;
  S3_FORCE_PATH_STYLE: boolean;
  AWS_REGION: string;
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
  WEBHOOK_ALLOW_PRIVATE: boolean;
  WEBHOOK_TIMEOUT_MS: number;
  WEBHOOK_CONNECTIONS: number;
  OUTBOX_BATCH_SIZE: number;
  OUTBOX_LEASE_MS: number;
  MESSAGE_TIMEOUT_MS: number;
  SMTP_URL?: string;
  MAIL_FROM?: string;
  WHATSAPP_TOKEN?: string;
  WHATSAPP_PHONE_NUMBER_ID?: string;
  WHATSAPP_API_URL: string;
  WHATSAPP_VERIFACE_TEMPLATE?: string;
  WHATSAPP_SIGNING_TEMPLATE?: string;
  WHATSAPP_OTP_TEMPLATE?: string;
  WHATSAPP_TEMPLATE_LANGUAGE: string;
  WHATSAPP_VERIFY_TOKEN?: string;
  WHATSAPP_APP_SECRET?: string;
  SMS_PROVIDER_URL: string;
  SMS_PROVIDER_SID?: string;
  SMS_PROVIDER_TOKEN?: string;
  SMS_PROVIDER_FROM?: string;
  TRUST_PROXY: string;
  LOCAL_CHAT_PORT?: number | 'off';
  AUTH_FAILURES_MAX: number;
  AUTH_FAILURES_WINDOW_S: number;
  REQUEST_TIMEOUT_MS: number;
  HEADERS_TIMEOUT_MS: number;
  KEEP_ALIVE_TIMEOUT_MS: number;
  FACE_MATCHER: 'local' | 'manual';
  FACE_WORKERS: number;
  FACE_QUEUE_MAX: number;
  FACE_MATCH_THRESHOLD: number;
  LIVENESS_THRESHOLD: number;
  CHROMIUM_PATH?: string;
  RENDER_CONCURRENCY: number;
  SIGNING_P12?: string;
  SIGNING_P12_PASSWORD?: string;
  TSA_URL?: string;
  TSA_URLS?: string;
  PADES_LEVEL?: string;
  VERIFY_RATE_LIMIT: number;
}

const envSchema = Joi.object<ParsedEnv>({
  PORT: Joi.number().integer().min(0).max(65535).default(3000),
  HOST: Joi.string().default('0.0.0.0'),
  PUBLIC_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  DATA_DIR: Joi.string().default('./data'),
  DATABASE_URL: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
  DATABASE_SCHEMA: Joi.string()
    .pattern(/^[a-z_][a-z0-9_]{0,62}$/)
    .default('public'),
  DATABASE_PREPARED_STATEMENTS: Joi.boolean().default(true),
  UPLOAD_MAX_BYTES: Joi.number()
    .integer()
    .min(1)
    .default(5 * 1024 * 1024),
  TEMPLATE_CACHE_MB: Joi.number().integer().min(0).max(65_536).default(16),
  URL_SIGNING_SECRET: Joi.string().min(32),
  PHOTO_ENCRYPTION_KEY: Joi.string()
    .custom((value: string, helpers) => (parsePhotoKey(value) ? value : helpers.error('string.photoKey')))
    .messages({ 'string.photoKey': '"PHOTO_ENCRYPTION_KEY" must be 32 bytes: 64 hex characters or 44 base64 characters' }),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  S3_BUCKET: Joi.string(),
  S3_ENDPOINT: Joi.string().uri({ scheme: ['http', 'https'] }),
  S3_FORCE_PATH_STYLE: Joi.boolean().default(false),
  AWS_REGION: Joi.string().default('us-east-1'),
  AWS_ACCESS_KEY_ID: Joi.string(),
  AWS_SECRET_ACCESS_KEY: Joi.string(),
  WEBHOOK_ALLOW_PRIVATE: Joi.boolean().default(false),
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100).max(60_000).default(10_000),
  WEBHOOK_CONNECTIONS: Joi.number().integer().min(1).max(1024).default(64),
  OUTBOX_BATCH_SIZE: Joi.number().integer().min(1).max(1000).default(200),
  OUTBOX_LEASE_MS: Joi.number()
    .integer()
    .greater(Joi.ref('WEBHOOK_TIMEOUT_MS'))
    .default(60_000)
    .messages({ 'number.greater': '"OUTBOX_LEASE_MS" must be longer than WEBHOOK_TIMEOUT_MS' }),
  MESSAGE_TIMEOUT_MS: Joi.number()
    .integer()
    .min(1000)
    .less(Joi.ref('OUTBOX_LEASE_MS'))
    .default(10_000)
    .messages({ 'number.less': '"MESSAGE_TIMEOUT_MS" must be shorter than OUTBOX_LEASE_MS' }),
  SMTP_URL: Joi.string().uri({ scheme: ['smtp', 'smtps'] }),
  MAIL_FROM: Joi.string().when('SMTP_URL', { is: Joi.exist(), then: Joi.required() }),
  WHATSAPP_TOKEN: Joi.string(),
  WHATSAPP_PHONE_NUMBER_ID: Joi.string().pattern(/^\d+$/),
  WHATSAPP_API_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default(WHATSAPP_CLOUD_API_URL),
  WHATSAPP_VERIFACE_TEMPLATE: Joi.string().pattern(/^[a-z0-9_]{1,512}$/),
  WHATSAPP_SIGNING_TEMPLATE: Joi.string().pattern(/^[a-z0-9_]{1,512}$/),
  WHATSAPP_OTP_TEMPLATE: Joi.string().pattern(/^[a-z0-9_]{1,512}$/),
  WHATSAPP_TEMPLATE_LANGUAGE: Joi.string()
    .pattern(/^[a-z]{2,3}(_[A-Z]{2})?$/)
    .default('es'),
  // Chosen by the operator and typed into Meta's app dashboard: long enough not to be guessed.
  WHATSAPP_VERIFY_TOKEN: Joi.string()
    .min(16)
    .max(256)
    .pattern(/^[\x21-\x7e]+$/)
    .messages({ 'string.pattern.base': '"WHATSAPP_VERIFY_TOKEN" must be printable ASCII without spaces' }),
  // Meta's app secret: 32 hexadecimal characters; longer secrets are taken for stand-ins and future apps.
  WHATSAPP_APP_SECRET: Joi.string().min(16).max(256),
  SMS_PROVIDER_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default(TWILIO_API_URL),
  SMS_PROVIDER_SID: Joi.string(),
  SMS_PROVIDER_TOKEN: Joi.string(),
  SMS_PROVIDER_FROM: Joi.string(),
  TRUST_PROXY: Joi.string().default('false'),
  LOCAL_CHAT_PORT: Joi.alternatives(Joi.number().integer().min(0).max(65535), Joi.string().valid('off')).messages({
    'alternatives.types': '"LOCAL_CHAT_PORT" must be a port number or off',
    'alternatives.match': '"LOCAL_CHAT_PORT" must be a port number or off',
  }),
  AUTH_FAILURES_MAX: Joi.number().integer().min(1).default(30),
  AUTH_FAILURES_WINDOW_S: Joi.number().integer().min(1).max(86_400).default(60),
  REQUEST_TIMEOUT_MS: Joi.number().integer().min(1000).default(120_000),
  HEADERS_TIMEOUT_MS: Joi.number()
    .integer()
    .min(1000)
    .less(Joi.ref('REQUEST_TIMEOUT_MS'))
    .default(20_000)
    .messages({ 'number.less': '"HEADERS_TIMEOUT_MS" must be shorter than REQUEST_TIMEOUT_MS' }),
  KEEP_ALIVE_TIMEOUT_MS: Joi.number().integer().min(1000).default(65_000),
  FACE_MATCHER: Joi.string().valid('local', 'manual').default('local'),
  // One core is left to the event loop and the database.
  FACE_WORKERS: Joi.number()
    .integer()
    .min(1)
    .max(64)
    .default(Math.max(1, os.availableParallelism() - 1)),
  // At least one: the two photos of a first comparison must fit beside a single worker.
  FACE_QUEUE_MAX: Joi.number().integer().min(1).max(10_000).default(20),
  FACE_MATCH_THRESHOLD: Joi.number().min(0).max(100).default(DEFAULT_FACE_MATCH_THRESHOLD),
  LIVENESS_THRESHOLD: Joi.number().min(0).max(1).default(DEFAULT_LIVENESS_THRESHOLD),
  CHROMIUM_PATH: Joi.string(),
  RENDER_CONCURRENCY: Joi.number().integer().min(1).max(16).default(2),
  SIGNING_P12: Joi.string(),
  SIGNING_P12_PASSWORD: Joi.string(),
  TSA_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  TSA_URLS: Joi.string(),
  PADES_LEVEL: Joi.string().valid(...PADES_LEVELS),
  VERIFY_RATE_LIMIT: Joi.number().integer().min(1).max(100_000).default(30),
})
  .and('AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY')
  .and('WHATSAPP_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID')
  .and('SMS_PROVIDER_SID', 'SMS_PROVIDER_TOKEN', 'SMS_PROVIDER_FROM')
  .unknown(true);

export class ConfigError extends Error {}

/** One proxy address or CIDR range: `127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`. */
function isProxyAddress(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

function parseTrustProxy(value: string): false | number | string[] {
  if (value === 'false') return false;
  if (value === 'true') {
    throw new ConfigError(
      'Invalid configuration: TRUST_PROXY=true would believe the X-Forwarded-For of every client, who could then write any address and escape every per-address limit. ' +
        'Set the number of proxies in front of the service (TRUST_PROXY=1 for one reverse proxy) or their addresses and CIDR ranges (TRUST_PROXY=127.0.0.1,10.0.0.0/8)',
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 16) throw new ConfigError('Invalid configuration: "TRUST_PROXY" as a number of proxies must be from 1 to 16');
    return hops;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const wrong = entries.filter((entry) => !isProxyAddress(entry));
  if (wrong.length > 0) {
    throw new ConfigError(
      `Invalid configuration: "TRUST_PROXY" must be false, a number of proxies, or proxy addresses and CIDR ranges separated by commas; not ${wrong.map((w) => JSON.stringify(w)).join(', ')}`,
    );
  }
  return entries;
}

/** The local chat's operator port: PORT + 1 unless set (none when PORT is 0 or 65535), and none when off. */
function parseLocalChatPort(value: number | 'off' | undefined, port: number): number | undefined {
  if (value === 'off') return undefined;
  if (value !== undefined) {
    if (value === port && port !== 0)
      throw new ConfigError(
        `Invalid configuration: "LOCAL_CHAT_PORT" must not be the service's PORT (${port}): the local chat's operator has a port of its own`,
      );
    return value;
  }
  return port === 0 || port === 65535 ? undefined : port + 1;
}

/**
 * TSA_URLS, the timestamp authorities separated by commas, tried in that order; TSA_URL, the one
 * setting there was before, is a list of one. Both at once would leave unsaid which comes first.
 */
function parseTsaUrls(list: string | undefined, single: string | undefined): string[] {
  if (list !== undefined && single !== undefined)
    throw new ConfigError('Invalid configuration: set TSA_URLS or TSA_URL, not both (TSA_URL is a TSA_URLS of one)');
  if (list === undefined) return single === undefined ? [] : [single];
  const urls = list.split(',').map((entry) => entry.trim());
  const wrong = urls.filter((url) => !URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol));
  if (wrong.length > 0) {
    throw new ConfigError(
      `Invalid configuration: "TSA_URLS" must be http or https URLs separated by commas; not ${wrong.map((w) => JSON.stringify(w)).join(', ')}`,
    );
  }
  return urls;
}

/**
 * PADES_LEVEL: B-T when a timestamp authority is set, as before the setting existed, else B-B.
 * Every level above B-B needs one: the service does not start promising what it cannot seal.
 */
function parsePadesLevel(value: string | undefined, tsaUrls: string[]): PadesLevel {
  if (value === undefined) return tsaUrls.length > 0 ? 'B-T' : 'B-B';
  if (!isPadesLevel(value)) throw new ConfigError(`Invalid configuration: "PADES_LEVEL" must be one of ${PADES_LEVELS.join(', ')}`);
  if (needsTimestamps(value) && tsaUrls.length === 0) {
    throw new ConfigError(
      `Invalid configuration: PADES_LEVEL=${value} needs a timestamp authority: set TSA_URLS (RFC 3161 servers, tried in order), or PADES_LEVEL=B-B`,
    );
  }
  return value;
}

/** Reads the environment once; the result is frozen and passed down, nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv): Readonly<Config> {
  const blankless = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const { value, error } = envSchema.validate(blankless, { abortEarly: false, convert: true });
  if (error) throw new ConfigError(`Invalid configuration: ${error.details.map((d) => d.message).join('; ')}`);
  const parsed = value;
  const tsaUrls = parseTsaUrls(parsed.TSA_URLS, parsed.TSA_URL);
  const publicUrl = (parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, '');
  return Object.freeze({
    port: parsed.PORT,
    host: parsed.HOST,
    publicUrl,
    dataDir: path.resolve(parsed.DATA_DIR),
    databaseUrl: parsed.DATABASE_URL,
    databaseSchema: parsed.DATABASE_SCHEMA,
    databasePreparedStatements: parsed.DATABASE_PREPARED_STATEMENTS,
    uploadMaxBytes: parsed.UPLOAD_MAX_BYTES,
    templateCacheBytes: parsed.TEMPLATE_CACHE_MB * 1024 * 1024,
    urlSigningSecret: parsed.URL_SIGNING_SECRET,
    photoEncryptionKey: parsed.PHOTO_ENCRYPTION_KEY === undefined ? undefined : parsePhotoKey(parsed.PHOTO_ENCRYPTION_KEY),
    logLevel: parsed.LOG_LEVEL,
    s3: parsed.S3_BUCKET
      ? Object.freeze({
          bucket: parsed.S3_BUCKET,
          region: parsed.AWS_REGION,
          endpoint: parsed.S3_ENDPOINT,
          forcePathStyle: parsed.S3_FORCE_PATH_STYLE,
          accessKeyId: parsed.AWS_ACCESS_KEY_ID,
          secretAccessKey: parsed.AWS_SECRET_ACCESS_KEY,
        })
      : undefined,
    webhookAllowPrivate: parsed.WEBHOOK_ALLOW_PRIVATE,
    webhookTimeoutMs: parsed.WEBHOOK_TIMEOUT_MS,
    webhookConnections: parsed.WEBHOOK_CONNECTIONS,
    outboxBatchSize: parsed.OUTBOX_BATCH_SIZE,
    outboxLeaseMs: parsed.OUTBOX_LEASE_MS,
    messageTimeoutMs: parsed.MESSAGE_TIMEOUT_MS,
    smtp: parsed.SMTP_URL && parsed.MAIL_FROM ? Object.freeze({ url: parsed.SMTP_URL, from: parsed.MAIL_FROM }) : undefined,
    whatsappTemplates: Object.freeze({
      verifaceInvitation: parsed.WHATSAPP_VERIFACE_TEMPLATE,
      signingInvitation: parsed.WHATSAPP_SIGNING_TEMPLATE,
      otpCode: parsed.WHATSAPP_OTP_TEMPLATE,
      language: parsed.WHATSAPP_TEMPLATE_LANGUAGE,
    }),
    whatsappWebhook: Object.freeze({ verifyToken: parsed.WHATSAPP_VERIFY_TOKEN, appSecret: parsed.WHATSAPP_APP_SECRET }),
    whatsapp:
      parsed.WHATSAPP_TOKEN && parsed.WHATSAPP_PHONE_NUMBER_ID
        ? Object.freeze({ token: parsed.WHATSAPP_TOKEN, phoneNumberId: parsed.WHATSAPP_PHONE_NUMBER_ID, baseUrl: parsed.WHATSAPP_API_URL })
        : undefined,
    sms:
      parsed.SMS_PROVIDER_SID && parsed.SMS_PROVIDER_TOKEN && parsed.SMS_PROVIDER_FROM
        ? Object.freeze({
            baseUrl: parsed.SMS_PROVIDER_URL,
            accountSid: parsed.SMS_PROVIDER_SID,
            authToken: parsed.SMS_PROVIDER_TOKEN,
            from: parsed.SMS_PROVIDER_FROM,
          })
        : undefined,
    trustProxy: parseTrustProxy(parsed.TRUST_PROXY),
    localChatPort: parsed.WHATSAPP_TOKEN === undefined ? parseLocalChatPort(parsed.LOCAL_CHAT_PORT, parsed.PORT) : undefined,
    authFailures: Object.freeze({ max: parsed.AUTH_FAILURES_MAX, windowMs: parsed.AUTH_FAILURES_WINDOW_S * 1000 }),
    timeouts: Object.freeze({ requestMs: parsed.REQUEST_TIMEOUT_MS, headersMs: parsed.HEADERS_TIMEOUT_MS, keepAliveMs: parsed.KEEP_ALIVE_TIMEOUT_MS }),
    faceMatcher: Object.freeze(
      parsed.FACE_MATCHER === 'manual'
        ? { kind: 'manual' as const }
        : {
            kind: 'local' as const,
            workers: parsed.FACE_WORKERS,
            queueMax: parsed.FACE_QUEUE_MAX,
            threshold: parsed.FACE_MATCH_THRESHOLD,
            livenessThreshold: parsed.LIVENESS_THRESHOLD,
          },
    ),
    chromiumPath: parsed.CHROMIUM_PATH,
    renderConcurrency: parsed.RENDER_CONCURRENCY,
    signingP12: parsed.SIGNING_P12 ? Object.freeze({ source: parsed.SIGNING_P12, password: parsed.SIGNING_P12_PASSWORD ?? '' }) : undefined,
    tsaUrls: Object.freeze(tsaUrls),
    padesLevel: parsePadesLevel(parsed.PADES_LEVEL, tsaUrls),
    verifyRateLimit: Object.freeze({ max: parsed.VERIFY_RATE_LIMIT, windowMs: 60_000 }),
  });
}
