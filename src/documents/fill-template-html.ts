import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import type { Question, TemplateBody } from '../templates/schemas.js';
import { isCalendarDate, isImageDataUri } from './template-answers.js';

type ParentNode = DefaultTreeAdapterTypes.ParentNode;
type ChildNode = DefaultTreeAdapterTypes.ChildNode;
type Element = DefaultTreeAdapterTypes.Element;

/** Names filled when the process is sealed, never from answers. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['signDate', 'signComplete']);

/** The class of a signature placeholder, stamped when its signer signs. */
const SIGNATURE_PLACEHOLDER = 'sign-margin';

/** Elements that have no content to replace. */
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Elements whose content is not markup (code, or text read raw), so an answer never goes inside them. */
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext']);

const MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?$/;
const NIT = /^\d{2,}$/;
const HTML_WHITESPACE = new Set([' ', '\t', '\n', '\f', '\r']);

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** es-CO digits: `.` between thousands and `,` before the decimals (`1234.5` → `1.234,5`). */
function formatNumber(value: string): { negative: boolean; digits: string } | undefined {
  const match = NUMBER.exec(value);
  if (!match) return undefined;
  const integer = (match[2] ?? '').replace(/^0+(?=\d)/, '');
  const groups: string[] = [];
  for (let end = integer.length; end > 0; end -= 3) groups.unshift(integer.slice(Math.max(0, end - 3), end));
  const decimals = match[3];
  return { negative: match[1] === '-', digits: groups.join('.') + (decimals === undefined ? '' : `,${decimals}`) };
}

function formatDate(value: string): string | undefined {
  if (!isCalendarDate(value)) return undefined;
  const [year, month, day] = value.split('-').map(Number);
  const monthName = MONTHS[(month ?? 0) - 1];
  return monthName === undefined ? undefined : `${day} de ${monthName} de ${year}`;
}

/** The text an answer reads as in the document, by the type of its question (REFERENCE 2.3). */
function renderText(question: Question, value: string): string {
  switch (question.type) {
    case 'name':
      return value.toUpperCase();
    case 'select':
    case 'searchlist':
    case 'clausula': {
      const option = (question.options ?? []).find((candidate) => candidate.value === value);
      return option ? (option.label ?? option.name) : value;
    }
    case 'check':
      return value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '')
        .join(', ');
    case 'number': {
      const number = formatNumber(value);
      return number ? `${number.negative ? '-' : ''}${number.digits}` : value;
    }
    case 'currency': {
      const number = formatNumber(value);
      return number ? `${number.negative ? '-' : ''}$${number.digits}` : value;
    }
    case 'date':
      return formatDate(value) ?? value;
    case 'nit':
      return NIT.test(value) ? `${value.slice(0, -1)}-${value.slice(-1)}` : value;
    default:
      return value;
  }
}

/** The markup an answer becomes, or undefined when it fills nothing. */
function renderAnswer(question: Question, value: string): string | undefined {
  if (question.type === 'signature') return undefined;
  if (question.type === 'image') {
    if (value === '') return '';
    return isImageDataUri(value) ? `<img src="${escapeHtml(value)}" class="object-contain">` : undefined;
  }
  return escapeHtml(renderText(question, value));
}

interface Plan {
  /** Element name → the markup that replaces its content. */
  fills: Map<string, string>;
  /** Element name → whether a clausula shows (true) or hides (false) it. */
  toggles: Map<string, boolean>;
}

function plan(body: TemplateBody, answers: Record<string, string>): Plan {
  const questions = new Map<string, Question>();
  for (const question of body.config) if (!questions.has(question.name)) questions.set(question.name, question);
  const preFilled = new Set((body.preFill ?? []).map((entry) => entry.name));
  const fills = new Map<string, string>();
  const toggles = new Map<string, boolean>();

  for (const [name, value] of Object.entries(answers)) {
    if (typeof value !== 'string' || RESERVED_NAMES.has(name)) continue;
    const question = questions.get(name);
    if (!question) {
      if (preFilled.has(name)) fills.set(name, escapeHtml(value));
      continue;
    }
    if (question.type === 'clausula') {
      for (const option of question.options ?? []) {
        const optionName = `${name}_${option.value}`;
        // Two clausulas could name the same element: shown by either wins.
        toggles.set(optionName, toggles.get(optionName) === true || option.value === value);
      }
    }
    const markup = renderAnswer(question, value);
    if (markup !== undefined) fills.set(name, markup);
  }
  return { fills, toggles };
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function isElement(node: ChildNode): node is Element {
  return 'tagName' in node;
}

function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name && !attr.prefix)?.value;
}

function isSignaturePlaceholder(element: Element): boolean {
  const classes = attribute(element, 'class');
  return classes !== undefined && classes.split(/[ \t\n\f\r]+/).includes(SIGNATURE_PLACEHOLDER);
}

/** Finds the first index of `sorted` whose value is at least `value`. */
function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] ?? Infinity) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

interface Candidate {
  element: Element;
  markup: string;
  /** Index of the element in `starts` order of visit, and one past its last located descendant. */
  first: number;
  last: number;
}

/**
 * Fills a parsed document by editing its source text: only the contents of filled elements and the
 * start tags of toggled clausula elements change, every other byte of the document stays as it was.
 */
class Filler {
  private readonly edits: Edit[] = [];
  private readonly candidates: Candidate[] = [];
  /** Start offsets of every located node, in tree order. */
  private readonly starts: number[] = [];
  /** The same offsets in increasing order, once the tree is visited. */
  private sortedStarts: number[] = [];

  constructor(
    private readonly source: string,
    private readonly work: Plan,
    private readonly duplicateAttributes: readonly number[],
  ) {}

  run(document: ParentNode): string {
    this.visit(document, false);
    this.sortedStarts = [...this.starts].sort((a, b) => a - b);
    for (const candidate of this.candidates) this.fill(candidate);
    return this.apply();
  }

  private visit(parent: ParentNode, inPlaceholder: boolean): void {
    for (const node of parent.childNodes) {
      const location = node.sourceCodeLocation;
      if (location) this.starts.push(location.startOffset);
      if (!isElement(node)) continue;
      // A template's content is inert (it lives in `content`, not `childNodes`), as in a browser.
      const placeholder = inPlaceholder || isSignaturePlaceholder(node);
      const name = attribute(node, 'name');
      let candidate: Candidate | undefined;
      if (!placeholder && name !== undefined && !RESERVED_NAMES.has(name)) {
        const show = this.work.toggles.get(name);
        if (show !== undefined) this.toggle(node, show);
        const markup = this.work.fills.get(name);
        if (markup !== undefined && location) {
          candidate = { element: node, markup, first: this.starts.length, last: this.starts.length };
          this.candidates.push(candidate);
        }
      }
      this.visit(node, placeholder);
      if (candidate) candidate.last = this.starts.length;
    }
  }

  /** Replaces the content of an element, unless the source of that content is not exactly its children. */
  private fill({ element, markup, first, last }: Candidate): void {
    const location = element.sourceCodeLocation;
    const startTag = location?.startTag;
    if (!location || !startTag) return;
    if (VOID_ELEMENTS.has(element.tagName) || RAW_TEXT_ELEMENTS.has(element.tagName)) return;
    const selfClosing = this.source.slice(startTag.startOffset, startTag.endOffset).endsWith('/>');
    if (selfClosing && element.namespaceURI !== 'http://www.w3.org/1999/xhtml') return;
    const start = startTag.endOffset;
    const end = location.endTag?.startOffset ?? location.endOffset;
    if (end < start) return;
    // Misnested markup can put other nodes' source inside this element's, or its children elsewhere:
    // replacing that text would change more than the element, so such an element is left alone.
    const descendants = this.starts.slice(first, last);
    if (!descendants.every((offset) => offset >= start && offset < end)) return;
    const inside = lowerBound(this.sortedStarts, end) - lowerBound(this.sortedStarts, start);
    if (inside !== descendants.length) return;
    this.edits.push({ start, end, text: markup });
  }

  /** Removes or adds `hidden` on a start tag, touching nothing else of it. */
  private toggle(element: Element, show: boolean): void {
    const location = element.sourceCodeLocation;
    const startTag = location?.startTag;
    if (!location || !startTag) return;
    const hidden = element.attrs.some((attr) => attr.name === 'hidden' && !attr.prefix);
    const duplicated = this.duplicateAttributes.some((offset) => offset >= startTag.startOffset && offset <= startTag.endOffset);
    if (duplicated) {
      // The parser kept the first of each repeated attribute: write the tag again as it was understood.
      this.edits.push({ start: startTag.startOffset, end: startTag.endOffset, text: this.rebuildStartTag(element, show) });
      return;
    }
    if (show && hidden) {
      const at = location.attrs?.['hidden'];
      if (!at) return;
      let start = at.startOffset;
      while (start > startTag.startOffset && HTML_WHITESPACE.has(this.source.charAt(start - 1))) start -= 1;
      this.edits.push({ start, end: at.endOffset, text: '' });
    } else if (!show && !hidden) {
      const attributeEnds = Object.values(location.attrs ?? {}).map((attr) => attr.endOffset);
      const at = Math.max(startTag.startOffset + 1 + element.tagName.length, ...attributeEnds);
      this.edits.push({ start: at, end: at, text: ' hidden' });
    }
  }

  private rebuildStartTag(element: Element, show: boolean): string {
    const startTag = element.sourceCodeLocation?.startTag;
    const raw = startTag ? this.source.slice(startTag.startOffset, startTag.endOffset) : '';
    const tagName = raw.slice(1, 1 + element.tagName.length);
    const attrs = element.attrs
      .filter((attr) => !(attr.name === 'hidden' && !attr.prefix))
      .map((attr) => ` ${attr.prefix ? `${attr.prefix}:` : ''}${attr.name}="${escapeHtml(attr.value)}"`);
    if (!show) attrs.push(' hidden');
    return `<${tagName}${attrs.join('')}${raw.endsWith('/>') ? ' /' : ''}>`;
  }

  /** Applies the edits from the end, dropping those inside a content that is replaced whole. */
  private apply(): string {
    const ordered = [...this.edits].sort((a, b) => a.start - b.start || b.end - a.end);
    const kept: Edit[] = [];
    let coveredUntil = -1;
    for (const edit of ordered) {
      if (edit.start < coveredUntil) continue;
      kept.push(edit);
      coveredUntil = Math.max(coveredUntil, edit.end);
    }
    let output = this.source;
    for (const edit of kept.reverse()) output = output.slice(0, edit.start) + edit.text + output.slice(edit.end);
    return output;
  }
}

/** The Complete HTML with every answer in place, as REFERENCE 2.5 describes. */
export function fillTemplateHtml(options: { html: string; body: TemplateBody; answers: Record<string, string> }): string {
  // A byte order mark belongs to the encoding, not the document: parsed without it, kept in the output.
  const bom = options.html.startsWith('\uFEFF') ? '\uFEFF' : '';
  const source = options.html.slice(bom.length);
  const duplicateAttributes: number[] = [];
  const document = parse(source, {
    sourceCodeLocationInfo: true,
    onParseError: (error) => {
      if (error.code === 'duplicate-attribute') duplicateAttributes.push(error.startOffset);
    },
  });
  return bom + new Filler(source, plan(options.body, options.answers), duplicateAttributes).run(document);
}
