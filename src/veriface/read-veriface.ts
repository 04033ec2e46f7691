import type { ServiceContext } from '../context.js';
import { badRequest } from '../http/errors.js';
import { findVerifaceByCode, listStages } from './queries.js';
import { parseJson } from './stages.js';

export interface VerifaceView {
  code: string;
  email: string;
  platform: 'whatsapp' | 'web';
  status: string;
  name: string;
  userEmail?: string;
  phone: string;
  country: string;
  identificationType: string;
  identificationNumber: string;
  expiredDate?: string;
  custom?: Record<string, unknown>;
  targetWebhooks?: string[];
  tags?: string[];
  stages: { stage: string; at: string; detail?: Record<string, unknown> }[];
  createdAt: string;
  updatedAt: string;
}

/** The process as the real service's GET /veriface names its fields, with every stage and its time. */
export async function readVeriface(ctx: ServiceContext, options: { organizationId: string; code: string }): Promise<VerifaceView> {
  const row = await findVerifaceByCode(ctx.db, options.organizationId, options.code);
  if (!row) throw badRequest('VERIFACE_NOT_FOUND');
  const stages = await listStages(ctx.db, row.id);
  const custom = parseJson<Record<string, unknown>>(row.custom);
  const targetWebhooks = parseJson<string[]>(row.target_webhooks);
  const tags = parseJson<string[]>(row.tags);
  return {
    code: row.code,
    email: row.creator_email,
    platform: row.platform,
    status: row.status,
    name: row.name,
    ...(row.user_email === null ? {} : { userEmail: row.user_email }),
    phone: row.phone,
    country: row.country,
    identificationType: row.document_type,
    identificationNumber: row.identification,
    ...(row.expires_at === null ? {} : { expiredDate: row.expires_at }),
    ...(custom === undefined ? {} : { custom }),
    ...(targetWebhooks === undefined ? {} : { targetWebhooks }),
    ...(tags === undefined ? {} : { tags }),
    stages: stages.map((s) => {
      const detail = parseJson<Record<string, unknown>>(s.detail);
      return { stage: s.stage, at: s.at, ...(detail === undefined ? {} : { detail }) };
    }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
