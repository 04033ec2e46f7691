import Joi from 'joi';
import type { Db } from '../db/database.js';
import type { OrganizationRow } from '../db/schema.js';
import { isPadesLevel, PADES_LEVELS, type PadesLevel } from '../pdf-signing/pades-level.js';
import { languageJoi } from './language-joi.js';
import { isLanguage, LANGUAGES, type Language } from './languages.js';
import * as q from './queries.js';

export { LANGUAGES, type Language };

export interface OrganizationSettings {
  /** Origins (scheme, host and port) allowed to embed the organization's pages with the SDK. */
  sdkOrigins: string[];
  /** Embedding needs a token the organization's backend mints with the private key (POST /sdk/token). */
  sdkRequireToken: boolean;
  language: Language;
  timeZone: string;
  /** Days identity photos are kept after a process ends. */
  photoRetentionDays: number;
  /**
   * Processes the organization's public forms (reference links, the SDK's fill flow) may create in
   * an hour: whoever holds such a link can submit it, and each submission invites the people its
   * answers name, so a stranger cannot make the organization send more than this.
   */
  formProcessesPerHour: number;
  /**
   * Its signers may hand their place to another person from the signing page, with a reason
   * (UPDATE_SIGNER). Off by default: who signs is the organization's decision.
   */
  signerDelegation: boolean;
  /**
   * The PAdES level of its final documents: B-B, B-T (timestamped), B-LT (with the validation
   * data a court needs years later), B-LTA (with a document timestamp over it); null follows the
   * instance's PADES_LEVEL.
   */
  padesLevel: PadesLevel | null;
}

export type SettingsChanges = Partial<OrganizationSettings>;

/** What a new organization's public forms may make in an hour: few enough that a leaked link cannot send thousands of messages a day. */
export const FORM_PROCESSES_PER_HOUR_DEFAULT = 30;

const SDK_ORIGINS_MAX = 20;

/** An origin exactly as browsers send it in `event.origin` and `Origin`: no path, no trailing slash. */
export function isWebOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
}

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const origin = Joi.string()
  .custom((value: string, helpers) => (isWebOrigin(value) ? value : helpers.error('string.origin')))
  .messages({ 'string.origin': '{{#label}} must be an origin such as https://app.example.com (scheme, host and port, no path)' });

export const settingsChangesSchema = Joi.object<SettingsChanges, true>({
  sdkOrigins: Joi.array().items(origin).max(SDK_ORIGINS_MAX).unique().example(['https://app.example.com']),
  sdkRequireToken: Joi.boolean().example(false),
  language: languageJoi,
  timeZone: Joi.string()
    .max(64)
    .custom((value: string, helpers) => (isTimeZone(value) ? value : helpers.error('string.timeZone')))
    .messages({ 'string.timeZone': '{{#label}} must be an IANA time zone such as America/Bogota' })
    .example('America/Bogota'),
  photoRetentionDays: Joi.number().integer().min(1).max(3650).example(180),
  formProcessesPerHour: Joi.number().integer().min(0).max(100_000).example(FORM_PROCESSES_PER_HOUR_DEFAULT),
  signerDelegation: Joi.boolean().example(false),
  padesLevel: Joi.string()
    .valid(...PADES_LEVELS)
    .allow(null)
    .example('B-LT')
    .description("the PAdES level of the final documents; null: the instance's (PADES_LEVEL). Levels above B-B need the instance's timestamp authority"),
});

/** What GET and PUT /organization answer: every setting, as it now is. */
export const settingsResponse = settingsChangesSchema.fork(
  ['sdkOrigins', 'sdkRequireToken', 'language', 'timeZone', 'photoRetentionDays', 'formProcessesPerHour', 'signerDelegation', 'padesLevel'],
  (field) => field.required(),
);

export function originsOf(stored: string): string[] {
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((o): o is string => typeof o === 'string') : [];
}

export function settingsOf(row: OrganizationRow): OrganizationSettings {
  return {
    sdkOrigins: originsOf(row.sdk_origins),
    sdkRequireToken: row.sdk_require_token === 1,
    language: isLanguage(row.language) ? row.language : 'es',
    timeZone: row.time_zone,
    photoRetentionDays: row.photo_retention_days,
    formProcessesPerHour: row.form_processes_per_hour,
    signerDelegation: row.signer_delegation === 1,
    padesLevel: isPadesLevel(row.pades_level) ? row.pades_level : null,
  };
}

/** Applies the given settings, leaving the others as they are; answers them all, or undefined for an unknown organization. */
export async function updateSettings(db: Db, options: { organizationId: string; changes: SettingsChanges }): Promise<OrganizationSettings | undefined> {
  const { changes } = options;
  const row = await q.updateOrganizationSettings(db, options.organizationId, {
    ...(changes.sdkOrigins === undefined ? {} : { sdk_origins: JSON.stringify(changes.sdkOrigins) }),
    ...(changes.sdkRequireToken === undefined ? {} : { sdk_require_token: changes.sdkRequireToken ? 1 : 0 }),
    ...(changes.language === undefined ? {} : { language: changes.language }),
    ...(changes.timeZone === undefined ? {} : { time_zone: changes.timeZone }),
    ...(changes.photoRetentionDays === undefined ? {} : { photo_retention_days: changes.photoRetentionDays }),
    ...(changes.formProcessesPerHour === undefined ? {} : { form_processes_per_hour: changes.formProcessesPerHour }),
    ...(changes.signerDelegation === undefined ? {} : { signer_delegation: changes.signerDelegation ? 1 : 0 }),
    ...(changes.padesLevel === undefined ? {} : { pades_level: changes.padesLevel }),
  });
  return row ? settingsOf(row) : undefined;
}

export async function readSettings(db: Db, organizationId: string): Promise<OrganizationSettings | undefined> {
  const row = await q.findOrganization(db, organizationId);
  return row ? settingsOf(row) : undefined;
}

/** The language of everything the organization's processes send people; Spanish when it says none. */
export async function organizationLanguage(db: Db, organizationId: string): Promise<Language> {
  return (await readSettings(db, organizationId))?.language ?? 'es';
}

/** What one person of the organization reads: the language stored for them, else the organization's. */
export async function languageOfPerson(db: Db, organizationId: string, stored: string | null): Promise<Language> {
  return isLanguage(stored) ? stored : organizationLanguage(db, organizationId);
}
