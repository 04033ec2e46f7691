import Joi from 'joi';
import type { ServiceContext } from '../../context.js';
import { fail } from '../../domain-error.js';
import { instantAnswer } from '../../fields/instant.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { readSettings, settingsChangesSchema, settingsResponse, updateSettings } from '../../organizations/settings.js';
import { changeRecorded } from '../console-user.js';
import { createKey, listKeys, revokeKey } from './api-keys.js';

const tag = 'console';

const keyId = Joi.string().hex().length(24).example('65f1c0e2a4b5c6d7e8f90789');
const kind = Joi.string().valid('private', 'public').example('private');

const keyListResponse = Joi.object({
  data: Joi.array()
    .items(
      Joi.object({
        id: keyId.required(),
        kind: kind.required(),
        hint: Joi.string().required().description('the first and last four characters, never the key').example('prk_…9f3a'),
        created_at: instantAnswer.required(),
        revoked_at: instantAnswer.description('absent while the key works'),
      }),
    )
    .required(),
});

const createKeyBody = Joi.object<{ kind: 'private' | 'public' }, true>({ kind: kind.required() });

const createdKeyResponse = Joi.object({
  id: keyId.required(),
  kind: kind.required(),
  key: Joi.string().required().description('the key, answered this once: only its hash is kept').example('prk_0123456789abcdef0123456789abcdef'),
});

const revokeKeyBody = Joi.object<{ id: string }, true>({ id: keyId.required() });

const revokedKeyResponse = Joi.object({ id: keyId.required(), revoked: Joi.boolean().valid(true).required() });

/** The organization's API keys and settings: its admins' only (a member is refused, and the refusal recorded). */
export function consoleKeyRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/console/api/keys',
      access: 'console',
      permission: 'settings.admin',
      tag,
      summary: "The organization's API keys, oldest first: kind, hint and dates, never the keys",
      body: noInput,
      query: noInput,
      response: { json: keyListResponse },
      errors: [],
      handler: ({ organizationId }) => listKeys(ctx, { organizationId }),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/keys',
      access: 'console',
      permission: 'settings.admin',
      tag,
      summary: 'Create an API key: the answer is the only time the key is shown',
      body: createKeyBody,
      query: noInput,
      response: { json: createdKeyResponse },
      errors: ['ORGANIZATION_NOT_FOUND'],
      handler: async (input) => {
        return changeRecorded(ctx, input, {
          action: 'KEY_CREATED',
          make: (trx) => createKey({ db: trx, clock: ctx.clock }, { organizationId: input.organizationId, kind: input.body.kind }),
          detail: (created) => ({ key: created.id, kind: created.kind }),
        });
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/keys/revoke',
      access: 'console',
      permission: 'settings.admin',
      tag,
      summary: 'Revoke an API key: refused everywhere within a second',
      body: revokeKeyBody,
      query: noInput,
      response: { json: revokedKeyResponse },
      errors: ['API_KEY_NOT_FOUND'],
      handler: async (input) => {
        return changeRecorded(ctx, input, {
          action: 'KEY_REVOKED',
          make: (trx) => revokeKey({ db: trx, clock: ctx.clock }, { organizationId: input.organizationId, id: input.body.id }),
          detail: (revoked) => ({ key: revoked.id }),
        });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/settings',
      access: 'console',
      permission: 'settings.admin',
      tag,
      summary: "The organization's settings, as GET /v1.5/ext/organization",
      body: noInput,
      query: noInput,
      response: { json: settingsResponse },
      errors: ['ORGANIZATION_NOT_FOUND'],
      handler: async ({ organizationId }) => (await readSettings(ctx.db, organizationId)) ?? Promise.reject(fail('ORGANIZATION_NOT_FOUND')),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/settings',
      access: 'console',
      permission: 'settings.admin',
      tag,
      summary: "Change the organization's settings, as PUT /v1.5/ext/organization: those not sent stay as they are",
      body: settingsChangesSchema,
      query: noInput,
      response: { json: settingsResponse },
      errors: ['ORGANIZATION_NOT_FOUND'],
      handler: async (input) => {
        return changeRecorded(ctx, input, {
          action: 'SETTINGS_CHANGED',
          make: async (trx) =>
            (await updateSettings(trx, { organizationId: input.organizationId, changes: input.body })) ?? Promise.reject(fail('ORGANIZATION_NOT_FOUND')),
          detail: () => ({ changed: Object.keys(input.body).sort().join(',') }),
        });
      },
    }),
  ];
}
