import type { ServiceContext } from '../context.js';
import type { PrebuiltProcessRow } from '../db/schema.js';
import type { Answer } from '../documents/schemas.js';
import { DomainError } from '../domain-error.js';
import { findPrebuiltByCode } from './queries.js';
import { prebuiltLink, prebuiltState, storedAnswers } from './stored-prebuilt.js';

/** What the public key reads of a prebuilt process: the holder of a code sees as much as of a process, and no more. */
export interface PublicPrebuiltView {
  code: string;
  kind: 'document';
  name: string;
  status: 'PREBUILT' | 'CANCELLED' | 'EXPIRED';
  signFinish: false;
  expiredDate?: string;
  createdAt: string;
  updatedAt: string;
  documents: [];
  signProfile: [];
}

export interface PrebuiltView extends PublicPrebuiltView {
  email: string;
  preBuild: { template: string; emailTo: string; answers: Answer[]; url?: string };
}

function publicView(row: PrebuiltProcessRow, now: Date): PublicPrebuiltView {
  const state = prebuiltState(row, now);
  return {
    code: row.code,
    kind: 'document',
    name: row.name,
    status: state === 'PENDING' || state === 'COMPLETED' ? 'PREBUILT' : state,
    signFinish: false,
    ...(row.expires_at === null ? {} : { expiredDate: row.expires_at }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    documents: [],
    signProfile: [],
  };
}

function isNotFound(error: unknown): boolean {
  return error instanceof DomainError && error.message === 'DOCUMENT_NOT_FOUND';
}

/**
 * GET /document?code= of a code no process has yet: the prebuilt process waiting under it, if the
 * organization has one (completed ones are read as the process they became). Anything else is the
 * process read's own refusal.
 */
export async function readProcessOrPrebuilt<T>(
  ctx: ServiceContext,
  options: { organizationId: string; code: string; keyKind: 'private' | 'public'; read: () => Promise<T> },
): Promise<T | PrebuiltView | PublicPrebuiltView> {
  try {
    return await options.read();
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const row = await findPrebuiltByCode(ctx.db, options.organizationId, options.code);
    if (!row || row.status === 'COMPLETED') throw error;
    const now = ctx.clock.now();
    const view = publicView(row, now);
    if (options.keyKind === 'public') return view;
    return {
      ...view,
      email: row.creator_email,
      preBuild: {
        template: row.template_id,
        emailTo: row.email_to,
        answers: storedAnswers(row),
        ...(prebuiltState(row, now) === 'PENDING' ? { url: prebuiltLink(ctx, row) } : {}),
      },
    };
  }
}
