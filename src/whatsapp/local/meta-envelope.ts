/*
 * A message a person sends, in the shape Meta's Cloud API delivers it to the webhook
 * (`whatsapp_business_account`, entry[].changes[].value with metadata, contacts and messages), so
 * that what the local chat page sends takes the very path Meta's deliveries take.
 */

/** What the person sends, as Meta's message types carry it. */
export type PersonMessage =
  | { type: 'text'; text: string }
  /** A tap on an interactive reply button: its id and title. */
  | { type: 'button_reply'; id: string; title: string }
  /** A tap on a template's quick-reply button: the payload the business set, and the button's text. */
  | { type: 'quick_reply'; payload: string; text: string }
  | { type: 'image'; mediaId: string; mimeType: string }
  | { type: 'document'; mediaId: string; mimeType: string; filename: string };

/** Stands for the business number of a Cloud API app: no Meta app sits behind the local chat. */
const LOCAL_PHONE_NUMBER_ID = 'local';

function body(message: PersonMessage): Record<string, unknown> {
  switch (message.type) {
    case 'text':
      return { type: 'text', text: { body: message.text } };
    case 'button_reply':
      return { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: message.id, title: message.title } } };
    case 'quick_reply':
      return { type: 'button', button: { payload: message.payload, text: message.text } };
    case 'image':
      return { type: 'image', image: { id: message.mediaId, mime_type: message.mimeType } };
    case 'document':
      return { type: 'document', document: { id: message.mediaId, mime_type: message.mimeType, filename: message.filename } };
  }
}

export function metaEnvelope(options: {
  wamid: string;
  /** Digits only, with the country code, as Meta writes numbers. */
  from: string;
  profileName?: string;
  sentAt: Date;
  /** The wamid of the business message answered (a button's message). */
  contextId?: string;
  message: PersonMessage;
}): Record<string, unknown> {
  const { wamid, from, profileName, sentAt, contextId, message } = options;
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: LOCAL_PHONE_NUMBER_ID,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: LOCAL_PHONE_NUMBER_ID, phone_number_id: LOCAL_PHONE_NUMBER_ID },
              contacts: [{ profile: { name: profileName ?? from }, wa_id: from }],
              messages: [
                {
                  from,
                  id: wamid,
                  timestamp: String(Math.floor(sentAt.getTime() / 1000)),
                  ...(contextId === undefined ? {} : { context: { from: LOCAL_PHONE_NUMBER_ID, id: contextId } }),
                  ...body(message),
                },
              ],
            },
          },
        ],
      },
    ],
  };
}
