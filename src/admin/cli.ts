import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { systemClock } from '../clock.js';
import { openDatabase, type Db } from '../db/database.js';
import type { ApiKeyKind } from '../db/schema.js';
import {
  addUser,
  createApiKey,
  createOrganization,
  OrganizationError,
  revokeApiKey,
} from '../organizations/organizations.js';
import { listApiKeys, listOrganizations, listUsers } from '../organizations/queries.js';

const USAGE = `Usage: npm run --silent admin -- <command>

  org create --name NAME --email OWNER_EMAIL [--sdk-integration]
  org list
  user add --org ORG_ID --email EMAIL
  user list --org ORG_ID
  key create --org ORG_ID [--kind private|public]
  key list --org ORG_ID
  key revoke (--key prk_...|puk_... | --id KEY_ID)

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

function keyKind(flags: Flags): ApiKeyKind {
  const kind = optional(flags, 'kind') ?? 'private';
  if (kind !== 'private' && kind !== 'public') throw new UsageError('--kind must be private or public');
  return kind;
}

async function run(db: Db, command: string, flags: Flags): Promise<unknown> {
  switch (command) {
    case 'org create':
      return createOrganization(db, systemClock, {
        name: required(flags, 'name'),
        email: required(flags, 'email'),
        sdkIntegration: flags['sdk-integration'] === true,
      });
    case 'org list':
      return (await listOrganizations(db)).map((o) => ({
        organization: o.id,
        name: o.name,
        sdkIntegration: o.sdk_integration === 1,
        created_at: o.created_at,
      }));
    case 'user add':
      return addUser(db, systemClock, { organizationId: required(flags, 'org'), email: required(flags, 'email') });
    case 'user list':
      return (await listUsers(db, required(flags, 'org'))).map((u) => ({ id: u.id, email: u.email, created_at: u.created_at }));
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
    default:
      throw new UsageError(`Unknown command: ${command || '(none)'}`);
  }
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
      key: { type: 'string' },
      id: { type: 'string' },
      'sdk-integration': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const config = loadConfig(process.env);
  const database = await openDatabase(config);
  try {
    const result = await run(database.db, positionals.slice(0, 2).join(' '), values);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof UsageError || error instanceof OrganizationError || error instanceof ConfigError;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(known ? `${JSON.stringify({ message })}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}` : `${message}\n`);
    process.exit(known ? 2 : 1);
  },
);
