import { h, show } from '../dom.js';
import { type ProcessFilters, type ProcessSummary, processes, type TemplateSummary } from './api.js';
import { statusWords } from './process-view.js';
import { say, when } from './words.js';

const STATUSES = ['CREATED', 'EDITING', 'FINISH', 'REJECTED', 'EXPIRED', 'CANCELLED'] as const;

/** A day chosen in a date field, as the instant it starts on this device; the day after for an end. */
function dayStart(value: string, daysLater = 0): string | undefined {
  if (value === '') return undefined;
  const day = new Date(`${value}T00:00:00`);
  if (Number.isNaN(day.getTime())) return undefined;
  day.setDate(day.getDate() + daysLater);
  return day.toISOString();
}

/**
 * The organization's processes: a search and filters above, the list below, newest first, one
 * page at a time. The filters stay as they were when the person comes back from a process.
 */
export class ProcessesView {
  private readonly fields = {
    q: h('input', { id: 'q', type: 'search', name: 'q', 'aria-describedby': 'q-hint', autocomplete: 'off' }),
    status: h('select', { id: 'status', name: 'status' }),
    template: h('select', { id: 'template', name: 'template' }),
    from: h('input', { id: 'from', type: 'date', name: 'from' }),
    to: h('input', { id: 'to', type: 'date', name: 'to' }),
  };
  private readonly list = h('ul', { class: 'processes', 'aria-labelledby': 'processes-heading' });
  private readonly count = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  private readonly more = h('button', { type: 'button', class: 'secondary', hidden: true }, '');
  private shown: ProcessSummary[] = [];
  private next: string | null = null;
  private templatesLoaded = false;

  constructor(
    private readonly options: {
      open(code: string): void;
      refused(error: unknown): void;
      templates(): Promise<TemplateSummary[]>;
    },
  ) {
    this.more.addEventListener('click', () => void this.load(false));
  }

  private filters(): ProcessFilters {
    const from = dayStart(this.fields.from.value);
    const to = dayStart(this.fields.to.value, 1);
    return {
      q: this.fields.q.value,
      status: this.fields.status.value,
      template: this.fields.template.value,
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
    };
  }

  private fillSelect(select: HTMLSelectElement, any: string, options: { value: string; label: string }[]): void {
    const chosen = select.value;
    select.replaceChildren(h('option', { value: '' }, any), ...options.map((o) => h('option', { value: o.value }, o.label)));
    select.value = options.some((o) => o.value === chosen) ? chosen : '';
  }

  /** Draws the view into `container`; `fresh` searches again, otherwise what was found is shown as it was. */
  async draw(container: HTMLElement, fresh: boolean): Promise<void> {
    this.fillSelect(
      this.fields.status,
      say('anyStatus'),
      STATUSES.map((status) => ({ value: status, label: statusWords(status) })),
    );
    const form = h(
      'form',
      { class: 'filters', role: 'search', 'aria-labelledby': 'processes-heading' },
      h('label', { for: 'q' }, say('search')),
      this.fields.q,
      h('p', { id: 'q-hint', class: 'hint' }, say('searchHint')),
      h(
        'div',
        { class: 'filter-row' },
        h('div', {}, h('label', { for: 'status' }, say('status')), this.fields.status),
        h('div', {}, h('label', { for: 'template' }, say('template')), this.fields.template),
        h('div', {}, h('label', { for: 'from' }, say('from')), this.fields.from),
        h('div', {}, h('label', { for: 'to' }, say('to')), this.fields.to),
      ),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, say('apply'))),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.load(true);
    });
    this.more.textContent = say('more');
    show(container, h('h1', { id: 'processes-heading', tabindex: '-1' }, say('processes')), form, this.count, this.list, this.more);
    if (!this.templatesLoaded) {
      this.templatesLoaded = true;
      try {
        const found = await this.options.templates();
        this.fillSelect(
          this.fields.template,
          say('anyTemplate'),
          found.map((t) => ({ value: t.id, label: t.name })),
        );
      } catch (error) {
        this.options.refused(error);
      }
    } else {
      this.fillSelect(
        this.fields.template,
        say('anyTemplate'),
        [...this.fields.template.options].slice(1).map((o) => ({ value: o.value, label: o.label })),
      );
    }
    if (fresh) await this.load(true);
    else this.drawList();
  }

  private async load(fresh: boolean): Promise<void> {
    try {
      const page = await processes(this.filters(), fresh ? null : this.next);
      this.shown = fresh ? page.data : [...this.shown, ...page.data];
      this.next = page.next;
      this.drawList();
    } catch (error) {
      this.options.refused(error);
    }
  }

  private drawList(): void {
    this.list.replaceChildren(
      ...this.shown.map((p) =>
        h(
          'li',
          {},
          h(
            'button',
            { type: 'button', class: 'process', onclick: () => this.options.open(p.code) },
            h('span', { class: 'name' }, p.name),
            h('span', { class: 'detail' }, `${p.code} · ${statusWords(p.status)} · ${say('created', { date: when(p.createdAt) })}`),
          ),
        ),
      ),
    );
    this.count.textContent = this.shown.length === 0 ? say('noneFound') : say('found', { count: this.shown.length });
    this.more.hidden = this.next === null;
  }
}
