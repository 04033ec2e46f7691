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

export interface Database {
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
export type { Generated };
