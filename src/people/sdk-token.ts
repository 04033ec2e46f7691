import type { ServiceContext } from '../context.js';
import { fail } from '../domain-error.js';
import { newToken } from '../ids.js';
import { findOrganization } from '../organizations/queries.js';
import { settingsOf } from '../organizations/settings.js';
import { isFillDocument, resolveFillRequest } from '../references/fill/fill-session.js';
import type { EmbedFillInput } from './contract.js';
import { embedDocumentKey, findEmbeddedFlow, sdkTokenHash } from './embed.js';
import { deleteExpiredSdkTokens, insertSdkToken } from './queries.js';

/** Long enough for the frame to ask for it and use it; short enough that a leaked one is soon worthless. */
export const SDK_TOKEN_LIFETIME_MS = 10 * 60_000;

export interface SdkTokenInput extends EmbedFillInput {
  /** The SDK's `document`: a process code followed by the participant's id, a face-validation code, or a template id (the fill flow). */
  document: string;
  /** The origin of the integrator's page that will embed the frame. */
  origin: string;
}

export interface SdkToken {
  token: string;
  expiresAt: string;
}

/**
 * A token the integrator's backend asks for with the private key and hands to its page through the
 * SDK's `onSDKToken`: it opens one document's flow, from one origin, once, within ten minutes. Only
 * its SHA-256 is stored, so the database does not hold usable tokens. A page holding only the
 * public key cannot make one, so an organization that requires tokens cannot be embedded by a page
 * that merely knows (or guessed) a participant's id.
 */
export async function mintSdkToken(ctx: ServiceContext, options: { organizationId: string; input: SdkTokenInput }): Promise<SdkToken> {
  const { organizationId, input } = options;
  const organization = await findOrganization(ctx.db, organizationId);
  if (!organization) throw fail('ORGANIZATION_NOT_FOUND');
  if (!settingsOf(organization).sdkOrigins.includes(input.origin)) throw fail('SDK_ORIGIN_NOT_ALLOWED');
  const exists = isFillDocument(input.document)
    ? await resolveFillRequest(ctx, {
        organizationId,
        templateId: input.document,
        ...(input.code === undefined ? {} : { code: input.code }),
        ...(input.preBuild === undefined ? {} : { preBuild: input.preBuild }),
        ...(input.reference === undefined ? {} : { reference: input.reference }),
      })
    : await findEmbeddedFlow(ctx.db, organizationId, input.document);
  if (!exists) throw fail('DOCUMENT_NOT_FOUND', { when: 'embedding' });
  const now = ctx.clock.now();
  const token = `sdt_${newToken(24)}`;
  const expiresAt = new Date(now.getTime() + SDK_TOKEN_LIFETIME_MS).toISOString();
  await deleteExpiredSdkTokens(ctx.db, organizationId, now.toISOString());
  await insertSdkToken(ctx.db, {
    token_hash: sdkTokenHash(token),
    organization_id: organizationId,
    document: embedDocumentKey(input),
    origin: input.origin,
    expires_at: expiresAt,
    used_at: null,
    created_at: now.toISOString(),
  });
  return { token, expiresAt };
}
