import { answerText } from '../../templates/answer-text.js';
import type { Question, TemplateBody } from '../../templates/schemas.js';
import { escapeHtml } from '../../text/escape-html.js';
import {
  attribute,
  type Element,
  HTML_NAMESPACE,
  HtmlSource,
  isElement,
  NO_MARKUP_CONTENT,
  type ParentNode,
  type SourceEdit,
  type SourceRange,
} from '../html-source.js';
import { isImageDataUri } from './template-answers.js';

/** Names filled when the process is sealed, never from answers. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['signDate', 'signComplete']);

/** The class of a signature placeholder, stamped when its signer signs. */
const SIGNATURE_PLACEHOLDER = 'sign-margin';

/** The markup an answer becomes, or undefined when it fills nothing. */
function renderAnswer(question: Question, value: string): string | undefined {
  if (question.type === 'signature') return undefined;
  if (question.type === 'image') {
    if (value === '') return '';
    return isImageDataUri(value) ? `<img src="${escapeHtml(value)}" class="object-contain">` : undefined;
  }
  return escapeHtml(answerText(question, value));
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

function isSignaturePlaceholder(element: Element): boolean {
  const classes = attribute(element, 'class');
  return classes?.split(/[ \t\n\f\r]+/).includes(SIGNATURE_PLACEHOLDER) === true;
}

/** Of edits that overlap, the one that starts first and reaches furthest: a nested name goes with its parent's content. */
function outermost(edits: readonly SourceEdit[]): SourceEdit[] {
  const ordered = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: SourceEdit[] = [];
  let coveredUntil = -1;
  for (const edit of ordered) {
    if (edit.start < coveredUntil) continue;
    kept.push(edit);
    coveredUntil = Math.max(coveredUntil, edit.end);
  }
  return kept;
}

/** An element that answers can change: named, not reserved, outside every signature placeholder. */
interface NamedElement {
  name: string;
  element: Element;
  /** The source of its content when a fill may replace it (see `contentRange`), else undefined. */
  content: SourceRange | undefined;
}

/** Where an element's content is written, unless that source is not exactly its children (then it is never filled). */
function contentRange(html: HtmlSource, element: Element): SourceRange | undefined {
  const location = element.sourceCodeLocation;
  const startTag = location?.startTag;
  if (!location || !startTag || NO_MARKUP_CONTENT.has(element.tagName)) return undefined;
  const selfClosing = html.text.slice(startTag.startOffset, startTag.endOffset).endsWith('/>');
  if (selfClosing && element.namespaceURI !== HTML_NAMESPACE) return undefined;
  const range = { start: startTag.endOffset, end: location.endTag?.startOffset ?? location.endOffset };
  if (range.end < range.start || !html.holdsExactly(range, element)) return undefined;
  return range;
}

/** The elements answers can change, in document order. */
function namedElements(html: HtmlSource, parent: ParentNode, inPlaceholder: boolean, out: NamedElement[] = []): NamedElement[] {
  for (const node of parent.childNodes) {
    if (!isElement(node)) continue;
    // A template's content is inert (it lives in `content`, not `childNodes`), as in a browser.
    const placeholder = inPlaceholder || isSignaturePlaceholder(node);
    const name = attribute(node, 'name');
    if (!placeholder && name !== undefined && !RESERVED_NAMES.has(name)) {
      out.push({ name, element: node, content: contentRange(html, node) });
    }
    namedElements(html, node, placeholder, out);
  }
  return out;
}

/**
 * A Complete HTML parsed for filling. Filling only reads the parse, so one parse serves every
 * process created from the same HTML (src/documents/creating/template-html.ts keeps it). Which
 * elements answers can change, and which of their contents may be replaced, depends on the HTML
 * alone, so it is found here once: a fill then edits those elements without walking the document.
 */
export class ParsedCompleteHtml {
  readonly source: HtmlSource;
  readonly named: readonly NamedElement[];
  /** What the parse holds in memory: about 20 bytes for each character of the text, measured on a 40 KB contract. */
  readonly memoryBytes: number;

  constructor(html: string) {
    // Template contents are not counted: a template named for an answer has its content replaced whole
    // even when the parser found it unclosed or misnested, as filling has always done.
    this.source = new HtmlSource(html, { countTemplateContents: false });
    this.named = namedElements(this.source, this.source.document, false);
    this.memoryBytes = 20 * html.length;
  }
}

/**
 * Fills a parsed document by editing its source text: only the contents of filled elements and the
 * start tags of toggled clausula elements change, every other byte of the document stays as it was.
 */
function fill(parsed: ParsedCompleteHtml, work: Plan): string {
  const edits: SourceEdit[] = [];
  for (const { name, element } of parsed.named) {
    const show = work.toggles.get(name);
    const toggle = show === undefined ? undefined : parsed.source.hiddenEdit(element, !show);
    if (toggle) edits.push(toggle);
  }
  // Fills are added after every toggle, so that of two edits of the same range the toggle is kept.
  for (const { name, content } of parsed.named) {
    const markup = work.fills.get(name);
    if (markup !== undefined && content) edits.push({ ...content, text: markup });
  }
  return parsed.source.edited(outermost(edits));
}

/** The Complete HTML with every answer in place, as docs/real-service.md §2.5 describes. */
export function fillTemplateHtml(options: { html: string | ParsedCompleteHtml; body: TemplateBody; answers: Record<string, string> }): string {
  const parsed = typeof options.html === 'string' ? new ParsedCompleteHtml(options.html) : options.html;
  return fill(parsed, plan(options.body, options.answers));
}
