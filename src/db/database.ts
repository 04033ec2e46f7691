import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, type MigrationProvider, Migrator, sql } from 'kysely';
import pg from 'pg';
import { foundation } from './migrations/001_foundation.js';
import { outbox } from './migrations/002_outbox.js';
import { veriface } from './migrations/003_veriface.js';
import { signing } from './migrations/004_signing.js';
import { templateFiles } from './migrations/005_template_files.js';
import { attemptInstance } from './migrations/006_attempt_instance.js';
import { verifaceReview } from './migrations/007_veriface_review.js';
import { organizationSettings } from './migrations/008_organization_settings.js';
import { sealedPdfs } from './migrations/009_sealed_pdfs.js';
import { faceFailure } from './migrations/010_face_failure.js';
import { photoVault } from './migrations/011_photo_vault.js';
import { sdkTokens } from './migrations/012_sdk_tokens.js';
import { sealFailure } from './migrations/013_seal_failure.js';
import { photoRetakes } from './migrations/014_photo_retakes.js';
import { rateLimitHits } from './migrations/015_rate_limit_hits.js';
import { finalFilePositions } from './migrations/016_final_file_positions.js';
import { signatureBoxes } from './migrations/017_signature_boxes.js';
import { awaitedPlacements } from './migrations/018_awaited_placements.js';
import { pdfTemplates } from './migrations/019_pdf_templates.js';
import { whatsappMessages } from './migrations/020_whatsapp_messages.js';
import { whatsappConversations } from './migrations/021_whatsapp_conversations.js';
import { referenceSettings } from './migrations/022_reference_settings.js';
import { templateLayout } from './migrations/023_template_layout.js';
import { identityAttempts } from './migrations/024_identity_attempts.js';
import { faceMatcherUses } from './migrations/025_face_matcher_uses.js';
import { company } from './migrations/026_company.js';
import { prebuiltProcesses } from './migrations/027_prebuilt_processes.js';
import { processReaders } from './migrations/029_process_readers.js';
import { userNames } from './migrations/030_user_names.js';
import { attemptLiveness } from './migrations/031_attempt_liveness.js';
import { formProcessesPerHour } from './migrations/032_form_processes_per_hour.js';
import { consoleSignIn } from './migrations/033_console.js';
import { editMode } from './migrations/034_edit_mode.js';
import { signerDelegation } from './migrations/035_signer_delegation.js';
import { consoleStrongSignIn } from './migrations/036_console_strong_sign_in.js';
import { participantAttachments } from './migrations/039_participant_attachments.js';
import { attachmentReviewsAndPrinting } from './migrations/040_attachment_reviews_and_printing.js';
import { whatsappRetryAfter } from './migrations/041_whatsapp_retry_after.js';
import { outboxRecipient } from './migrations/042_outbox_recipient.js';
import { formLimits } from './migrations/044_form_limits.js';
import { personLanguages } from './migrations/045_person_languages.js';
import { padesLevels } from './migrations/046_pades_levels.js';
import { userRoles } from './migrations/047_user_roles.js';
import { namingPool } from './prepared-statements.js';
import type { Database, Db, Dialect } from './schema.js';
import { SchemaScopedPostgresDialect } from './schema-scoped-postgres.js';
import { type Checkpointer, startCheckpointer } from './sqlite-checkpointer.js';
import { GroupCommitSqlite, groupCommitDialect } from './sqlite-group-commit.js';
import { applySqlitePragmas, applySqliteReaderPragmas } from './sqlite-pragmas.js';
import { statementCache } from './statement-cache.js';
import { openWalFlusher } from './wal-flusher.js';

export type { Db, Dialect } from './schema.js';

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** Upkeep a serving instance runs in the background (SQLite: WAL checkpoints off the event loop); close() ends it. */
  startUpkeep(onError: (error: Error) => void): void;
  close(): Promise<void>;
}

/** Often enough that the WAL never gathers much to copy at once; an idle tick costs a few microseconds. */
const CHECKPOINT_INTERVAL_MS = 20;

export interface OpenDatabaseOptions {
  databaseUrl: string | undefined;
  databaseSchema: string;
  dataDir: string;
  /** PostgreSQL: run frequent statements prepared (true unless a pooler in between cannot keep them). */
  databasePreparedStatements?: boolean;
}

const migrations: MigrationProvider = {
  async getMigrations() {
    return {
      '001_foundation': foundation,
      '002_outbox': outbox,
      '003_veriface': veriface,
      '004_signing': signing,
      '005_template_files': templateFiles,
      '006_attempt_instance': attemptInstance,
      '007_veriface_review': verifaceReview,
      '008_organization_settings': organizationSettings,
      '009_sealed_pdfs': sealedPdfs,
      '010_face_failure': faceFailure,
      '011_photo_vault': photoVault,
      '012_sdk_tokens': sdkTokens,
      '013_seal_failure': sealFailure,
      '014_photo_retakes': photoRetakes,
      '015_rate_limit_hits': rateLimitHits,
      '016_final_file_positions': finalFilePositions,
      '017_signature_boxes': signatureBoxes,
      '018_awaited_placements': awaitedPlacements,
      '019_pdf_templates': pdfTemplates,
      '020_whatsapp_messages': whatsappMessages,
      '021_whatsapp_conversations': whatsappConversations,
      '022_reference_settings': referenceSettings,
      '023_template_layout': templateLayout,
      '024_identity_attempts': identityAttempts,
      '025_face_matcher_uses': faceMatcherUses,
      '026_company': company,
      '027_prebuilt_processes': prebuiltProcesses,
      '029_process_readers': processReaders,
      '030_user_names': userNames,
      '031_attempt_liveness': attemptLiveness,
      '032_form_processes_per_hour': formProcessesPerHour,
      '033_console': consoleSignIn,
      '034_edit_mode': editMode,
      '035_signer_delegation': signerDelegation,
      '036_console_strong_sign_in': consoleStrongSignIn,
      '039_participant_attachments': participantAttachments,
      '040_attachment_reviews_and_printing': attachmentReviewsAndPrinting,
      '041_whatsapp_retry_after': whatsappRetryAfter,
      '042_outbox_recipient': outboxRecipient,
      '044_form_limits': formLimits,
      '045_person_languages': personLanguages,
      '046_pades_levels': padesLevels,
      '047_user_roles': userRoles,
    };
  },
};

/** A postgres:// URL selects PostgreSQL; otherwise the embedded SQLite file under the data folder. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.databaseSchema, options.databasePreparedStatements ?? true);
  const handle = openSqlite(options.dataDir);
  await migrate(handle.db, undefined);
  return handle;
}

/** The SQLite file of a data folder. */
export function sqliteFileOf(dataDir: string): string {
  return path.join(dataDir, 'service.sqlite');
}

function openSqlite(dataDir: string): DatabaseHandle {
  fs.mkdirSync(dataDir, { recursive: true });
  const filePath = sqliteFileOf(dataDir);
  const file = new BetterSqlite3(filePath);
  applySqlitePragmas(file);
  // Opened after the main connection has put the file in WAL mode (and so made its log), which a read-only one cannot do.
  const reader = new BetterSqlite3(filePath, { readonly: true, fileMustExist: true });
  applySqliteReaderPragmas(reader);
  const grouped = groupCommitDialect(
    new GroupCommitSqlite(file, statementCache(file), { prepare: statementCache(reader), close: () => reader.close() }, openWalFlusher(`${filePath}-wal`)),
  );
  const db = new Kysely<Database>({ dialect: grouped.dialect });
  grouped.register(db);
  let checkpointer: Checkpointer | undefined;
  return {
    db,
    dialect: 'sqlite',
    startUpkeep(onError) {
      checkpointer ??= startCheckpointer({ file: filePath, intervalMs: CHECKPOINT_INTERVAL_MS, onError });
    },
    async close() {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * Instances starting together on one schema take turns: creating the schema and Kysely's migration
 * tables is not safe to race (`CREATE ... IF NOT EXISTS` can still fail on PostgreSQL's catalogue
 * constraints), so one session holds an advisory lock named after the schema from before the schema
 * is created until the migrations are done; the others wait for it, then find nothing to do.
 */
async function openPostgres(url: string, schema: string, prepared: boolean): Promise<DatabaseHandle> {
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path="${schema}"` });
  const db = new Kysely<Database>({ dialect: new SchemaScopedPostgresDialect({ pool: prepared ? namingPool(pool) : pool }, schema) });
  try {
    await setup.query('SELECT pg_advisory_lock(hashtext($1))', [`schema and migrations of ${schema}`]);
    await setup.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await migrate(db, schema);
  } catch (error) {
    await db.destroy();
    throw error;
  } finally {
    // Ending the session releases its advisory lock.
    await setup.end();
  }
  return { db, dialect: 'postgres', startUpkeep: () => undefined, close: () => db.destroy() };
}

/**
 * On PostgreSQL the migration tables are named with their schema: Kysely looks for them across
 * every schema, and would otherwise take another schema's tables for its own.
 */
async function migrate(db: Db, schema: string | undefined): Promise<void> {
  const migrator = new Migrator({ db, provider: migrations, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}

/** PostgreSQL returns counts as strings (bigint); SQLite as numbers. */
export function toCount(value: string | number | bigint | null | undefined): number {
  return Number(value ?? 0);
}

export { sql };
