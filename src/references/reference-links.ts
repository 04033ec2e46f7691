import type { ServiceContext } from '../context.js';
import { decodeCursor, page } from '../db/cursor.js';
import type { ReferenceLinkRow } from '../db/schema.js';
import { resolveValidations, type ValidationFieldsInput, type ValidationOptionsInput } from '../documents/identity-validations.js';
import { DomainError, fail, invalid } from '../domain-error.js';
import { answerMessage } from '../error-catalogue.js';
import { newObjectId, newToken } from '../ids.js';
import { normalizeEmail } from '../organizations/organizations.js';
import { findUserByEmail } from '../organizations/queries.js';
import { lockTemplate } from '../templates/queries.js';
import { findTemplate } from '../templates/read-templates.js';
import * as q from './queries.js';
import {
  type CreateReferenceInput,
  REFERENCE_LINK_HOURLY_CAP_DEFAULT,
  type ReferenceSettingsInput,
  type ReferenceUsesQuery,
  type UpdateReferenceInput,
} from './schemas.js';

/** Public path of a reference link: anyone holding it fills the template's questionnaire. */
export const REFERENCE_PATH_PREFIX = '/r/';

export interface ReferenceLink {
  id: string;
  template: string;
  name?: string;
  url: string;
  email?: string;
  camera?: boolean;
  otpCode?: boolean;
  options?: ValidationOptionsInput;
  signNow: boolean;
  expiresAt?: string;
  enabled: boolean;
  maxUses?: number;
  hourlyCap: number;
  uses: number;
  created_at: string;
}

/** The validations a link stores: /document/save's root fields, only those given. */
export interface StoredValidations {
  camera?: boolean;
  otpCode?: boolean;
  options?: ValidationOptionsInput;
}

export function validationsOf(row: ReferenceLinkRow): StoredValidations {
  if (row.validations === null) return {};
  const parsed: unknown = JSON.parse(row.validations);
  return typeof parsed === 'object' && parsed !== null ? (parsed as StoredValidations) : {};
}

export function referenceUrl(ctx: Pick<ServiceContext, 'publicUrl'>, token: string): string {
  return `${ctx.publicUrl}${REFERENCE_PATH_PREFIX}${token}`;
}

function present(ctx: ServiceContext, row: ReferenceLinkRow): ReferenceLink {
  return {
    id: row.id,
    template: row.template_id,
    ...(row.name === null ? {} : { name: row.name }),
    url: referenceUrl(ctx, row.token),
    ...(row.creator_email === null ? {} : { email: row.creator_email }),
    ...validationsOf(row),
    signNow: row.sign_now === 1,
    ...(row.expires_at === null ? {} : { expiresAt: row.expires_at }),
    enabled: row.enabled === 1,
    ...(row.max_uses === null ? {} : { maxUses: row.max_uses }),
    hourlyCap: row.hourly_cap,
    uses: row.uses,
    created_at: row.created_at,
  };
}

/**
 * The validations given, checked as /document/save checks its root fields (a signer's own needs,
 * such as a phone for WhatsApp, are checked when a process is made); undefined when none is given.
 */
function validationsFrom(input: ValidationFieldsInput): string | undefined {
  const given: StoredValidations & { both?: boolean } = {
    ...(input.camera === undefined ? {} : { camera: input.camera }),
    ...(input.otpCode === undefined ? {} : { otpCode: input.otpCode }),
    ...(input.options === undefined ? {} : { options: input.options }),
    ...(input.both === undefined ? {} : { both: input.both }),
  };
  if (Object.keys(given).length === 0) return undefined;
  const checked = resolveValidations({ root: given, signers: [], package: false });
  if (!checked.ok) throw new DomainError(answerMessage(checked.message));
  return JSON.stringify(given);
}

async function creatorEmail(ctx: ServiceContext, organizationId: string, email: string | undefined): Promise<string | undefined> {
  if (email === undefined) return undefined;
  const normalized = normalizeEmail(email);
  if (!(await findUserByEmail(ctx.db, organizationId, normalized))) throw fail('USER_NOTFOUND');
  return normalized;
}

function checkExpiry(ctx: ServiceContext, expiresAt: Date | null | undefined): void {
  if (expiresAt && expiresAt.getTime() <= ctx.clock.now().getTime()) throw invalid('"expiresAt" must be in the future');
}

export async function createReferenceLink(ctx: ServiceContext, options: { organizationId: string; input: CreateReferenceInput }): Promise<ReferenceLink> {
  const { organizationId, input } = options;
  const validations = validationsFrom(input);
  checkExpiry(ctx, input.expiresAt);
  const email = await creatorEmail(ctx, organizationId, input.email);
  return ctx.db.transaction().execute(async (trx) => {
    const template = await lockTemplate(trx, ctx.dialect, organizationId, input.template);
    if (!template) throw fail('TEMPLATE_NOT_FOUND', { when: 'elsewhere' });
    const now = ctx.clock.now();
    const row: ReferenceLinkRow = {
      id: newObjectId(now),
      organization_id: organizationId,
      template_id: template.id,
      token: newToken(),
      name: input.name ?? null,
      validations: validations ?? null,
      sign_now: input.signNow === true ? 1 : 0,
      expires_at: input.expiresAt ? input.expiresAt.toISOString() : null,
      enabled: input.enabled === false ? 0 : 1,
      creator_email: email ?? null,
      max_uses: input.maxUses ?? null,
      hourly_cap: input.hourlyCap ?? REFERENCE_LINK_HOURLY_CAP_DEFAULT,
      uses: 0,
      created_at: now.toISOString(),
    };
    await q.insertReferenceLink(trx, row);
    return present(ctx, row);
  });
}

/** Changes the settings given and keeps the others; any validation field given replaces the link's validations whole. */
export async function updateReferenceLink(ctx: ServiceContext, options: { organizationId: string; input: UpdateReferenceInput }): Promise<ReferenceLink> {
  const { organizationId, input } = options;
  const validations = validationsFrom(input);
  checkExpiry(ctx, input.expiresAt);
  const email = await creatorEmail(ctx, organizationId, input.email);
  const settings: ReferenceSettingsInput = input;
  const row = await q.updateReferenceLink(ctx.db, organizationId, input.id, {
    ...(settings.name === undefined ? {} : { name: settings.name }),
    ...(validations === undefined ? {} : { validations }),
    ...(settings.signNow === undefined ? {} : { sign_now: settings.signNow ? 1 : 0 }),
    ...(settings.expiresAt === undefined ? {} : { expires_at: settings.expiresAt === null ? null : settings.expiresAt.toISOString() }),
    ...(settings.enabled === undefined ? {} : { enabled: settings.enabled ? 1 : 0 }),
    ...(email === undefined ? {} : { creator_email: email }),
    ...(settings.maxUses === undefined ? {} : { max_uses: settings.maxUses }),
    ...(settings.hourlyCap === undefined ? {} : { hourly_cap: settings.hourlyCap }),
  });
  if (!row) throw fail('REFERENCE_NOT_FOUND');
  return present(ctx, row);
}

export async function listReferenceLinks(ctx: ServiceContext, options: { organizationId: string; templateId: string }): Promise<{ data: ReferenceLink[] }> {
  if (!(await findTemplate(ctx, options.organizationId, options.templateId))) throw fail('TEMPLATE_NOT_FOUND', { when: 'elsewhere' });
  const rows = await q.listReferenceLinks(ctx.db, options.organizationId, options.templateId);
  return { data: rows.map((row) => present(ctx, row)) };
}

export async function deleteReferenceLink(ctx: ServiceContext, options: { organizationId: string; id: string }): Promise<{ id: string; deleted: boolean }> {
  const deleted = await ctx.db.transaction().execute((trx) => q.deleteReferenceLink(trx, options.organizationId, options.id));
  if (deleted === 0) throw fail('REFERENCE_NOT_FOUND');
  return { id: options.id, deleted: true };
}

/** The processes made through one link, newest first: their codes and when, never the answers. */
export async function listReferenceLinkUses(
  ctx: ServiceContext,
  options: { organizationId: string; query: ReferenceUsesQuery },
): Promise<{ data: { code: string; created_at: string }[]; next: string | null }> {
  const { organizationId, query } = options;
  if (!(await q.findReferenceLink(ctx.db, organizationId, query.id))) throw fail('REFERENCE_NOT_FOUND');
  const rows = await q.listReferenceLinkUses(ctx.db, {
    organizationId,
    linkId: query.id,
    limit: query.limit + 1,
    ...(query.cursor === undefined ? {} : { after: decodeCursor(query.cursor) }),
  });
  const paged = page(rows, query.limit);
  return { data: paged.rows.map((row) => ({ code: row.process_code, created_at: row.created_at })), next: paged.next };
}
