import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { type OidcChange, setOrganizationOidc } from '../console/oidc/settings.js';
import { resetTotp } from '../console/totp/totp.js';
import { type Db, openDatabase, sqliteFileOf } from '../db/database.js';
import type { ApiKeyKind, UserRole } from '../db/schema.js';
import { queueSeal } from '../documents/sealing/queue-seal.js';
import { DomainError } from '../domain-error.js';
// The API's own validation, so the command accepts exactly what the API accepts.
import { validate } from '../http/validate.js';
import { type Channel, isChannel, listMailbox, mailboxDir } from '../messages/local-mailbox.js';
import {
  addUser,
  createApiKey,
  createOrganization,
  OrganizationError,
  renameUser,
  revokeApiKey,
  setSdkIntegration,
  setUserRole,
} from '../organizations/organizations.js';
import { findOrganization, listApiKeys, listOrganizations, listUsers } from '../organizations/queries.js';
import { type SettingsChanges, settingsChangesSchema, settingsOf, updateSettings } from '../organizations/settings.js';
import { isUserRole, USER_ROLES } from '../organizations/user-roles.js';
import { dataKeyOf } from '../photos/data-key.js';
import { createWebhookSchema, updateWebhookSchema } from '../webhooks/schemas.js';
import { createWebhook, deleteWebhook, listWebhooks, rotateWebhookSecret, updateWebhook } from '../webhooks/webhooks.js';

const USAGE = `Usage: npm run --silent admin -- <command>

  org create --name NAME --email OWNER_EMAIL [--sdk-integration on|off]
  org list
  org update --org ORG_ID [--sdk-integration on|off] [--sdk-origins "https://a.example,https://b.example"]
             [--sdk-require-token on|off] [--language es|en|pt|fr] [--time-zone America/Bogota] [--photo-retention-days DAYS]
             [--form-processes-per-hour N] [--signer-delegation on|off] [--pades-level B-B|B-T|B-LT|B-LTA|instance]
             [--oidc-issuer https://idp.example --oidc-client-id ID --oidc-client-secret SECRET | --oidc-clear]
  user add --org ORG_ID --email EMAIL [--name NAME] [--role admin|reviewer|sender|viewer]
  user rename --org ORG_ID --email EMAIL --name NAME   (an empty NAME removes it)
  user role --org ORG_ID --email EMAIL --role admin|reviewer|sender|viewer
  user list --org ORG_ID
  user totp-reset --org ORG_ID --email EMAIL   (the user signs in without a TOTP code again, and may enrol anew)
  key create --org ORG_ID [--kind private|public]
  key list --org ORG_ID
  key revoke (--key prk_...|puk_... | --id KEY_ID)
  webhook create --org ORG_ID --name NAME --url URL [--secret whsec_...] [--description TEXT] [--disabled]
  webhook list --org ORG_ID
  webhook update --org ORG_ID --name NAME [--url URL] [--description TEXT] [--enabled|--disabled]
  webhook rotate --org ORG_ID --name NAME
  webhook delete --org ORG_ID --name NAME
  mailbox list [--channel email|whatsapp|sms] [--limit N]
  process reseal --org ORG_ID --code CODE

Every command prints one JSON value on stdout. Keys are shown once, when created.`;

class UsageError extends Error {}

type Flags = Record<string, string | boolean | undefined>;

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function optional(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
}

async function organizationOf(db: Db, flags: Flags): Promise<string> {
  const id = required(flags, 'org');
  if (!(await findOrganization(db, id))) throw new OrganizationError('ORGANIZATION_NOT_FOUND');
  return id;
}

function onOff(flags: Flags, name: string): boolean {
  const value = flags[name];
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new UsageError(`--${name} must be on or off`);
}

function keyKind(flags: Flags): ApiKeyKind {
  const kind = optional(flags, 'kind') ?? 'private';
  if (kind !== 'private' && kind !== 'public') throw new UsageError('--kind must be private or public');
  return kind;
}

/** The console's roles (src/organizations/user-roles.ts): viewers read, senders also act on processes and templates, reviewers also view identity data, admins also manage the organization. */
function roleFlag(flags: Flags, fallback?: UserRole): UserRole {
  const role = optional(flags, 'role') ?? fallback;
  if (role === undefined || !isUserRole(role)) throw new UsageError(`--role must be one of ${USER_ROLES.join(', ')}`);
  return role;
}

function mailboxChannel(flags: Flags): Channel | undefined {
  const channel = optional(flags, 'channel');
  if (channel === undefined) return undefined;
  if (!isChannel(channel)) throw new UsageError('--channel must be email, whatsapp or sms');
  return channel;
}

function limitFlag(flags: Flags): number | undefined {
  const limit = optional(flags, 'limit');
  if (limit === undefined) return undefined;
  if (!/^[1-9]\d{0,3}$/.test(limit)) throw new UsageError('--limit must be a whole number from 1 to 9999');
  return Number(limit);
}

function enabledFlag(flags: Flags): boolean | undefined {
  if (flags.enabled === true && flags.disabled === true) throw new UsageError('--enabled and --disabled exclude each other');
  if (flags.enabled === true) return true;
  if (flags.disabled === true) return false;
  return undefined;
}

/** The settings as the API takes them (PUT /organization), so both accept exactly the same. */
function settingsFlags(flags: Flags): SettingsChanges {
  const origins = optional(flags, 'sdk-origins');
  const days = optional(flags, 'photo-retention-days');
  const forms = optional(flags, 'form-processes-per-hour');
  return validate(settingsChangesSchema, {
    ...(origins === undefined
      ? {}
      : {
          sdkOrigins: origins
            .split(',')
            .map((o) => o.trim())
            .filter((o) => o !== ''),
        }),
    ...(flags['sdk-require-token'] === undefined ? {} : { sdkRequireToken: onOff(flags, 'sdk-require-token') }),
    ...(optional(flags, 'language') === undefined ? {} : { language: optional(flags, 'language') }),
    ...(optional(flags, 'time-zone') === undefined ? {} : { timeZone: optional(flags, 'time-zone') }),
    ...(days === undefined ? {} : { photoRetentionDays: /^\d{1,6}$/.test(days) ? Number(days) : days }),
    ...(forms === undefined ? {} : { formProcessesPerHour: /^\d{1,7}$/.test(forms) ? Number(forms) : forms }),
    ...(flags['signer-delegation'] === undefined ? {} : { signerDelegation: onOff(flags, 'signer-delegation') }),
    // `instance`: follow PADES_LEVEL again.
    ...(optional(flags, 'pades-level') === undefined
      ? {}
      : { padesLevel: optional(flags, 'pades-level') === 'instance' ? null : optional(flags, 'pades-level') }),
  });
}

/** The console's single sign-on: all three flags together, --oidc-clear to remove it, or nothing to leave it. */
function oidcFlags(flags: Flags): OidcChange | null | undefined {
  const given = ['oidc-issuer', 'oidc-client-id', 'oidc-client-secret'].filter((name) => flags[name] !== undefined);
  if (flags['oidc-clear'] === true) {
    if (given.length > 0) throw new UsageError('--oidc-clear goes without the other --oidc- flags');
    return null;
  }
  if (given.length === 0) return undefined;
  return { issuer: required(flags, 'oidc-issuer'), clientId: required(flags, 'oidc-client-id'), clientSecret: required(flags, 'oidc-client-secret') };
}

async function updateOrganization(db: Db, config: Config, organizationId: string, flags: Flags): Promise<unknown> {
  const changes = settingsFlags(flags);
  const sdkIntegration = flags['sdk-integration'] === undefined ? undefined : onOff(flags, 'sdk-integration');
  const oidc = oidcFlags(flags);
  if (sdkIntegration === undefined && oidc === undefined && Object.keys(changes).length === 0)
    throw new UsageError('org update needs at least one setting to change');
  if (sdkIntegration !== undefined) await setSdkIntegration(db, { organizationId, enabled: sdkIntegration });
  if (oidc !== undefined) await setOrganizationOidc(db, { organizationId, oidc, dataKey: await dataKeyOf(db, config.photoEncryptionKey) });
  const settings = await updateSettings(db, { organizationId, changes });
  const row = await findOrganization(db, organizationId);
  if (!settings || !row) throw new OrganizationError('ORGANIZATION_NOT_FOUND');
  const sso = row.oidc_issuer === null || row.oidc_client_id === null ? null : { issuer: row.oidc_issuer, clientId: row.oidc_client_id };
  return { organization: organizationId, sdkIntegration: row.sdk_integration === 1, ...settings, ...(sso === null ? {} : { oidc: sso }) };
}

async function run(db: Db, config: Config, command: string, flags: Flags): Promise<unknown> {
  const webhooks = { db, clock: systemClock, allowPrivateUrls: config.webhookAllowPrivate };
  switch (command) {
    case 'org create':
      return createOrganization(db, systemClock, {
        name: required(flags, 'name'),
        email: required(flags, 'email'),
        sdkIntegration: flags['sdk-integration'] === 'on',
      });
    case 'org update':
      return updateOrganization(db, config, await organizationOf(db, flags), flags);
    case 'org list':
      return (await listOrganizations(db)).map((o) => ({
        organization: o.id,
        name: o.name,
        sdkIntegration: o.sdk_integration === 1,
        ...settingsOf(o),
        created_at: o.created_at,
      }));
    case 'user add':
      return addUser(db, systemClock, {
        organizationId: required(flags, 'org'),
        email: required(flags, 'email'),
        ...(optional(flags, 'name') === undefined ? {} : { name: optional(flags, 'name') }),
        role: roleFlag(flags, 'sender'),
      });
    case 'user rename':
      return renameUser(db, { organizationId: required(flags, 'org'), email: required(flags, 'email'), name: optional(flags, 'name') ?? '' });
    case 'user role':
      return setUserRole(db, { organizationId: await organizationOf(db, flags), email: required(flags, 'email'), role: roleFlag(flags) });
    case 'user totp-reset':
      return resetTotp(db, systemClock, { organizationId: await organizationOf(db, flags), email: required(flags, 'email') });
    case 'user list':
      return (await listUsers(db, required(flags, 'org'))).map((u) => ({
        id: u.id,
        email: u.email,
        ...(u.name === null ? {} : { name: u.name }),
        role: u.role,
        created_at: u.created_at,
      }));
    case 'key create':
      return createApiKey(db, systemClock, { organizationId: required(flags, 'org'), kind: keyKind(flags) });
    case 'key list':
      return (await listApiKeys(db, required(flags, 'org'))).map((k) => ({
        id: k.id,
        kind: k.kind,
        hint: k.hint,
        created_at: k.created_at,
        revoked_at: k.revoked_at,
      }));
    case 'key revoke':
      return revokeApiKey(db, systemClock, { id: optional(flags, 'id'), key: optional(flags, 'key') });
    case 'webhook create':
      return createWebhook(webhooks, {
        organizationId: await organizationOf(db, flags),
        input: validate(createWebhookSchema, {
          name: required(flags, 'name'),
          url: required(flags, 'url'),
          secret: optional(flags, 'secret'),
          description: optional(flags, 'description'),
          enabled: flags.disabled !== true,
        }),
      });
    case 'webhook list':
      return listWebhooks(webhooks, { organizationId: await organizationOf(db, flags) });
    case 'webhook update':
      return updateWebhook(webhooks, {
        organizationId: await organizationOf(db, flags),
        input: validate(updateWebhookSchema, {
          name: required(flags, 'name'),
          url: optional(flags, 'url'),
          description: optional(flags, 'description'),
          enabled: enabledFlag(flags),
        }),
      });
    case 'webhook rotate':
      return rotateWebhookSecret(webhooks, { organizationId: await organizationOf(db, flags), name: required(flags, 'name') });
    case 'webhook delete':
      return deleteWebhook(webhooks, { organizationId: await organizationOf(db, flags), name: required(flags, 'name') });
    case 'mailbox list':
      // What was "sent" while no provider was configured: read it here instead of an inbox or a phone.
      return listMailbox(mailboxDir(config.dataDir), { channel: mailboxChannel(flags), limit: limitFlag(flags) });
    case 'process reseal':
      // A running service's outbox worker picks the job up; the command only queues it.
      return queueSeal(db, systemClock, { organizationId: await organizationOf(db, flags), code: required(flags, 'code').toUpperCase() });
    default:
      throw new UsageError(`Unknown command: ${command || '(none)'}`);
  }
}

/**
 * On SQLite, a DATA_DIR other than the service's would silently open a new, empty database (and an
 * empty mailbox): every command but the first `org create` refuses a folder that holds neither,
 * and that one says it made a database.
 */
function checkDataFolder(config: Config, command: string): void {
  if (config.databaseUrl || existsSync(sqliteFileOf(config.dataDir)) || existsSync(mailboxDir(config.dataDir))) return;
  const folder = path.resolve(config.dataDir);
  if (command !== 'org create') {
    throw new ConfigError(
      `DATA_DIR ${folder} holds no database and no mailbox: set DATA_DIR to the folder the service runs with (its default is ./data in the folder it was started from)`,
    );
  }
  process.stderr.write(
    `DATA_DIR ${folder} held no database: a new one was made there; the service sees this organization only when it runs with the same DATA_DIR\n`,
  );
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      org: { type: 'string' },
      kind: { type: 'string' },
      role: { type: 'string' },
      key: { type: 'string' },
      id: { type: 'string' },
      url: { type: 'string' },
      secret: { type: 'string' },
      description: { type: 'string' },
      enabled: { type: 'boolean' },
      disabled: { type: 'boolean' },
      channel: { type: 'string' },
      limit: { type: 'string' },
      code: { type: 'string' },
      'sdk-integration': { type: 'string' },
      'sdk-origins': { type: 'string' },
      'sdk-require-token': { type: 'string' },
      language: { type: 'string' },
      'time-zone': { type: 'string' },
      'photo-retention-days': { type: 'string' },
      'form-processes-per-hour': { type: 'string' },
      'signer-delegation': { type: 'string' },
      'pades-level': { type: 'string' },
      'oidc-issuer': { type: 'string' },
      'oidc-client-id': { type: 'string' },
      'oidc-client-secret': { type: 'string' },
      'oidc-clear': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const config = loadConfig(process.env);
  const command = positionals.slice(0, 2).join(' ');
  checkDataFolder(config, command);
  const database = await openDatabase(config);
  try {
    const result = await run(database.db, config, command, values);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof UsageError || error instanceof OrganizationError || error instanceof ConfigError || error instanceof DomainError;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(known ? `${JSON.stringify({ message })}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}` : `${message}\n`);
    process.exit(known ? 2 : 1);
  },
);
