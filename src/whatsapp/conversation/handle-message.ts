import { withTransaction } from '../../db/transaction.js';
import type { HandleChatMessage } from '../chat-context.js';
import { queueChatMessage } from '../queue-chat.js';

/**
 * What the service answers a person who writes to the business number. With no signature or face
 * validation open for their number, a polite answer: never an error to Meta, which would send the
 * message again.
 */
export const handleChatMessage: HandleChatMessage = async (ctx, message) => {
  await withTransaction(ctx, (trx) =>
    queueChatMessage(trx, ctx.clock, {
      organizationId: null,
      to: message.from,
      purpose: 'help',
      content: {
        kind: 'text',
        text: 'Hola. Este número no tiene ninguna firma ni validación de identidad pendiente. Si esperabas una, pide a quien te la envió que la vuelva a enviar.',
      },
    }),
  );
};
