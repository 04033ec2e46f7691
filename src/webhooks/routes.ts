import { type ApiRoute, defineRoute, type Method, noInput, type RouteDefinition } from '../http/route.js';
import { type DeliveryStore, listDeliveries, resendDelivery, sendTestEvent } from './deliveries.js';
import {
  createdWebhookResponse,
  createWebhookSchema,
  deletedWebhookResponse,
  deliveryListResponse,
  listDeliveriesQuery,
  resendDeliverySchema,
  resentDeliveryResponse,
  rotatedSecretResponse,
  testEventResponse,
  updateWebhookSchema,
  webhookListResponse,
  webhookNameBody,
  webhookNameQuery,
  webhookResponse,
} from './schemas.js';
import { createWebhook, deleteWebhook, listWebhooks, rotateWebhookSecret, updateWebhook, type WebhookStore } from './webhooks.js';

type WebhookRoute<B, Q> = Omit<RouteDefinition<B, Q>, 'url' | 'tag' | 'access' | 'method'>;

/** Every webhook route is the organization's own and takes the private key: reads too, since they list endpoints and delivery logs. */
function webhookRoute<B, Q>(method: Method, url: string, definition: WebhookRoute<B, Q>): ApiRoute {
  return defineRoute({ ...definition, method, url, tag: 'webhooks', access: 'private-key' });
}

export function webhookRoutes(store: WebhookStore & DeliveryStore): ApiRoute[] {
  return [
    webhookRoute('POST', '/v1.5/ext/webhooks', {
      summary: 'Create a webhook (the secret is shown once)',
      body: createWebhookSchema,
      query: noInput,
      response: { json: createdWebhookResponse },
      errors: ['WEBHOOK_ALREADY_EXISTS', 'WEBHOOK_URL_NOT_ALLOWED'],
      handler: ({ body, organizationId }) => createWebhook(store, { organizationId, input: body }),
    }),
    webhookRoute('GET', '/v1.5/ext/webhooks', {
      summary: "List the organization's webhooks",
      body: noInput,
      query: noInput,
      response: { json: webhookListResponse },
      errors: [],
      handler: ({ organizationId }) => listWebhooks(store, { organizationId }),
    }),
    webhookRoute('PUT', '/v1.5/ext/webhooks', {
      summary: 'Change the URL, description or enabled flag of a webhook',
      body: updateWebhookSchema,
      query: noInput,
      response: { json: webhookResponse },
      errors: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_URL_NOT_ALLOWED'],
      handler: ({ body, organizationId }) => updateWebhook(store, { organizationId, input: body }),
    }),
    webhookRoute('POST', '/v1.5/ext/webhooks/rotate-secret', {
      summary: 'Replace the signing secret of a webhook',
      body: webhookNameBody,
      query: noInput,
      response: { json: rotatedSecretResponse },
      errors: ['WEBHOOK_NOT_FOUND'],
      handler: ({ body, organizationId }) => rotateWebhookSecret(store, { organizationId, name: body.name }),
    }),
    webhookRoute('DELETE', '/v1.5/ext/webhooks', {
      summary: 'Delete a webhook',
      body: noInput,
      query: webhookNameQuery,
      response: { json: deletedWebhookResponse },
      errors: ['WEBHOOK_NOT_FOUND'],
      handler: ({ query, organizationId }) => deleteWebhook(store, { organizationId, name: query.name }),
    }),
    webhookRoute('POST', '/v1.5/ext/webhooks/test', {
      summary: 'Send a webhook.test event to one webhook',
      body: webhookNameBody,
      query: noInput,
      response: { json: testEventResponse },
      errors: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_DISABLED'],
      handler: ({ body, organizationId }) => sendTestEvent(store, { organizationId, name: body.name }),
    }),
    webhookRoute('GET', '/v1.5/ext/webhooks/deliveries', {
      summary: 'Deliveries newest first with every attempt; ?id= for one',
      body: noInput,
      query: listDeliveriesQuery,
      response: { json: deliveryListResponse },
      errors: ['DELIVERY_NOT_FOUND'],
      handler: ({ query, organizationId }) => listDeliveries(store, { organizationId, ...query }),
    }),
    webhookRoute('POST', '/v1.5/ext/webhooks/deliveries/resend', {
      summary: 'Send a delivery again (same webhook-id)',
      body: resendDeliverySchema,
      query: noInput,
      response: { json: resentDeliveryResponse },
      errors: ['DELIVERY_NOT_FOUND', 'DELIVERY_PENDING', 'WEBHOOK_NOT_FOUND', 'WEBHOOK_DISABLED'],
      handler: ({ body, organizationId }) => resendDelivery(store, { organizationId, id: body.id }),
    }),
  ];
}
