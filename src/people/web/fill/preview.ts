import { answerText } from '../../../templates/answer-text.js';
import type { FillPreview, FillQuestion } from '../../contract.js';
import { h } from '../dom.js';

/** What the preview's own document may load, on top of the page's policy it inherits: nothing but data: images and fonts. */
const FRAME_POLICY = "default-src 'none'; img-src data:; font-src data:";

/** Elements a Mask HTML has no use for in a preview that runs nothing and loads nothing. */
const DROPPED = 'script, noscript, base, meta[http-equiv], iframe, frame, object, embed, link, form';

/** The mark the service gives an element whose inline style it took out (src/references/fill/preview-source.ts). */
const STYLED = 'data-preview-style';

/**
 * The Mask HTML as a document of its own: parsed inertly (DOMParser runs nothing), stripped of
 * what could run or load, with a policy of its own that allows nothing else. The service sends it
 * without the styles written in its markup (a browser reports a violation of the page's policy
 * for each one it parses, even inertly); the page applies them through the CSSOM.
 */
function frameDocument(html: string): string {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  for (const element of parsed.querySelectorAll(DROPPED)) element.remove();
  const policy = parsed.createElement('meta');
  policy.setAttribute('http-equiv', 'Content-Security-Policy');
  policy.setAttribute('content', FRAME_POLICY);
  parsed.head.prepend(policy);
  return `<!DOCTYPE html>${parsed.documentElement.outerHTML}`;
}

/**
 * Gives the frame's document the Mask HTML's styles through the CSSOM (element.style and
 * constructed style sheets), which the page's policy allows: no markup is parsed as style.
 */
function applyStyles(document: Document, source: FillPreview): void {
  // The frame's own realm: its elements are instances of its classes, and a sheet it adopts must be made by its constructor.
  const view = document.defaultView;
  if (!view) return;
  for (const element of document.querySelectorAll(`[${STYLED}]`)) {
    const text = source.inline[Number(element.getAttribute(STYLED))];
    element.removeAttribute(STYLED);
    if (text !== undefined && (element instanceof view.HTMLElement || element instanceof view.SVGElement)) element.style.cssText = text;
  }
  const sheets: CSSStyleSheet[] = [];
  for (const text of source.sheets) {
    const sheet = new view.CSSStyleSheet();
    try {
      sheet.replaceSync(text);
      sheets.push(sheet);
    } catch {
      // An unparsable sheet styles nothing; the preview shows the text without it.
    }
  }
  document.adoptedStyleSheets = sheets;
}

/**
 * The live preview of the template's Mask HTML (docs/real-service.md §2.5): each answer placed
 * into the elements named as its question, a clausula's option elements `{q}_{value}` shown for
 * the option chosen and hidden for the others. The frame is sandboxed without scripts; it keeps
 * `allow-same-origin` only so the page can write the answers into it as they change, since no
 * script of its own can run to do anything with that origin.
 */
export class MaskPreview {
  readonly element: HTMLIFrameElement;
  private readonly originals = new Map<Element, Node[]>();
  private pending: { answers: ReadonlyMap<string, string>; questions: readonly FillQuestion[] } | undefined;
  private loaded = false;

  constructor(source: FillPreview & { html: string }, title: string) {
    this.element = h('iframe', { class: 'mask-preview', sandbox: 'allow-same-origin', title, referrerpolicy: 'no-referrer' });
    this.element.srcdoc = frameDocument(source.html);
    this.element.addEventListener('load', () => {
      this.loaded = true;
      if (this.element.contentDocument) applyStyles(this.element.contentDocument, source);
      if (this.pending) this.update(this.pending.answers, this.pending.questions);
    });
  }

  /** Writes the answers (of the questions asked, and the fixed values) into the preview. */
  update(answers: ReadonlyMap<string, string>, questions: readonly FillQuestion[]): void {
    this.pending = { answers, questions };
    const document = this.loaded ? this.element.contentDocument : null;
    if (!document) return;
    const byName = new Map(questions.map((question) => [question.name, question]));
    const clausulaOptions = new Map<string, boolean>();
    for (const question of questions) {
      if (question.type !== 'clausula') continue;
      const chosen = answers.get(question.name);
      for (const option of question.options ?? []) {
        const name = `${question.name}_${option.value}`;
        clausulaOptions.set(name, clausulaOptions.get(name) === true || option.value === chosen);
      }
    }
    for (const element of document.querySelectorAll('[name]')) {
      const name = element.getAttribute('name') ?? '';
      const shown = clausulaOptions.get(name);
      if (shown !== undefined) {
        if (shown) element.removeAttribute('hidden');
        else element.setAttribute('hidden', '');
        continue;
      }
      const value = answers.get(name);
      const question = byName.get(name);
      if (question?.type === 'signature') continue;
      if (value === undefined || value === '') {
        this.restore(element);
        continue;
      }
      this.keep(element);
      if (question?.type === 'image') {
        const image = document.createElement('img');
        image.src = value;
        image.className = 'object-contain';
        image.alt = '';
        element.replaceChildren(image);
      } else {
        element.textContent = question ? answerText(question, value) : value;
      }
    }
  }

  /** The element's own content, kept the first time an answer replaces it, to show again when the answer is cleared. */
  private keep(element: Element): void {
    if (!this.originals.has(element))
      this.originals.set(
        element,
        [...element.childNodes].map((node) => node.cloneNode(true)),
      );
  }

  private restore(element: Element): void {
    const original = this.originals.get(element);
    if (original) element.replaceChildren(...original.map((node) => node.cloneNode(true)));
  }
}
