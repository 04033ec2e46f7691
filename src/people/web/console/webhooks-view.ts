import { alertLine, h, show, statusLine } from '../dom.js';
import { type Delivery, deliveries, resend, webhooks } from './admin-api.js';
import { sayAdmin } from './admin-words.js';
import { refusalTo, type ViewOptions } from './view-refusal.js';
import { when } from './words.js';

const STATUSES = ['failed', 'pending', 'delivered'] as const;

/** The organization's webhooks, and their deliveries newest first with every attempt; a delivered or failed one can be sent again. */
export class WebhooksView {
  private readonly alert = alertLine();
  private readonly status = statusLine();
  private readonly filter = h('select', { id: 'delivery-status' });
  private readonly list = h('ul', { class: 'deliveries', 'aria-labelledby': 'deliveries-heading' });

  constructor(private readonly options: ViewOptions) {
    this.filter.addEventListener('change', () => void this.load());
  }

  async draw(container: HTMLElement): Promise<void> {
    this.alert.say('');
    const chosen = this.filter.value;
    this.filter.replaceChildren(
      h('option', { value: '' }, sayAdmin('anyDelivery')),
      ...STATUSES.map((status) => h('option', { value: status }, sayAdmin(`status${status}`))),
    );
    this.filter.value = chosen;
    let hooks: Awaited<ReturnType<typeof webhooks>>;
    try {
      hooks = await webhooks();
    } catch (error) {
      return refusalTo(this.alert, this.options, error);
    }
    show(
      container,
      h('h1', { id: 'webhooks-heading', tabindex: '-1' }, sayAdmin('webhooks')),
      this.alert.element,
      hooks.length === 0
        ? h('p', { class: 'hint' }, sayAdmin('noWebhooks'))
        : h(
            'ul',
            { class: 'webhooks', 'aria-labelledby': 'webhooks-heading' },
            ...hooks.map((hook) =>
              h('li', {}, h('span', { class: 'name' }, hook.name), ` · ${sayAdmin(hook.enabled ? 'on' : 'off')} · `, h('code', {}, hook.url)),
            ),
          ),
      h('h2', { id: 'deliveries-heading' }, sayAdmin('deliveries')),
      h('div', { class: 'filter-one' }, h('label', { for: 'delivery-status' }, sayAdmin('deliveryStatus')), this.filter),
      this.status.element,
      this.list,
    );
    await this.load();
  }

  private async load(): Promise<void> {
    try {
      const page = await deliveries(this.filter.value);
      this.list.replaceChildren(...page.data.map((delivery) => this.item(delivery)));
      if (page.data.length === 0) this.list.replaceChildren(h('li', { class: 'hint' }, sayAdmin('noDeliveries')));
    } catch (error) {
      refusalTo(this.alert, this.options, error);
    }
  }

  private item(delivery: Delivery): HTMLElement {
    const attempts = delivery.attempts.map((attempt) =>
      h(
        'li',
        {},
        sayAdmin('attemptLine', {
          when: when(attempt.started_at),
          result: attempt.status_code === undefined ? (attempt.error ?? '—') : String(attempt.status_code),
          ms: attempt.duration_ms,
        }),
      ),
    );
    const again = async () => {
      try {
        await resend(delivery.id);
        this.status.say(sayAdmin('resent'));
        await this.load();
      } catch (error) {
        refusalTo(this.alert, this.options, error);
      }
    };
    return h(
      'li',
      { class: 'delivery' },
      h(
        'p',
        { class: 'name' },
        h('code', {}, delivery.event.type),
        ' ',
        h(
          'span',
          { class: `badge ${delivery.status === 'failed' ? 'reject' : delivery.status === 'delivered' ? 'finish' : ''}` },
          sayAdmin(`status${delivery.status}`),
        ),
      ),
      h('p', { class: 'hint' }, [delivery.webhook, when(delivery.created_at), delivery.message_id].filter((part) => part !== undefined).join(' · ')),
      h('details', {}, h('summary', {}, sayAdmin('attempts', { count: delivery.attempts.length })), h('ul', {}, ...attempts)),
      delivery.status === 'pending'
        ? null
        : h(
            'button',
            { type: 'button', class: 'secondary small', 'aria-label': `${sayAdmin('resend')} ${delivery.message_id}`, onclick: () => void again() },
            sayAdmin('resend'),
          ),
    );
  }
}
