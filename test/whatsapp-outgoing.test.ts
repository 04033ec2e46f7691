import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/transaction.js';
import { writeBlobBytes } from '../src/files/blob-bytes.js';
import { listMailbox, mailboxDir } from '../src/messages/local-mailbox.js';
import type { OutgoingChatContent } from '../src/whatsapp/message/chat-message.js';
import { queueChatMessage } from '../src/whatsapp/queue-chat.js';
import { type GraphApiStandIn, startGraphApi } from './support/graph-api.js';
import { dialects, startTestService, type TestService } from './support/service.js';
import { PDF_BYTES } from './support/signing.js';
import { runOutbox, startWhatsAppService } from './support/whatsapp-service.js';

let numbers = 0;
const newNumber = () => `57320${String(1_000_000 + ++numbers)}`;

async function queue(svc: TestService, to: string, content: OutgoingChatContent, organizationId = svc.orgA.id): Promise<void> {
  await withTransaction(svc.deps, (trx) => queueChatMessage(trx, svc.clock, { organizationId, to, purpose: 'step', content }));
}

describe.each(dialects)("the conversation's messages go out as Meta documents them (%s)", (dialect) => {
  let graph: GraphApiStandIn;
  let svc: TestService;

  beforeAll(async () => {
    graph = await startGraphApi();
    svc = await startWhatsAppService(dialect, graph);
  });
  afterAll(async () => {
    await svc.close();
    await graph.close();
  });

  const sentTo = (to: string) => graph.sent.filter((sent) => sent.to === to).map((sent) => sent.body);

  describe('text, reply buttons and templates with quick replies reach the Cloud API in its shapes', () => {
    it('a text, an interactive message with reply buttons, and a template with body parameters and quick-reply payloads', async () => {
      const to = newNumber();
      await queue(svc, `+${to}`, { kind: 'text', text: 'Hola Ana' });
      await runOutbox(svc);
      await queue(svc, to, {
        kind: 'buttons',
        text: '¿Firmas el contrato?',
        buttons: [
          { id: 'sign', title: 'Acepto y firmo' },
          { id: 'reject', title: 'Rechazar' },
        ],
      });
      await runOutbox(svc);
      await queue(svc, to, { kind: 'template', name: 'signing_invitation', language: 'es', parameters: ['Ana', 'Arriendo'], quickReplies: ['start', 'later'] });
      await runOutbox(svc);
      const envelope = { messaging_product: 'whatsapp', recipient_type: 'individual', to };
      expect(sentTo(to)).toEqual([
        { ...envelope, type: 'text', text: { preview_url: false, body: 'Hola Ana' } },
        {
          ...envelope,
          type: 'interactive',
          interactive: {
            type: 'button',
            body: { text: '¿Firmas el contrato?' },
            action: {
              buttons: [
                { type: 'reply', reply: { id: 'sign', title: 'Acepto y firmo' } },
                { type: 'reply', reply: { id: 'reject', title: 'Rechazar' } },
              ],
            },
          },
        },
        {
          ...envelope,
          type: 'template',
          template: {
            name: 'signing_invitation',
            language: { code: 'es' },
            components: [
              {
                type: 'body',
                parameters: [
                  { type: 'text', text: 'Ana' },
                  { type: 'text', text: 'Arriendo' },
                ],
              },
              { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'start' }] },
              { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'later' }] },
            ],
          },
        },
      ]);
      expect(graph.unauthorized).toBe(0);
    });

    it('more than three buttons, or a title longer than 20, is refused for good before it reaches Meta, and its record says failed', async () => {
      const to = newNumber();
      const buttons = ['a', 'b', 'c', 'd'].map((id) => ({ id, title: id }));
      await queue(svc, to, { kind: 'buttons', text: 'Elige', buttons });
      await queue(svc, to, { kind: 'buttons', text: 'Elige', buttons: [{ id: 'x', title: 'Un título demasiado largo' }] });
      await runOutbox(svc);
      expect(sentTo(to)).toEqual([]);
      const records = await svc.deps.db.selectFrom('whatsapp_messages').select(['status', 'error']).where('phone', '=', to).execute();
      expect(records).toEqual([
        { status: 'failed', error: 'Malformed whatsapp payload' },
        { status: 'failed', error: 'Malformed whatsapp payload' },
      ]);
    });
  });

  describe("one number's messages reach Meta in the order they were queued, even when one fails for a while; other numbers are not held back", () => {
    it('a message Meta refuses for now holds back the later ones to its number until its retry sends it first', async () => {
      const to = newNumber();
      const other = newNumber();
      graph.refuse(to, { status: 503, code: 2, message: 'Service temporarily unavailable' }, 1);
      await queue(svc, to, { kind: 'text', text: 'Código correcto.' });
      await queue(svc, to, { kind: 'text', text: 'Ahora envía la foto del frente de tu documento.' });
      await runOutbox(svc);
      expect(sentTo(to)).toEqual([]);
      // Queued while the first waits for its retry: held back as well. Another number, of another organization, is not.
      await queue(svc, to, { kind: 'text', text: 'Escribe AYUDA si la necesitas.' });
      await queue(svc, other, { kind: 'text', text: 'Hola Rosa' }, svc.orgB.id);
      await runOutbox(svc);
      expect(sentTo(to)).toEqual([]);
      expect(sentTo(other).map((body) => body.text)).toEqual([{ preview_url: false, body: 'Hola Rosa' }]);

      svc.clock.advance(10 * 60_000);
      await runOutbox(svc);
      expect(sentTo(to).map((body) => body.text)).toEqual([
        { preview_url: false, body: 'Código correcto.' },
        { preview_url: false, body: 'Ahora envía la foto del frente de tu documento.' },
        { preview_url: false, body: 'Escribe AYUDA si la necesitas.' },
      ]);
      const rows = await svc.deps.db
        .selectFrom('outbox')
        .select(['attempts', 'status'])
        .where('recipient', '=', to)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      // Only the refused one spent an attempt on Meta's refusal; the ones held back spent none.
      expect(rows).toEqual([
        { attempts: 2, status: 'delivered' },
        { attempts: 1, status: 'delivered' },
        { attempts: 1, status: 'delivered' },
      ]);
    });
  });

  describe('a document is uploaded to the Cloud API first, then sent by its media id: never by a link', () => {
    it('POST /media with the bytes (multipart, messaging_product=whatsapp), then a document message naming the id', async () => {
      const to = newNumber();
      const blobKey = `documents/${svc.orgA.id}/lease.pdf`;
      await writeBlobBytes(svc.deps.blobs, blobKey, PDF_BYTES, 'application/pdf');
      await queue(svc, to, { kind: 'document', blobKey, filename: 'Arriendo - firmado.pdf', mimeType: 'application/pdf', caption: 'Tu documento firmado' });
      await runOutbox(svc);
      const upload = graph.uploads.at(-1);
      expect(upload).toMatchObject({ messagingProduct: 'whatsapp', type: 'application/pdf', filename: 'Arriendo - firmado.pdf' });
      expect(upload?.bytes.equals(PDF_BYTES)).toBe(true);
      expect(sentTo(to)).toEqual([
        {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to,
          type: 'document',
          document: { id: upload?.id, filename: 'Arriendo - firmado.pdf', caption: 'Tu documento firmado' },
        },
      ]);
      expect(JSON.stringify(sentTo(to))).not.toMatch(/https?:/);
    });
  });

  describe('with no provider, the local mailbox keeps them as it keeps the others, for the operator to read', () => {
    it('each message of the conversation is a line of the mailbox, with its summary; its record says sent', async () => {
      const local = await startTestService(dialect);
      try {
        const to = newNumber();
        await queue(local, to, { kind: 'buttons', text: '¿Firmas?', buttons: [{ id: 'sign', title: 'Acepto y firmo' }] }, local.orgB.id);
        await runOutbox(local);
        const [entry] = await listMailbox(mailboxDir(local.config.dataDir), { channel: 'whatsapp' });
        expect(entry).toMatchObject({ to, summary: '¿Firmas? [Acepto y firmo]' });
        expect(entry?.message).toMatchObject({ chat: { purpose: 'step', content: { kind: 'buttons' } } });
        const [record] = await local.deps.db.selectFrom('whatsapp_messages').selectAll().where('phone', '=', to).execute();
        expect(record).toMatchObject({ organization_id: local.orgB.id, direction: 'out', kind: 'buttons', status: 'sent', wamid: `whatsapp/${entry?.id}` });
      } finally {
        await local.close();
      }
    });
  });
});
