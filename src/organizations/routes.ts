import type { ServiceContext } from '../context.js';
import { fail } from '../domain-error.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { readSettings, settingsChangesSchema, settingsResponse, updateSettings } from './settings.js';

const tag = 'organization';

/** What the organization decides for itself: the same settings `admin org update` changes. */
export function organizationRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/organization',
      // The integrator's own settings: nothing a page embedding the SDK needs.
      access: 'private-key',
      tag,
      summary: "The organization's settings: SDK origins and whether embedding needs a token, language, time zone, photo retention",
      body: noInput,
      query: noInput,
      response: { json: settingsResponse },
      errors: ['ORGANIZATION_NOT_FOUND'],
      handler: async ({ organizationId }) => (await readSettings(ctx.db, organizationId)) ?? Promise.reject(fail('ORGANIZATION_NOT_FOUND')),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v1.5/ext/organization',
      access: 'private-key',
      tag,
      summary: "Change the organization's settings; those not sent stay as they are",
      description:
        "sdkOrigins: the origins (scheme, host and port) allowed to embed the pages with the SDK; sdkRequireToken: embedding needs a token minted with the private key (POST /sdk/token); language: es, en, pt or fr, of the final documents and of every message sent to people; timeZone: an IANA zone; photoRetentionDays: 1 to 3650; formProcessesPerHour: processes its reference links and the SDK fill flow may create in an hour (0 to 100000, 0 closes them; 30 at first); padesLevel: B-B, B-T, B-LT or B-LTA for the final documents, null for the instance's PADES_LEVEL (levels above B-B need the instance's timestamp authority: without one the seal fails and says so).",
      body: settingsChangesSchema,
      query: noInput,
      response: { json: settingsResponse },
      errors: ['ORGANIZATION_NOT_FOUND'],
      handler: async ({ organizationId, body }) =>
        (await updateSettings(ctx.db, { organizationId, changes: body })) ?? Promise.reject(fail('ORGANIZATION_NOT_FOUND')),
    }),
  ];
}
