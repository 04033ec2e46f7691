import type { FillQuestion } from '../../contract.js';
import { alertLine, h, show, statusLine } from '../dom.js';
import { MaskPreview } from '../fill/preview.js';
import {
  createTemplate,
  publishReference,
  type ReferenceLink,
  referenceQr,
  references,
  switchReference,
  type TemplateDetail,
  templateDetail,
  templatePreview,
  type UploadUrls,
  uploadFile,
  uploadUrls,
} from './admin-api.js';
import { sayAdmin } from './admin-words.js';
import { templates } from './api.js';
import { DropZone } from './drop-zone.js';
import { refusalTo, type ViewOptions } from './view-refusal.js';

/** Both HTML files, sent to the upload URLs a creation or an update answered; a file not chosen is kept. */
async function uploadBoth(urls: UploadUrls['urls'], mask: DropZone, complete: DropZone): Promise<void> {
  if (mask.file) await uploadFile(urls.mask, mask.file);
  if (complete.file) await uploadFile(urls.complete, complete.file);
}

/**
 * The organization's templates: the list, a new one (its definition as the API takes it, and its
 * Mask and Complete dropped or chosen), and each one's questionnaire with the Mask's live preview,
 * its files replaced, and its reference links. A role that may not change them (`writes`: a viewer)
 * reads the same pages without their forms and switches.
 */
export class TemplatesView {
  private readonly alert = alertLine();
  private readonly status = statusLine();

  constructor(private readonly options: ViewOptions & { writes(): boolean }) {}

  async draw(container: HTMLElement): Promise<void> {
    this.alert.say('');
    let found: { id: string; name: string }[] = [];
    try {
      found = await templates();
    } catch (error) {
      return this.options.refused(error);
    }
    const list =
      found.length === 0
        ? h('p', { class: 'hint' }, sayAdmin('noTemplates'))
        : h(
            'ul',
            { class: 'processes', 'aria-labelledby': 'templates-heading' },
            ...found.map((t) =>
              h(
                'li',
                {},
                h('button', { type: 'button', class: 'process', onclick: () => void this.open(container, t.id) }, h('span', { class: 'name' }, t.name)),
              ),
            ),
          );
    show(
      container,
      h('h1', { id: 'templates-heading', tabindex: '-1' }, sayAdmin('templates')),
      this.alert.element,
      this.status.element,
      list,
      this.options.writes() ? this.newTemplate(container) : null,
    );
  }

  private newTemplate(container: HTMLElement): HTMLElement {
    const name = h('input', { id: 'template-name', type: 'text', required: true, autocomplete: 'off' });
    const definition = h('textarea', { id: 'template-definition', rows: 6, 'aria-describedby': 'definition-hint', spellcheck: 'false' });
    const json = new DropZone({
      id: 'template-json',
      label: sayAdmin('definition'),
      accept: 'application/json,.json',
      changed: (file) => void file.text().then((text) => (definition.value = text)),
    });
    const mask = new DropZone({ id: 'new-mask', label: sayAdmin('mask'), accept: 'text/html,.html,.htm' });
    const complete = new DropZone({ id: 'new-complete', label: sayAdmin('complete'), accept: 'text/html,.html,.htm' });
    const form = h(
      'form',
      { class: 'admin-form', 'aria-labelledby': 'new-template-heading' },
      h('h2', { id: 'new-template-heading' }, sayAdmin('newTemplate')),
      h('label', { for: 'template-name' }, sayAdmin('templateName')),
      name,
      h('label', { for: 'template-definition' }, sayAdmin('definition')),
      h('p', { id: 'definition-hint', class: 'hint' }, sayAdmin('definitionHint')),
      definition,
      json.element,
      mask.element,
      complete.element,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, sayAdmin('create'))),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      let body: unknown;
      try {
        body = JSON.parse(definition.value || '{}');
      } catch {
        this.alert.say(sayAdmin('notJson'));
        return definition.focus();
      }
      const fields = typeof body === 'object' && body !== null ? body : {};
      try {
        const created = await createTemplate({ ...fields, ...(name.value.trim() === '' ? {} : { name: name.value.trim() }) });
        await uploadBoth(created.urls, mask, complete);
        await this.open(container, created.id, sayAdmin('created'));
      } catch (error) {
        refusalTo(this.alert, this.options, error);
      }
    });
    return form;
  }

  private async open(container: HTMLElement, id: string, notice = ''): Promise<void> {
    try {
      const [detail, preview, links] = await Promise.all([templateDetail(id), templatePreview(id), references(id)]);
      const mask = new DropZone({ id: 'replace-mask', label: sayAdmin('mask'), accept: 'text/html,.html,.htm' });
      const complete = new DropZone({ id: 'replace-complete', label: sayAdmin('complete'), accept: 'text/html,.html,.htm' });
      const replace = h(
        'form',
        { class: 'admin-form', 'aria-labelledby': 'replace-heading' },
        h('h2', { id: 'replace-heading' }, sayAdmin('replaceFiles')),
        mask.element,
        complete.element,
        h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'secondary' }, sayAdmin('upload'))),
      );
      replace.addEventListener('submit', async (event) => {
        event.preventDefault();
        try {
          await uploadBoth((await uploadUrls(id)).urls, mask, complete);
          await this.open(container, id, sayAdmin('uploaded'));
        } catch (error) {
          refusalTo(this.alert, this.options, error);
        }
      });
      show(
        container,
        h('button', { type: 'button', class: 'link', onclick: () => void this.draw(container) }, sayAdmin('backToTemplates')),
        h('h1', { id: 'template-heading', tabindex: '-1' }, detail.name),
        this.alert.element,
        this.status.element,
        h('h2', {}, sayAdmin('questionnaire')),
        questionnaire(
          detail,
          preview.html === null ? null : new MaskPreview({ ...preview, html: preview.html }, sayAdmin('previewFrame', { name: detail.name })),
        ),
        this.options.writes() ? replace : null,
        h('h2', { id: 'references-heading' }, sayAdmin('references')),
        this.referenceList(container, detail, links),
      );
      this.alert.say('');
      this.status.say(notice);
      container.querySelector<HTMLElement>('#template-heading')?.focus();
    } catch (error) {
      refusalTo(this.alert, this.options, error);
    }
  }

  private referenceList(container: HTMLElement, detail: TemplateDetail, links: ReferenceLink[]): HTMLElement {
    const name = h('input', { id: 'reference-name', type: 'text', autocomplete: 'off' });
    // Blank: the service's defaults (a few an hour, no total), so that a leaked link can send little.
    const count = (id: string) => h('input', { id, type: 'number', inputmode: 'numeric', min: 1, step: 1, autocomplete: 'off' });
    const hourlyCap = count('reference-hourly-cap');
    const maxUses = count('reference-max-uses');
    const publish = h(
      'form',
      { class: 'admin-form inline' },
      h('label', { for: 'reference-name' }, sayAdmin('referenceName')),
      name,
      h('label', { for: 'reference-hourly-cap' }, sayAdmin('referenceHourlyCap')),
      hourlyCap,
      h('label', { for: 'reference-max-uses' }, sayAdmin('referenceMaxUses')),
      maxUses,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, sayAdmin('publish'))),
    );
    const numberIn = (input: HTMLInputElement) => (input.value.trim() === '' ? undefined : Number(input.value));
    publish.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        const hourly = numberIn(hourlyCap);
        const total = numberIn(maxUses);
        await publishReference(detail.id, {
          name: name.value.trim(),
          ...(hourly === undefined ? {} : { hourlyCap: hourly }),
          ...(total === undefined ? {} : { maxUses: total }),
        });
        await this.open(container, detail.id, sayAdmin('published'));
      } catch (error) {
        refusalTo(this.alert, this.options, error);
      }
    });
    const items = links.map((link) => this.referenceItem(container, detail, link));
    return h(
      'div',
      {},
      links.length === 0
        ? h('p', { class: 'hint' }, sayAdmin('noReferences'))
        : h('ul', { class: 'references', 'aria-labelledby': 'references-heading' }, ...items),
      this.options.writes() ? publish : null,
    );
  }

  private referenceItem(container: HTMLElement, detail: TemplateDetail, link: ReferenceLink): HTMLElement {
    const label = link.name ?? link.id;
    const address = h('input', { id: `url-${link.id}`, type: 'text', readonly: true, value: link.url, class: 'url' });
    address.addEventListener('focus', () => address.select());
    const qr = h('img', { class: 'qr', alt: sayAdmin('qrOf', { name: label }), hidden: true });
    void referenceQr(link.id).then(
      (svg) => {
        qr.src = `data:image/svg+xml;base64,${btoa(svg)}`;
        qr.hidden = false;
      },
      () => undefined,
    );
    const copy = async () => {
      await navigator.clipboard?.writeText(link.url).catch(() => address.select());
      this.status.say(sayAdmin('copied'));
    };
    const toggle = async () => {
      try {
        await switchReference(link.id, !link.enabled);
        await this.open(container, detail.id);
      } catch (error) {
        refusalTo(this.alert, this.options, error);
      }
    };
    return h(
      'li',
      { class: 'reference' },
      h(
        'p',
        { class: 'name' },
        label,
        ' ',
        h('span', { class: `badge ${link.enabled ? 'finish' : 'reject'}` }, sayAdmin(link.enabled ? 'enabled' : 'disabled')),
      ),
      h(
        'p',
        { class: 'hint' },
        sayAdmin(link.maxUses === undefined ? 'referenceUses' : 'referenceUsesOf', {
          uses: link.uses,
          hourly: link.hourlyCap,
          ...(link.maxUses === undefined ? {} : { total: link.maxUses }),
        }),
      ),
      h('label', { for: `url-${link.id}` }, sayAdmin('linkAddress', { name: label })),
      address,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'secondary small', onclick: () => void copy() }, sayAdmin('copy')),
        this.options.writes()
          ? h('button', { type: 'button', class: 'secondary small', onclick: () => void toggle() }, sayAdmin(link.enabled ? 'switchOff' : 'switchOn'))
          : null,
      ),
      qr,
    );
  }
}

/** The template's questions as fields of sample answers, beside the Mask's live preview that shows them. */
function questionnaire(detail: TemplateDetail, preview: MaskPreview | null): HTMLElement {
  const questions: FillQuestion[] = detail.config.map((q) => ({
    name: q.name,
    type: q.type,
    description: q.description,
    required: detail.sign.includes(q.name),
    ...(q.options ? { options: q.options.map((o) => ({ value: o.value, label: o.label ?? o.name })) } : {}),
  }));
  const answers = new Map<string, string>();
  const fields = questions.map((question) => {
    const id = `sample-${question.name}`;
    const field = question.options
      ? h('select', { id }, h('option', { value: '' }, '—'), ...question.options.map((o) => h('option', { value: o.value }, o.label)))
      : h('input', { id, type: 'text', autocomplete: 'off' });
    field.addEventListener('input', () => {
      answers.set(question.name, field.value);
      preview?.update(answers, questions);
    });
    return h(
      'div',
      { class: 'question' },
      h('label', { for: id }, question.description, question.required ? ' *' : ''),
      h('p', { class: 'hint' }, h('code', {}, question.name), ` · ${question.type}`),
      field,
    );
  });
  return h(
    'div',
    { class: 'questionnaire' },
    h('div', { class: 'questions' }, h('p', { class: 'hint' }, sayAdmin('previewHint')), ...fields),
    preview ? preview.element : h('p', { class: 'hint' }, sayAdmin('noMask')),
  );
}
