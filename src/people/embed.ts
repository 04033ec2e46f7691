import type { ApiKeyResolver } from '../auth/key-resolver.js';
import type { ServiceContext } from '../context.js';
import { findProcessByCode, listParticipants } from '../documents/queries.js';
import { PROCESS_CODE_LENGTH } from '../documents/schemas.js';
import { notFound } from '../http/errors.js';
import { findOrganization, listEmbeddingOrigins } from '../organizations/queries.js';
import { originsOf, settingsOf } from '../organizations/settings.js';
import { findVerifaceByCode } from '../veriface/queries.js';

export type EmbedFlow = 'sign' | 'validation';

export interface EmbedInput {
  keyPublic: string;
  /** The SDK's `document`: a face-validation code, or a process code followed by the participant's id. */
  document: string;
  /** The origin of the page that embeds the frame, as the browser gave it to the frame (`event.origin`). */
  parentOrigin: string;
}

export interface EmbeddedFlow {
  flow: EmbedFlow;
  /** The link token the frame then acts with, exactly as the person's own link would. */
  token: string;
}

const VERIFACE_CODE_LENGTH = 16;

/**
 * What an embedding page may open: the flow of a document of the organization whose key it holds,
 * only from an origin that organization allowed. Every refusal is the same answer, so a wrong key,
 * code, participant or origin tells nothing about which part was wrong.
 */
export async function openEmbeddedFlow(ctx: ServiceContext & { keys: ApiKeyResolver }, input: EmbedInput): Promise<EmbeddedFlow> {
  const refused = notFound('EMBED_NOT_FOUND');
  const key = await ctx.keys.resolve(input.keyPublic);
  if (!key) throw refused;
  const organization = await findOrganization(ctx.db, key.organizationId);
  if (!organization || !settingsOf(organization).sdkOrigins.includes(input.parentOrigin)) throw refused;
  if (input.document.length === VERIFACE_CODE_LENGTH) {
    const validation = await findVerifaceByCode(ctx.db, organization.id, input.document);
    if (validation) return { flow: 'validation', token: validation.link_token };
  }
  if (input.document.length <= PROCESS_CODE_LENGTH) throw refused;
  const process = await findProcessByCode(ctx.db, organization.id, input.document.slice(0, PROCESS_CODE_LENGTH));
  const participantId = input.document.slice(PROCESS_CODE_LENGTH);
  const participant = process ? (await listParticipants(ctx.db, process.id)).find((p) => p.participant_id === participantId) : undefined;
  if (!participant) throw refused;
  return { flow: 'sign', token: participant.link_token };
}

/**
 * The origins any organization allows to embed its pages, for the embedded app's
 * `frame-ancestors`: the browser then refuses every other site. Read at most once a second.
 */
export class EmbeddingOrigins {
  private origins: string[] = [];
  private readAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly ctx: Pick<ServiceContext, 'db' | 'clock'>) {}

  async all(): Promise<string[]> {
    const now = this.ctx.clock.now().getTime();
    if (now - this.readAt < 1000) return this.origins;
    const lists = await listEmbeddingOrigins(this.ctx.db);
    this.origins = [...new Set(lists.flatMap(originsOf))];
    this.readAt = now;
    return this.origins;
  }
}
