import { LANGUAGES } from '../../../organizations/languages.js';
import { LANGUAGE_NAMES } from '../../words.js';
import { alertLine, h, show, statusLine } from '../dom.js';
import { type ApiKey, createKey, keys, revokeKey, type Settings, saveSettings, settings } from './admin-api.js';
import { sayAdmin } from './admin-words.js';
import { refusalTo, type ViewOptions } from './view-refusal.js';
import { when } from './words.js';

/** The organization's API keys (made, shown once, revoked) and its settings: an admin's page. */
export class KeysView {
  private readonly alert = alertLine();
  private readonly status = statusLine();

  constructor(private readonly options: ViewOptions) {}

  async draw(container: HTMLElement, shownOnce?: string): Promise<void> {
    let found: ApiKey[];
    let current: Settings;
    try {
      [found, current] = await Promise.all([keys(), settings()]);
    } catch (error) {
      return refusalTo(this.alert, this.options, error);
    }
    const redraw = (key?: string) => this.draw(container, key);
    show(
      container,
      h('h1', { id: 'keys-heading', tabindex: '-1' }, sayAdmin('keys')),
      this.alert.element,
      this.status.element,
      shownOnce ? newKey(shownOnce) : null,
      h('ul', { class: 'keys', 'aria-labelledby': 'keys-heading' }, ...found.map((key) => this.keyItem(key, redraw))),
      this.createForm(redraw),
      this.settingsForm(current),
    );
    if (shownOnce) container.querySelector<HTMLElement>('#new-key')?.focus();
  }

  private keyItem(key: ApiKey, redraw: () => Promise<void>): HTMLElement {
    const revoke = async () => {
      if (!window.confirm(sayAdmin('revokeConfirm', { hint: key.hint }))) return;
      try {
        await revokeKey(key.id);
        await redraw();
        this.status.say(sayAdmin('keyRevoked'));
      } catch (error) {
        refusalTo(this.alert, this.options, error);
      }
    };
    return h(
      'li',
      { class: 'key' },
      h('code', {}, key.hint),
      ` · ${sayAdmin(key.kind === 'private' ? 'kindprivate' : 'kindpublic')} · ${when(key.created_at)}`,
      key.revoked_at
        ? ` · ${sayAdmin('revokedOn', { date: when(key.revoked_at) })}`
        : h(
            'button',
            { type: 'button', class: 'secondary small', 'aria-label': `${sayAdmin('revoke')} ${key.hint}`, onclick: () => void revoke() },
            sayAdmin('revoke'),
          ),
    );
  }

  private createForm(redraw: (key: string) => Promise<void>): HTMLElement {
    const kind = h(
      'select',
      { id: 'key-kind' },
      h('option', { value: 'private' }, sayAdmin('kindprivate')),
      h('option', { value: 'public' }, sayAdmin('kindpublic')),
    );
    const form = h(
      'form',
      { class: 'admin-form inline' },
      h('label', { for: 'key-kind' }, sayAdmin('keyKind')),
      kind,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, sayAdmin('createKey'))),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        const created = await createKey(kind.value === 'public' ? 'public' : 'private');
        await redraw(created.key);
      } catch (error) {
        refusalTo(this.alert, this.options, error);
      }
    });
    return form;
  }

  private settingsForm(current: Settings): HTMLElement {
    const origins = h('textarea', { id: 'sdk-origins', rows: 3, spellcheck: 'false' });
    origins.value = current.sdkOrigins.join('\n');
    const language = h('select', { id: 'org-language' }, ...LANGUAGES.map((l) => h('option', { value: l, lang: l }, LANGUAGE_NAMES[l])));
    language.value = current.language;
    const zone = h('input', { id: 'time-zone', type: 'text', value: current.timeZone, autocomplete: 'off' });
    const retention = h('input', { id: 'photo-retention', type: 'number', min: 1, max: 3650, value: current.photoRetentionDays });
    const form = h(
      'form',
      { class: 'admin-form', 'aria-labelledby': 'settings-heading' },
      h('h2', { id: 'settings-heading' }, sayAdmin('settings')),
      h('label', { for: 'sdk-origins' }, sayAdmin('sdkOrigins')),
      origins,
      h('label', { for: 'org-language' }, sayAdmin('orgLanguage')),
      language,
      h('label', { for: 'time-zone' }, sayAdmin('timeZone')),
      zone,
      h('label', { for: 'photo-retention' }, sayAdmin('photoRetention')),
      retention,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, sayAdmin('save'))),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        await saveSettings({
          sdkOrigins: origins.value
            .split('\n')
            .map((line) => line.trim())
            .filter((line) => line !== ''),
          language: language.value,
          timeZone: zone.value.trim(),
          photoRetentionDays: Number(retention.value),
        });
        this.alert.say('');
        this.status.say(sayAdmin('saved'));
      } catch (error) {
        refusalTo(this.alert, this.options, error);
      }
    });
    return form;
  }
}

/** The key just made, this once: to copy now. */
function newKey(key: string): HTMLElement {
  const field = h('input', { id: 'new-key', type: 'text', readonly: true, value: key, class: 'url', 'aria-describedby': 'new-key-hint' });
  field.addEventListener('focus', () => field.select());
  return h('div', { class: 'new-key' }, h('label', { for: 'new-key', id: 'new-key-hint' }, sayAdmin('newKey')), field);
}
