import type { ServiceContext } from '../../context.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { listDeliveries, resendDelivery } from '../../webhooks/deliveries.js';
import { deliveryListResponse, listDeliveriesQuery, resendDeliverySchema, resentDeliveryResponse, webhookListResponse } from '../../webhooks/schemas.js';
import { listWebhooks } from '../../webhooks/webhooks.js';
import { recordChange } from '../console-user.js';
import { withIdentityMasked } from '../identity-views.js';

const tag = 'console';

/** The organization's webhooks, their deliveries with every attempt, and a resend: its admins' only, as the private key's routes are the integrator's. */
export function consoleWebhookRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/console/api/webhooks',
      access: 'console',
      permission: 'settings.admin',
      tag,
      summary: "The organization's webhooks, as GET /v1.5/ext/webhooks (never their secrets)",
      body: noInput,
      query: noInput,
      response: { json: webhookListResponse },
      errors: [],
      handler: ({ organizationId }) => listWebhooks(ctx, { organizationId }),
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/webhook-deliveries',
      access: 'console',
      permission: 'settings.admin',
      tag,
      summary: 'Deliveries newest first with every attempt, by webhook and status; ?id= for one',
      description:
        'Each body as it was sent, with every phone and ID number in it masked to its last two digits: the process page and the review queue show them whole, each view recorded.',
      body: noInput,
      query: listDeliveriesQuery,
      response: { json: deliveryListResponse },
      errors: ['DELIVERY_NOT_FOUND', 'WEBHOOK_NOT_FOUND'],
      handler: async ({ query, organizationId }) => {
        const deliveries = await listDeliveries(ctx, { organizationId, ...query });
        return {
          ...deliveries,
          data: deliveries.data.map((delivery) => ({ ...delivery, event: withIdentityMasked(delivery.event), body: withIdentityMasked(delivery.body) })),
        };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/webhook-deliveries/resend',
      access: 'console',
      permission: 'settings.admin',
      tag,
      summary: 'Send a delivered or failed delivery again (the same webhook-id), as POST /v1.5/ext/webhooks/deliveries/resend',
      body: resendDeliverySchema,
      query: noInput,
      response: { json: resentDeliveryResponse },
      errors: ['DELIVERY_NOT_FOUND', 'DELIVERY_PENDING'],
      handler: async (input) => {
        const resent = await resendDelivery(ctx, { organizationId: input.organizationId, id: input.body.id });
        await recordChange(ctx, input, 'DELIVERY_RESENT', { delivery: resent.id });
        return resent;
      },
    }),
  ];
}
