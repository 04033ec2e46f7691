import type { FastifyInstance } from 'fastify';
import { describeRoute } from '../http/openapi.js';
import { validate } from '../http/validate.js';
import { listDeliveries, resendDelivery, sendTestEvent, type DeliveryStore } from './deliveries.js';
import {
  createWebhookSchema,
  listDeliveriesQuery,
  resendDeliverySchema,
  updateWebhookSchema,
  webhookNameBody,
  webhookNameQuery,
} from './schemas.js';
import { createWebhook, deleteWebhook, listWebhooks, rotateWebhookSecret, updateWebhook, type WebhookStore } from './webhooks.js';

export function webhookRoutes(app: FastifyInstance, store: WebhookStore & DeliveryStore): void {
  const tag = 'webhooks';

  app.post('/webhooks', describeRoute({ tag, summary: 'Create a webhook (the secret is shown once)', body: createWebhookSchema }), async (request) =>
    createWebhook(store, { organizationId: request.organizationId, input: validate(createWebhookSchema, request.body) }),
  );

  app.get('/webhooks', describeRoute({ tag, summary: "List the organization's webhooks" }), async (request) =>
    listWebhooks(store, { organizationId: request.organizationId }),
  );

  app.put('/webhooks', describeRoute({ tag, summary: 'Change the URL, description or enabled flag of a webhook', body: updateWebhookSchema }), async (request) =>
    updateWebhook(store, { organizationId: request.organizationId, input: validate(updateWebhookSchema, request.body) }),
  );

  app.post('/webhooks/rotate-secret', describeRoute({ tag, summary: 'Replace the signing secret of a webhook', body: webhookNameBody }), async (request) => {
    const { name } = validate(webhookNameBody, request.body);
    return rotateWebhookSecret(store, { organizationId: request.organizationId, name });
  });

  app.delete('/webhooks', describeRoute({ tag, summary: 'Delete a webhook', query: webhookNameQuery }), async (request) => {
    const { name } = validate(webhookNameQuery, request.query);
    return deleteWebhook(store, { organizationId: request.organizationId, name });
  });

  app.post('/webhooks/test', describeRoute({ tag, summary: 'Send a webhook.test event to one webhook', body: webhookNameBody }), async (request) => {
    const { name } = validate(webhookNameBody, request.body);
    return sendTestEvent(store, { organizationId: request.organizationId, name });
  });

  app.get(
    '/webhooks/deliveries',
    describeRoute({ tag, summary: 'Deliveries newest first with every attempt; ?id= for one', query: listDeliveriesQuery }),
    async (request) => listDeliveries(store, { organizationId: request.organizationId, ...validate(listDeliveriesQuery, request.query) }),
  );

  app.post(
    '/webhooks/deliveries/resend',
    describeRoute({ tag, summary: 'Send a delivery again (same webhook-id)', body: resendDeliverySchema }),
    async (request) => {
      const { id } = validate(resendDeliverySchema, request.body);
      return resendDelivery(store, { organizationId: request.organizationId, id });
    },
  );
}
