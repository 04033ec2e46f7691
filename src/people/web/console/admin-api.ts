/*
 * The console's calls to its templates, reference links, webhooks, keys and settings routes
 * (src/console/templates, webhooks, keys). A refusal for want of a session is the console's
 * RefusedError, which brings the sign-in back; any other carries the service's message, which names
 * what was refused (a field, a code).
 */
import type { AuditView } from '../../../console/audit-contract.js';
import type { FillPreview, FillQuestion } from '../../contract.js';
import { messageOf } from '../json-call.js';
import { RefusedError, type TemplateSummary } from './api.js';

export class AdminRefusal extends Error {}

export interface TemplateDetail extends TemplateSummary {
  config: (Pick<FillQuestion, 'name' | 'type' | 'description' | 'value' | 'values'> & { options?: { name: string; value: string; label?: string }[] })[];
  sign: string[];
}

export interface UploadUrls {
  id: string;
  urls: { mask: string; complete: string };
}

export interface ReferenceLink {
  id: string;
  template: string;
  name?: string;
  url: string;
  enabled: boolean;
  hourlyCap: number;
  uses: number;
  maxUses?: number;
}

/** What the console publishes a link with: blank fields keep the service's defaults. */
export interface ReferenceSettings {
  name: string;
  hourlyCap?: number;
  maxUses?: number;
}

export interface Webhook {
  name: string;
  url: string;
  enabled: boolean;
}

export interface Attempt {
  started_at: string;
  duration_ms: number;
  ok: boolean;
  status_code?: number;
  error?: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  id: string;
  message_id: string;
  webhook?: string;
  event: { type: string };
  status: DeliveryStatus;
  attempts: Attempt[];
  created_at: string;
}

export interface ApiKey {
  id: string;
  kind: 'private' | 'public';
  hint: string;
  created_at: string;
  revoked_at?: string;
}

export interface Settings {
  sdkOrigins: string[];
  language: string;
  timeZone: string;
  photoRetentionDays: number;
}

async function send<T>(path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}): Promise<T> {
  const res = await fetch(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
    credentials: 'same-origin',
    cache: 'no-store',
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (res.ok) return res.json();
  const message = await messageOf(res);
  if (message.startsWith('CONSOLE_SIGN_IN_REQUIRED')) throw new RefusedError('session');
  throw new AdminRefusal(message || String(res.status));
}

const query = (values: Record<string, string>) => new URLSearchParams(values).toString();

export const templateDetail = (id: string) => send<TemplateDetail>(`/console/api/template?${query({ id })}`);
export const templatePreview = (id: string) => send<FillPreview>(`/console/api/template/preview?${query({ id })}`);
export const createTemplate = (definition: unknown) => send<UploadUrls>('/console/api/template', { body: definition });
/** New upload URLs for the template's HTML files (and its other fields kept). */
export const uploadUrls = (id: string) => send<UploadUrls>('/console/api/template/update', { body: { id } });

/** Sends one HTML file to its upload URL, as integrators do after POST /v1.5/ext/template. */
export async function uploadFile(url: string, file: Blob): Promise<void> {
  const res = await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: file });
  if (!res.ok) throw new AdminRefusal((await messageOf(res)) || String(res.status));
}

export const references = async (template: string) => (await send<{ data: ReferenceLink[] }>(`/console/api/references?${query({ template })}`)).data;
export const publishReference = (template: string, settings: ReferenceSettings) =>
  send<ReferenceLink>('/console/api/reference', {
    body: {
      template,
      ...(settings.name === '' ? {} : { name: settings.name }),
      ...(settings.hourlyCap === undefined ? {} : { hourlyCap: settings.hourlyCap }),
      ...(settings.maxUses === undefined ? {} : { maxUses: settings.maxUses }),
    },
  });
export const switchReference = (id: string, enabled: boolean) => send<ReferenceLink>('/console/api/reference/update', { body: { id, enabled } });
export const referenceQr = async (id: string) => (await send<{ svg: string }>(`/console/api/reference/qr?${query({ id })}`)).svg;

export const webhooks = async () => (await send<{ data: Webhook[] }>('/console/api/webhooks')).data;
export const deliveries = (status: string) =>
  send<{ data: Delivery[]; next: string | null }>(`/console/api/webhook-deliveries?${query(status === '' ? { limit: '50' } : { status, limit: '50' })}`);
export const resend = (id: string) => send<{ id: string }>('/console/api/webhook-deliveries/resend', { body: { id } });

export const keys = async () => (await send<{ data: ApiKey[] }>('/console/api/keys')).data;
export const createKey = (kind: 'private' | 'public') => send<{ id: string; key: string }>('/console/api/keys', { body: { kind } });
export const revokeKey = (id: string) => send<{ id: string }>('/console/api/keys/revoke', { body: { id } });
export const settings = () => send<Settings>('/console/api/settings');
export const saveSettings = (changes: Settings) => send<Settings>('/console/api/settings', { body: changes });

export const auditLog = (cursor: string | null) =>
  send<{ data: AuditView[]; next: string | null }>(`/console/api/audit?${query(cursor === null ? { limit: '50' } : { limit: '50', cursor })}`);
