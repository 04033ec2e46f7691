import { type Child, h } from '../dom.js';
import type { ChatMessage, MessageContent } from './api.js';
import { currentLanguage, say } from './words.js';

/** What a tap on a button of a message sends. */
export type OnReply = (reply: { id: string; title: string; quickReply: boolean }, contextId: string) => void;
/** What opening a document does (a plain link cannot carry the key). */
export type OnDocument = (message: ChatMessage, event: Event) => void;

function time(at: string): HTMLTimeElement {
  const shown = new Date(at).toLocaleTimeString(currentLanguage(), { hour: '2-digit', minute: '2-digit' });
  return h('time', { datetime: at }, shown);
}

function replyButtons(message: ChatMessage, buttons: { id: string; title: string; quickReply: boolean }[], onReply: OnReply): HTMLElement {
  return h(
    'div',
    { class: 'actions' },
    ...buttons.map((button) =>
      h(
        'button',
        { type: 'button', class: 'secondary small', onclick: () => onReply({ id: button.id, title: button.title, quickReply: button.quickReply }, message.id) },
        button.title,
      ),
    ),
  );
}

function body(message: ChatMessage, content: MessageContent, onReply: OnReply, onDocument: OnDocument, documentHref: string): Child[] {
  switch (content.kind) {
    case 'text':
      return [h('p', { class: 'words' }, content.text)];
    case 'buttons':
      return [
        h('p', { class: 'words' }, content.text),
        replyButtons(
          message,
          content.buttons.map((b) => ({ ...b, quickReply: false })),
          onReply,
        ),
      ];
    case 'template':
      return [
        h('p', { class: 'template' }, say('template', { name: content.name })),
        h('p', { class: 'words' }, content.parameters.join('\n')),
        content.quickReplies.length > 0 &&
          replyButtons(
            message,
            content.quickReplies.map((payload, i) => ({ id: payload, title: say('quickReply', { number: i + 1 }), quickReply: true })),
            onReply,
          ),
      ];
    case 'document':
      return [
        h(
          'p',
          { class: 'document' },
          h(
            'a',
            { href: documentHref, target: '_blank', rel: 'noopener', onclick: (event: Event) => onDocument(message, event) },
            say('openDocument', { filename: content.filename }),
          ),
        ),
        content.caption !== undefined && h('p', { class: 'words' }, content.caption),
      ];
    case 'button':
      return [h('p', { class: 'words' }, say('tapped', { title: content.title }))];
    case 'photo':
      return [h('p', { class: 'words' }, say(content.asDocument ? 'photoAsDocument' : 'photo', { filename: content.filename }))];
  }
}

/** One message of the chat: the service's on one side, the person's on the other, each said by whom for screen readers. */
export function messageView(message: ChatMessage, options: { onReply: OnReply; onDocument: OnDocument; documentHref: string }): HTMLLIElement {
  const out = message.direction === 'out';
  return h(
    'li',
    { class: out ? 'bubble out' : 'bubble in', 'data-id': message.id },
    h('span', { class: 'visually-hidden' }, say(out ? 'fromService' : 'fromPerson')),
    ...body(message, message.content, options.onReply, options.onDocument, options.documentHref),
    h('p', { class: 'meta' }, time(message.at)),
  );
}
