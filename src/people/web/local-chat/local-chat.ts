import { LANGUAGES } from '../../../organizations/languages.js';
import { LANGUAGE_NAMES } from '../../words.js';
import { h, show } from '../dom.js';
import {
  type Answer,
  base64Of,
  type Chat,
  type Conversations,
  chat,
  conversations,
  documentPath,
  documentUrl,
  holdsKey,
  type Refusal,
  RefusedError,
  send,
  useKey,
} from './api.js';
import { messageView } from './message-view.js';
import { currentLanguage, isLanguage, say, setLanguage } from './words.js';

/** How often the page asks for new messages: about the pace at which a person reads a chat. */
const POLL_MS = 1500;

const REFUSAL_WORDS = { key: 'keyRefused', 'public-key': 'publicKeyRefused', number: 'numberRefused', file: 'fileInvalid', failed: 'failed' } as const;

/**
 * The local WhatsApp chat: the list of conversations, or one conversation with what the person
 * answers. It asks again every POLL_MS; only what changed is drawn, so focus and the screen
 * reader's place are kept, and the chat's log announces each new message once.
 */
class LocalChat {
  private view: { kind: 'list' } | { kind: 'chat'; phone: string } = { kind: 'list' };
  /** What is drawn: the list's data as JSON, and the ids of the chat's messages drawn. */
  private listShown = '';
  private readonly drawn = new Set<string>();
  private log: HTMLOListElement | undefined;
  private readonly status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  private readonly content = h('div');
  private askingKey = false;

  constructor(private readonly root: HTMLElement) {}

  start(): void {
    this.draw();
    void this.refresh();
    setInterval(() => void this.refresh(), POLL_MS);
  }

  /** The page around the view: title, words of introduction, language. */
  private draw(): void {
    const select = h('select', { id: 'language' }, ...LANGUAGES.map((language) => h('option', { value: language, lang: language }, LANGUAGE_NAMES[language])));
    select.value = currentLanguage();
    select.addEventListener('change', () => {
      if (!isLanguage(select.value)) return;
      setLanguage(select.value);
      // Everything is drawn again in the new words: the list, or the chat's frame and every message.
      this.listShown = '';
      this.log = undefined;
      this.drawn.clear();
      this.draw();
      // The picker drawn again keeps the focus its reader left on it.
      this.root.querySelector<HTMLElement>('#language')?.focus();
      void this.refresh();
    });
    show(
      this.root,
      h('header', { class: 'language' }, h('label', { for: 'language' }, say('language')), select),
      h('h1', {}, say('title')),
      h('p', { class: 'hint' }, say('intro')),
      this.status,
      this.content,
    );
  }

  private async refresh(): Promise<void> {
    if (this.askingKey) return;
    try {
      if (this.view.kind === 'list') this.drawList(await conversations());
      else this.drawChat(await chat(this.view.phone));
    } catch (error) {
      this.refused(error);
    }
  }

  private refused(error: unknown): void {
    const refusal: Refusal = error instanceof RefusedError ? error.refusal : 'failed';
    if (refusal === 'key' || refusal === 'public-key') {
      this.askKey(holdsKey() ? say(REFUSAL_WORDS[refusal]) : undefined);
      return;
    }
    this.status.textContent = say(REFUSAL_WORDS[refusal]);
  }

  /** Away from the service's machine: the organization's private key, typed in and kept in memory. */
  private askKey(problem: string | undefined): void {
    this.askingKey = true;
    const input = h('input', { id: 'key', type: 'password', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'key-hint' });
    const form = h(
      'form',
      { class: 'key' },
      h('label', { for: 'key' }, say('keyLabel')),
      h('p', { id: 'key-hint', class: 'hint' }, say('keyHint')),
      problem !== undefined && h('p', { class: 'error', role: 'alert' }, problem),
      input,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, say('keyOpen'))),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      useKey(input.value);
      this.askingKey = false;
      this.listShown = '';
      void this.refresh();
    });
    show(this.content, form);
    input.focus();
  }

  private drawList(data: Conversations): void {
    const json = JSON.stringify(data);
    if (json === this.listShown) return;
    const hadFocus = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.phone : undefined;
    this.listShown = json;
    const items = data.conversations.map((conversation) => {
      const when = new Date(conversation.lastAt).toLocaleString(currentLanguage(), { dateStyle: 'short', timeStyle: 'short' });
      return h(
        'li',
        {},
        h(
          'button',
          { type: 'button', class: 'conversation', 'data-phone': conversation.phone, onclick: () => this.open(conversation.phone) },
          h('span', { class: 'name' }, conversation.name ?? `+${conversation.phone}`),
          h('span', { class: 'detail' }, `+${conversation.phone} · ${say('lastMessage', { time: when })}`),
        ),
      );
    });
    show(
      this.content,
      h('h2', { id: 'list-heading', tabindex: '-1' }, say('conversations')),
      h('p', { class: 'hint' }, say(data.everyOrganization ? 'everyOrganization' : 'oneOrganization')),
      items.length > 0 ? h('ul', { class: 'conversations', 'aria-labelledby': 'list-heading' }, ...items) : h('p', {}, say('noConversations')),
    );
    if (hadFocus !== undefined) this.content.querySelector<HTMLElement>(`[data-phone="${hadFocus}"]`)?.focus();
  }

  private open(phone: string): void {
    this.view = { kind: 'chat', phone };
    this.drawn.clear();
    this.log = undefined;
    this.status.textContent = '';
    void this.refresh();
  }

  private back(): void {
    this.view = { kind: 'list' };
    this.listShown = '';
    this.log = undefined;
    this.status.textContent = '';
    void this.refresh().then(() => this.content.querySelector<HTMLElement>('#list-heading')?.focus());
  }

  private drawChat(data: Chat): void {
    if (!this.log) this.drawChatFrame(data);
    const log = this.log;
    if (!log) return;
    for (const message of data.messages) {
      if (this.drawn.has(message.id)) continue;
      this.drawn.add(message.id);
      log.append(
        messageView(message, {
          documentHref: documentPath(data.phone, message.id),
          onReply: (reply, contextId) => void this.answer({ reply, contextId }),
          onDocument: (shown, event) => {
            // A plain link opens it at the service's machine; with a key, the key must go with the request.
            if (!holdsKey()) return;
            event.preventDefault();
            documentUrl(data.phone, shown.id).then(
              (url) => window.open(url, '_blank', 'noopener'),
              () => {
                this.status.textContent = say('documentFailed');
              },
            );
          },
        }),
      );
      log.lastElementChild?.scrollIntoView({ block: 'end' });
    }
    const empty = this.content.querySelector<HTMLElement>('.empty');
    if (empty) empty.hidden = data.messages.length > 0;
  }

  private drawChatFrame(data: Chat): void {
    const phone = data.phone;
    const log = h('ol', { class: 'messages' });
    this.log = log;
    const text = h('input', { id: 'text', type: 'text', autocomplete: 'off', enterkeyhint: 'send' });
    const words = h(
      'form',
      { class: 'composer' },
      h('label', { for: 'text' }, say('messageLabel')),
      h('div', { class: 'row' }, text, h('button', { type: 'submit', class: 'primary' }, say('send'))),
    );
    words.addEventListener('submit', (event) => {
      event.preventDefault();
      const typed = text.value.trim();
      if (typed === '') return;
      void this.answer({ text: typed }).then((sent) => {
        if (sent) text.value = '';
      });
    });
    const file = h('input', { id: 'photo', type: 'file', accept: 'image/jpeg,image/png' });
    const asDocument = h('input', { id: 'as-document', type: 'checkbox' });
    const photo = h(
      'form',
      { class: 'photo' },
      h('label', { for: 'photo' }, say('photoLabel')),
      file,
      h('div', { class: 'consent' }, asDocument, h('label', { for: 'as-document' }, say('asDocument'))),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'secondary' }, say('sendPhoto'))),
    );
    photo.addEventListener('submit', (event) => {
      event.preventDefault();
      const chosen = file.files?.[0];
      if (!chosen) {
        this.status.textContent = say('choosePhoto');
        return;
      }
      void base64Of(chosen).then((data) =>
        this.answer({ photo: { data, filename: chosen.name, asDocument: asDocument.checked } }).then((sent) => {
          if (sent) file.value = '';
        }),
      );
    });
    const title = say('chatWith', { name: data.name ?? `+${phone}` });
    show(
      this.content,
      h('button', { type: 'button', class: 'link', onclick: () => this.back() }, say('back')),
      h('h2', { id: 'chat-heading', tabindex: '-1' }, title),
      h('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-labelledby': 'chat-heading' }, log),
      h('p', { class: 'empty hint' }, say('noMessages')),
      words,
      photo,
    );
    this.content.querySelector<HTMLElement>('#chat-heading')?.focus();
  }

  /** Sends what the person answers, then asks at once for what the service says back. Answers whether it went. */
  private async answer(answer: Answer): Promise<boolean> {
    if (this.view.kind !== 'chat') return false;
    const buttons = [...this.content.querySelectorAll<HTMLButtonElement>('form button')];
    for (const button of buttons) button.disabled = true;
    try {
      await send(this.view.phone, answer);
      this.status.textContent = '';
      await this.refresh();
      return true;
    } catch (error) {
      this.refused(error);
      return false;
    } finally {
      for (const button of buttons) button.disabled = false;
    }
  }
}

const root = document.getElementById('local-chat');
if (root) {
  const language = document.documentElement.lang;
  if (isLanguage(language)) setLanguage(language);
  new LocalChat(root).start();
}
