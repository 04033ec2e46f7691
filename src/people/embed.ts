import crypto from 'node:crypto';
import type { ApiKeyResolver } from '../auth/key-resolver.js';
import type { ServiceContext } from '../context.js';
import type { Db } from '../db/database.js';
import { findProcessByCode, listParticipants } from '../documents/queries.js';
import { PROCESS_CODE_LENGTH } from '../documents/schemas.js';
import { type DomainError, fail } from '../domain-error.js';
import { findOrganization, listEmbeddingOrigins } from '../organizations/queries.js';
import { originsOf, settingsOf } from '../organizations/settings.js';
import { isFillDocument, openFillSession } from '../references/fill/fill-session.js';
import { findVerifaceByCode } from '../veriface/queries.js';
import { VERIFACE_CODE_LENGTH } from '../veriface/schemas.js';
import type { EmbeddedFlow, EmbedFillInput, EmbedInput } from './contract.js';
import { keepEmbeddedLanguage, useSdkToken } from './queries.js';

export type { EmbeddedFlow, EmbedFlow, EmbedInput } from './contract.js';

/** Refused lookups counted per organization, whatever address they come from (src/people/embed-limit.ts). */
export interface EmbedFailures {
  /** A 429 to answer when the organization's lookups without a token are locked for now, else undefined. */
  refusal(organizationId: string): Promise<DomainError | undefined>;
  fail(organizationId: string): Promise<void>;
}

export function sdkTokenHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/**
 * What a minted token is for: the SDK's `document`, and for the fill flow what names the form
 * beside its template, so a token opens exactly what it was minted for.
 */
export function embedDocumentKey(input: { document: string } & EmbedFillInput): string {
  if (!isFillDocument(input.document)) return input.document;
  if (input.code !== undefined) return `${input.document}/${input.code}`;
  if (input.reference !== undefined) return `${input.document}@${input.reference}`;
  return input.document;
}

/** The form the SDK's fill flow names, opened in a session of its own (src/references/fill/fill-session.ts). */
async function openFill(ctx: ServiceContext, organizationId: string, input: EmbedInput): Promise<EmbeddedFlow | undefined> {
  const token = await openFillSession(ctx, {
    request: {
      organizationId,
      templateId: input.document,
      ...(input.code === undefined ? {} : { code: input.code }),
      ...(input.preBuild === undefined ? {} : { preBuild: input.preBuild }),
      ...(input.reference === undefined ? {} : { reference: input.reference }),
    },
    origin: input.parentOrigin,
  });
  return token === undefined ? undefined : { flow: 'fill', token };
}

/** The flow the SDK's `document` names in the organization, if any. */
export async function findEmbeddedFlow(db: Db, organizationId: string, document: string): Promise<EmbeddedFlow | undefined> {
  if (document.length === VERIFACE_CODE_LENGTH) {
    const validation = await findVerifaceByCode(db, organizationId, document);
    if (validation) return { flow: 'validation', token: validation.link_token };
  }
  if (document.length <= PROCESS_CODE_LENGTH) return undefined;
  const process = await findProcessByCode(db, organizationId, document.slice(0, PROCESS_CODE_LENGTH));
  const participantId = document.slice(PROCESS_CODE_LENGTH);
  const participant = process ? (await listParticipants(db, process.id)).find((p) => p.participant_id === participantId) : undefined;
  return participant ? { flow: 'sign', token: participant.link_token } : undefined;
}

/**
 * What an embedding page may open: the flow of a document of the organization whose key it holds
 * (for the fill flow, a form of one of its templates: a page holding the public key can make
 * processes with it, as the real service allows; the rest of these rules hold for it too),
 * only from an origin that organization allowed, and with a token minted for that document and
 * origin when one is sent or the organization requires one. Every refusal is the same answer, so a
 * wrong key, code, participant, origin or token tells nothing about which part was wrong. Refused
 * lookups count against the organization: past its limit, lookups without a token are answered
 * 429, right or wrong, so guessing participants is slow from any number of addresses; a token
 * cannot be guessed, so lookups with one still open.
 */
export async function openEmbeddedFlow(
  ctx: ServiceContext & { keys: ApiKeyResolver },
  options: { input: EmbedInput; failures: EmbedFailures },
): Promise<EmbeddedFlow> {
  const { input, failures } = options;
  const refused = fail('EMBED_NOT_FOUND');
  const key = await ctx.keys.resolve(input.keyPublic);
  const organization = key && (await findOrganization(ctx.db, key.organizationId));
  if (!organization) throw refused;
  const settings = settingsOf(organization);
  if (input.token === undefined) {
    if (settings.sdkRequireToken) throw refused;
    const tooMany = await failures.refusal(organization.id);
    if (tooMany) throw tooMany;
  }
  const allowed =
    settings.sdkOrigins.includes(input.parentOrigin) &&
    (input.token === undefined ||
      (await useSdkToken(ctx.db, {
        tokenHash: sdkTokenHash(input.token),
        organizationId: organization.id,
        document: embedDocumentKey(input),
        origin: input.parentOrigin,
        now: ctx.clock.now().toISOString(),
      })));
  const flow = !allowed
    ? undefined
    : isFillDocument(input.document)
      ? await openFill(ctx, organization.id, input)
      : await findEmbeddedFlow(ctx.db, organization.id, input.document);
  if (!flow) {
    await failures.fail(organization.id);
    throw refused;
  }
  if (input.language !== undefined && flow.flow !== 'fill')
    await keepEmbeddedLanguage(ctx.db, { flow: flow.flow, token: flow.token, language: input.language });
  return flow;
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
