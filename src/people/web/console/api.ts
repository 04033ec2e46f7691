/*
 * The console's calls to its routes (src/console/routes.ts). The session is the HttpOnly cookie the
 * sign-in sets: this script never sees it, and sends nothing but same-origin requests, whose Origin
 * the browser writes itself (the console's routes refuse a change from any other).
 */

import type { UserRole } from '../../../organizations/user-roles.js';
import { callJson, messageOf } from '../json-call.js';

export interface Me {
  email: string;
  role: UserRole;
  organization: { id: string; name: string };
  /** The sign-in waits for the code of the user's authenticator app before it opens anything. */
  secondFactor?: 'totp';
}

export type ProcessStatus = 'CREATED' | 'EDITING' | 'FINISH' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';
export type ParticipantStatus = 'PENDING' | 'NOTIFICATION' | 'FINISH' | 'REJECT' | 'BLOCK';

export interface ProcessSummary {
  code: string;
  name: string;
  status: ProcessStatus;
  expiredDate?: string;
  createdAt: string;
}

export interface ProcessPage {
  data: ProcessSummary[];
  next: string | null;
}

export interface Participant {
  id: string;
  name: string;
  email: string;
  phone?: string;
  role: 'SIGNER' | 'APPROVER';
  status: ParticipantStatus;
  signedAt?: string;
  rejectedAt?: string;
  rejectReason?: string;
  blockReason?: string;
}

export interface TimelineEvent {
  action: string;
  participant: string;
  platform?: string;
  timestamp: string;
  by?: string;
  message?: string;
}

export interface ProcessDetail {
  process: {
    code: string;
    name: string;
    status: ProcessStatus;
    createdAt: string;
    expiredDate?: string;
    /** `signedUrl` says the signed PDF is made; the page downloads it through the console's own route. */
    documents: { name: string; ready: boolean; signedUrl?: string }[];
    /** Present once the final files are made. */
    certificateUrl?: string;
    signProfile: Participant[];
  };
  roadmap: { participants: { id: string; name: string }[]; activityLog: TimelineEvent[] };
}

export interface TemplateSummary {
  id: string;
  name: string;
}

export interface ProcessFilters {
  q: string;
  status: string;
  template: string;
  /** Instants, as the page computed them from the dates chosen. */
  from?: string;
  to?: string;
}

/** Why a call was refused, as the page tells the user. */
export type Refusal =
  | 'session'
  | 'invalid'
  | 'too-many'
  | 'too-soon'
  | 'not-found'
  | 'changed'
  | 'origin'
  | 'wrong-code'
  | 'second-factor-over'
  | 'totp-on'
  | 'totp-not-started'
  | 'passkey-invalid'
  | 'passkey-gone'
  | 'failed';

export class RefusedError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal);
  }
}

/** Refusals of a decision or an action taken on what someone else changed meanwhile: the page offers a reload. */
const CHANGED_MEANWHILE = [
  'REVIEW_NOT_FOUND',
  'VERIFACE_NOT_BLOCKED',
  'NOT_BLOCKED_PROCESS',
  'DOCUMENT_NOT_IN_SIGNATURE',
  'PROCESS_NOT_REACTIVABLE',
  'PARTICIPANT_ALREADY_DONE',
  'PARTICIPANT_BLOCKED',
  'NOT_YOUR_TURN',
];

async function refusalOf(res: Response): Promise<Refusal> {
  const message = await messageOf(res);
  if (message.startsWith('CONSOLE_SIGN_IN_REQUIRED')) return 'session';
  if (message.startsWith('CONSOLE_SIGN_IN_INVALID')) return 'invalid';
  if (message.startsWith('CONSOLE_ORIGIN_REFUSED')) return 'origin';
  if (message.startsWith('REMINDER_TOO_SOON')) return 'too-soon';
  if (message.startsWith('CONSOLE_TOTP_INVALID')) return 'wrong-code';
  if (message.startsWith('CONSOLE_SECOND_FACTOR_OVER')) return 'second-factor-over';
  if (message.startsWith('CONSOLE_TOTP_ALREADY_ON')) return 'totp-on';
  if (message.startsWith('CONSOLE_TOTP_NOT_STARTED')) return 'totp-not-started';
  if (message.startsWith('CONSOLE_PASSKEY_INVALID')) return 'passkey-invalid';
  if (message.startsWith('CONSOLE_PASSKEY_NOT_FOUND')) return 'passkey-gone';
  if (res.status === 429) return 'too-many';
  if (CHANGED_MEANWHILE.some((code) => message.startsWith(code))) return 'changed';
  if (message.startsWith('DOCUMENT_NOT_FOUND')) return 'not-found';
  return 'failed';
}

/** A call of the console's routes: a GET, or a POST of `body`. */
export function call(path: string, body?: unknown): Promise<Response> {
  return callJson(path, body === undefined ? {} : { body }, async (res) => new RefusedError(await refusalOf(res)));
}

export async function me(): Promise<Me> {
  return (await call('/console/api/me')).json();
}

/** The console's language for the user (their choice, else the organization's) and the organization's time zone. */
export interface ConsoleLanguage {
  language: string;
  chosen: boolean;
  timeZone: string;
}

export async function myLanguage(): Promise<ConsoleLanguage> {
  return (await call('/console/api/me/language')).json();
}

/** Keeps the user's choice of language for the console and its sign-in e-mails. */
export async function chooseMyLanguage(language: string): Promise<ConsoleLanguage> {
  return (await callJson('/console/api/me/language', { method: 'PUT', body: { language } }, async (res) => new RefusedError(await refusalOf(res)))).json();
}

export async function askForSignIn(email: string): Promise<void> {
  await call('/console/api/sign-in', { email });
}

export async function signInWithLink(token: string): Promise<Me> {
  return (await call('/console/api/sign-in/link', { token })).json();
}

export async function signInWithCode(email: string, code: string): Promise<Me> {
  return (await call('/console/api/sign-in/code', { email, code })).json();
}

export async function signOut(): Promise<void> {
  await call('/console/api/sign-out', {});
}

export async function processes(filters: ProcessFilters, cursor: string | null): Promise<ProcessPage> {
  const query = new URLSearchParams();
  if (filters.q.trim() !== '') query.set('q', filters.q.trim());
  if (filters.status !== '') query.set('status', filters.status);
  if (filters.template !== '') query.set('template', filters.template);
  if (filters.from) query.set('from', filters.from);
  if (filters.to) query.set('to', filters.to);
  if (cursor !== null) query.set('cursor', cursor);
  return (await call(`/console/api/processes?${query}`)).json();
}

export async function processDetail(code: string): Promise<ProcessDetail> {
  return (await call(`/console/api/process?code=${encodeURIComponent(code)}`)).json();
}

export async function templates(): Promise<TemplateSummary[]> {
  return ((await (await call('/console/api/templates?limit=500')).json()) as { data: TemplateSummary[] }).data;
}
