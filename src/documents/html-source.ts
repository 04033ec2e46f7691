import { type DefaultTreeAdapterTypes, parse, type Token } from 'parse5';
import { escapeHtml } from '../text/escape-html.js';

/*
 * Changing an uploaded HTML document by editing its source text: parse5 only says where each node
 * is written, and the few ranges that must change are replaced in the original text. Changing the
 * parsed tree and serializing it again would rewrite the whole document the serializer's way
 * (quoting, character references, implied tags, misnested markup put right), so the filled or
 * signed copy would differ from what the organisation wrote in bytes nobody meant to change.
 */

export type ParentNode = DefaultTreeAdapterTypes.ParentNode;
type ChildNode = DefaultTreeAdapterTypes.ChildNode;
export type Element = DefaultTreeAdapterTypes.Element;
type Document = DefaultTreeAdapterTypes.Document;
type Template = DefaultTreeAdapterTypes.Template;

export const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/**
 * Elements whose content can never become markup: void ones have none, the others' is read raw
 * (code, or text). Each user adds the elements it also keeps out for reasons of its own.
 */
export const NO_MARKUP_CONTENT: ReadonlySet<string> = new Set([
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
  'script',
  'style',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
]);

/** A range of the source text, end excluded. */
export interface SourceRange {
  start: number;
  end: number;
}

/** Replaces a range of the source text (an insertion when the range is empty). */
export interface SourceEdit extends SourceRange {
  text: string;
}

const HTML_WHITESPACE = new Set([' ', '\t', '\n', '\f', '\r']);

export function isElement(node: ChildNode): node is Element {
  return 'tagName' in node;
}

/** An attribute written without a prefix: foreign content's `xlink:href` and the like are other attributes. */
export function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name && !attr.prefix)?.value;
}

function isTemplate(element: Element): element is Template {
  return element.tagName === 'template' && 'content' in element;
}

/** Where the nodes below `parent` start in the source, template contents (kept apart in `content`) included or not. */
function nodeStarts(parent: ParentNode, templateContents: boolean, out: number[] = []): number[] {
  for (const node of parent.childNodes) {
    if (node.sourceCodeLocation) out.push(node.sourceCodeLocation.startOffset);
    if (isElement(node)) nodeStarts(node, templateContents, out);
  }
  if (templateContents && 'tagName' in parent && isTemplate(parent)) nodeStarts(parent.content, templateContents, out);
  return out;
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

/** A document parsed with the position of every node, to be changed by editing its text. */
export class HtmlSource {
  /** The text the positions point into: the document without a leading byte order mark. */
  readonly text: string;
  readonly document: Document;
  /** A byte order mark belongs to the encoding, not the document: parsed without it, kept in the output. */
  private readonly bom: string;
  /** Where the parser met an attribute its start tag already had (and kept only the first). */
  private readonly duplicateAttributes: number[] = [];
  /** Start offsets of every located node, ascending. */
  private readonly starts: number[];

  /**
   * `countTemplateContents`: whether `holdsExactly` counts the nodes of template contents. Their
   * source lies between the template's tags, except where misnested or unclosed markup puts it
   * elsewhere; only then do the two rules differ, counting them refusing a range that cuts a template.
   */
  constructor(
    html: string,
    private readonly options: { countTemplateContents: boolean },
  ) {
    this.bom = html.startsWith('\uFEFF') ? '\uFEFF' : '';
    this.text = html.slice(this.bom.length);
    this.document = parse(this.text, {
      sourceCodeLocationInfo: true,
      onParseError: (error) => {
        if (error.code === 'duplicate-attribute') this.duplicateAttributes.push(error.startOffset);
      },
    });
    this.starts = nodeStarts(this.document, options.countTemplateContents).sort((a, b) => a - b);
  }

  /**
   * Whether `range` holds the source of the element's descendants and nothing else. Misnested
   * markup can put other nodes' source between an element's tags, or its children elsewhere:
   * replacing that text would change more than the element.
   */
  holdsExactly(range: SourceRange, element: Element): boolean {
    const descendants = nodeStarts(element, this.options.countTemplateContents);
    if (!descendants.every((offset) => offset >= range.start && offset < range.end)) return false;
    return lowerBound(this.starts, range.end) - lowerBound(this.starts, range.start) === descendants.length;
  }

  /** The edit that adds or removes `hidden` on an element's start tag, touching nothing else of it; undefined when none is needed. */
  hiddenEdit(element: Element, hidden: boolean): SourceEdit | undefined {
    const location = element.sourceCodeLocation;
    const startTag = location?.startTag;
    if (!location || !startTag) return undefined;
    const present = attribute(element, 'hidden') !== undefined;
    if (this.duplicateAttributes.some((offset) => offset >= startTag.startOffset && offset <= startTag.endOffset)) {
      // The parser kept the first of each repeated attribute (a later `hidden` would survive a plain
      // removal): the tag is written again as it was understood.
      return { start: startTag.startOffset, end: startTag.endOffset, text: this.rebuildStartTag(element, startTag, hidden) };
    }
    if (!hidden && present) {
      const at = location.attrs?.hidden;
      if (!at) return undefined;
      let start = at.startOffset;
      while (start > startTag.startOffset && HTML_WHITESPACE.has(this.text.charAt(start - 1))) start -= 1;
      return { start, end: at.endOffset, text: '' };
    }
    if (hidden && !present) {
      const attributeEnds = Object.values(location.attrs ?? {}).map((attr) => attr.endOffset);
      const at = Math.max(startTag.startOffset + 1 + element.tagName.length, ...attributeEnds);
      return { start: at, end: at, text: ' hidden' };
    }
    return undefined;
  }

  private rebuildStartTag(element: Element, startTag: Token.Location, hidden: boolean): string {
    const raw = this.text.slice(startTag.startOffset, startTag.endOffset);
    const tagName = raw.slice(1, 1 + element.tagName.length);
    const attrs = element.attrs
      .filter((attr) => !(attr.name === 'hidden' && !attr.prefix))
      .map((attr) => ` ${attr.prefix ? `${attr.prefix}:` : ''}${attr.name}="${escapeHtml(attr.value)}"`);
    if (hidden) attrs.push(' hidden');
    return `<${tagName}${attrs.join('')}${raw.endsWith('/>') ? ' /' : ''}>`;
  }

  /**
   * The whole document with the edits made. They must not overlap. Each edit is placed as if they
   * applied from the end (of two at the same place, the later given comes first), but the output is
   * joined once from the untouched stretches and the edits' texts: splicing the string once per
   * edit copied the whole document for every edit (30 copies of 40 KB for a contract's answers).
   */
  edited(edits: readonly SourceEdit[]): string {
    const fromTheStart = [...edits].sort((a, b) => b.start - a.start || b.end - a.end).reverse();
    const parts = [this.bom];
    let copied = 0;
    for (const edit of fromTheStart) {
      parts.push(this.text.slice(copied, edit.start), edit.text);
      copied = edit.end;
    }
    parts.push(this.text.slice(copied));
    return parts.join('');
  }
}
