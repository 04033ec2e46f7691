import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * Table shapes shared by SQLite and PostgreSQL. Ids and timestamps (ISO-8601 UTC text) are made by
 * the application so both dialects store the same values; JSON lives in text columns for the same reason.
 */
export interface OrganizationsTable {
  id: string;
  name: string;
  sdk_integration: number;
  created_at: string;
}

export interface UsersTable {
  id: string;
  organization_id: string;
  email: string;
  created_at: string;
}

export type ApiKeyKind = 'private' | 'public';

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  kind: ApiKeyKind;
  key_hash: string;
  hint: string;
  created_at: string;
  revoked_at: string | null;
}

export interface TemplatesTable {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  /** The template's questionnaire document: config, sign, signatureProfile, preBuild and the optional extras, as JSON. */
  body: string;
  build: number;
  status: 'active' | 'inactive';
  created_at: string;
  updated_at: string;
}

export interface ReferenceLinksTable {
  id: string;
  organization_id: string;
  template_id: string;
  token: string;
  name: string | null;
  created_at: string;
}

export type ProcessStatus = 'CREATED' | 'FINISH' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';

export interface ProcessesTable {
  id: string;
  code: string;
  organization_id: string;
  template_id: string | null;
  name: string;
  status: ProcessStatus;
  created_at: string;
  updated_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export type OutboxStatus = 'pending' | 'delivered' | 'failed';

export interface OutboxTable {
  id: string;
  organization_id: string | null;
  kind: 'webhook' | 'email' | 'whatsapp' | 'sms' | 'job';
  /** The message as JSON; its shape is fixed by `kind` (src/outbox/types.ts). */
  payload: string;
  status: OutboxStatus;
  /** Attempts made in the current round (a resend starts a new round). */
  attempts: number;
  next_attempt_at: string;
  /** The worker holding the message, and until when; a crashed worker's lease simply runs out. */
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  /** At most one pending message per key (recurring jobs); null for ordinary messages. */
  dedupe_key: string | null;
  webhook_id: string | null;
  event_type: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttemptsTable {
  id: string;
  outbox_id: string;
  started_at: string;
  duration_ms: number;
  ok: number;
  status_code: number | null;
  response: string | null;
  error: string | null;
}

export interface WebhooksTable {
  id: string;
  organization_id: string;
  name: string;
  url: string;
  secret: string;
  description: string | null;
  enabled: number;
  created_at: string;
  updated_at: string;
}

export type VerifaceStatus = 'INPROGRESS' | 'APPROVED' | 'INVALIDATED' | 'BLOCKED' | 'EXPIRED';

export interface VerifaceProcessesTable {
  id: string;
  code: string;
  organization_id: string;
  creator_email: string;
  platform: 'whatsapp' | 'web';
  name: string;
  phone: string;
  country: string;
  document_type: string;
  identification: string;
  user_email: string | null;
  /** The integrator's JSON values, echoed in every webhook. */
  custom: string | null;
  target_webhooks: string | null;
  tags: string | null;
  status: VerifaceStatus;
  expires_at: string | null;
  /** The secret part of the person's link. */
  link_token: string;
  /** Blob keys of the photos, once captured. */
  document_front: string | null;
  document_back: string | null;
  face: string | null;
  /** 0 to 100, once compared. */
  similarity: number | null;
  result_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface VerifaceStagesTable {
  id: string;
  process_id: string;
  stage: string;
  detail: string | null;
  at: string;
}

export interface Database {
  veriface_processes: VerifaceProcessesTable;
  veriface_stages: VerifaceStagesTable;
  outbox: OutboxTable;
  delivery_attempts: DeliveryAttemptsTable;
  webhooks: WebhooksTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  templates: TemplatesTable;
  reference_links: ReferenceLinksTable;
  processes: ProcessesTable;
  settings: SettingsTable;
}

export type TemplateRow = Selectable<TemplatesTable>;
export type NewTemplateRow = Insertable<TemplatesTable>;
export type ProcessRow = Selectable<ProcessesTable>;
export type ReferenceLinkRow = Selectable<ReferenceLinksTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type UserRow = Selectable<UsersTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type DeliveryAttemptRow = Selectable<DeliveryAttemptsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type VerifaceRow = Selectable<VerifaceProcessesTable>;
export type VerifaceStageRow = Selectable<VerifaceStagesTable>;
export type { Generated };
