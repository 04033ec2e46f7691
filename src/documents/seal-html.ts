import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import { escapeHtml } from './fill-template-html.js';

type ParentNode = DefaultTreeAdapterTypes.ParentNode;
type ChildNode = DefaultTreeAdapterTypes.ChildNode;
type Element = DefaultTreeAdapterTypes.Element;
type Template = DefaultTreeAdapterTypes.Template;

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';
const HTML_WHITESPACE = /[ \t\n\f\r]/;

/** Elements that cannot hold markup: no content at all, or content read as text. */
const NO_MARKUP_CONTENT = new Set([
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
  'textarea',
  'title',
  'template',
]);

/** One participant's stamp and the signer type whose placeholder should receive it. */
export interface Stamp {
  signerType: string | null;
  markup: string;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function isElement(node: ChildNode): node is Element {
  return 'tagName' in node;
}

function isTemplate(element: Element): element is Template {
  return element.tagName === 'template' && 'content' in element;
}

function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name && attr.prefix === undefined)?.value;
}

/** Every node of the tree, template contents included, since their source lies inside the template's. */
function allNodes(parent: ParentNode, out: ChildNode[] = []): ChildNode[] {
  for (const node of parent.childNodes) {
    out.push(node);
    if (isElement(node)) {
      allNodes(node, out);
      if (isTemplate(node)) allNodes(node.content, out);
    }
  }
  return out;
}

/** Where new markup can go inside an element: between its start and end tags as written in the source. */
function contentRange(element: Element): { start: number; end: number } | undefined {
  if (element.namespaceURI !== HTML_NAMESPACE || NO_MARKUP_CONTENT.has(element.tagName)) return undefined;
  const location = element.sourceCodeLocation;
  const startTag = location?.startTag;
  const endTag = location?.endTag;
  if (!startTag || !endTag || endTag.startOffset < startTag.endOffset) return undefined;
  return { start: startTag.endOffset, end: endTag.startOffset };
}

/** What the seal changes in a filled document, found in one walk of its tree. */
interface Targets {
  firstById: Map<string, Element>;
  byName: Map<string, Element[]>;
  signDates: Element[];
  signCompletes: Element[];
  body?: Element;
}

/** Template contents are inert and `signDate` contents are replaced whole, so neither is searched. */
function findTargets(parent: ParentNode, targets: Targets): Targets {
  for (const node of parent.childNodes) {
    if (!isElement(node)) continue;
    if (node.tagName === 'body' && targets.body === undefined) targets.body = node;
    const id = attribute(node, 'id');
    if (id !== undefined && !targets.firstById.has(id)) targets.firstById.set(id, node);
    const name = attribute(node, 'name');
    if (name !== undefined) targets.byName.set(name, [...(targets.byName.get(name) ?? []), node]);
    if (name === 'signDate') {
      targets.signDates.push(node);
      continue;
    }
    if (name === 'signComplete') targets.signCompletes.push(node);
    findTargets(node, targets);
  }
  return targets;
}

class SealEditor {
  private readonly edits: Edit[] = [];
  /** Start offsets of every located node, ascending. */
  private readonly starts: number[];

  constructor(
    private readonly source: string,
    document: ParentNode,
    private readonly duplicateAttributes: readonly number[],
  ) {
    this.starts = allNodes(document)
      .flatMap((node) => (node.sourceCodeLocation ? [node.sourceCodeLocation.startOffset] : []))
      .sort((a, b) => a - b);
  }

  insert(at: number, text: string): void {
    this.edits.push({ start: at, end: at, text });
  }

  /**
   * Replaces an element's content, unless misnested markup put other nodes' source between its tags
   * (or its children elsewhere): replacing that text would change more than the element.
   */
  replaceContent(element: Element, text: string): void {
    const range = contentRange(element);
    if (!range) return;
    const descendants = allNodes(element).flatMap((node) => (node.sourceCodeLocation ? [node.sourceCodeLocation.startOffset] : []));
    if (!descendants.every((offset) => offset >= range.start && offset < range.end)) return;
    const inside = this.starts.filter((offset) => offset >= range.start && offset < range.end).length;
    if (inside !== descendants.length) return;
    this.edits.push({ ...range, text });
  }

  /** Removes `hidden` from a start tag, touching nothing else of it. */
  show(element: Element): void {
    const location = element.sourceCodeLocation;
    const startTag = location?.startTag;
    if (!location || !startTag || attribute(element, 'hidden') === undefined) return;
    const duplicated = this.duplicateAttributes.some((offset) => offset >= startTag.startOffset && offset <= startTag.endOffset);
    if (duplicated) {
      // The parser kept the first of each repeated attribute: a later `hidden` would survive a plain removal.
      this.edits.push({ start: startTag.startOffset, end: startTag.endOffset, text: this.rebuildStartTag(element) });
      return;
    }
    const at = location.attrs?.['hidden'];
    if (!at) return;
    let start = at.startOffset;
    while (start > startTag.startOffset && HTML_WHITESPACE.test(this.source.charAt(start - 1))) start -= 1;
    this.edits.push({ start, end: at.endOffset, text: '' });
  }

  private rebuildStartTag(element: Element): string {
    const startTag = element.sourceCodeLocation?.startTag;
    const raw = startTag ? this.source.slice(startTag.startOffset, startTag.endOffset) : `<${element.tagName}>`;
    const tagName = raw.slice(1, 1 + element.tagName.length);
    const attrs = element.attrs
      .filter((attr) => !(attr.name === 'hidden' && attr.prefix === undefined))
      .map((attr) => ` ${attr.prefix ? `${attr.prefix}:` : ''}${attr.name}="${escapeHtml(attr.value)}"`);
    return `<${tagName}${attrs.join('')}${raw.endsWith('/>') ? ' /' : ''}>`;
  }

  /** The edits never overlap (replaced contents are not searched), so they apply from the end. */
  apply(): string {
    const ordered = [...this.edits].sort((a, b) => b.start - a.start || b.end - a.end);
    let output = this.source;
    for (const edit of ordered) output = output.slice(0, edit.start) + edit.text + output.slice(edit.end);
    return output;
  }
}

/**
 * A signer's placeholders (REFERENCE 2.5): the element with `id="<type>"`, or, only when no element
 * has that id, every element with `name="<type>"`. Placeholders that cannot hold markup are skipped.
 */
function placeholdersOf(targets: Targets, signerType: string): Element[] {
  const byId = targets.firstById.get(signerType);
  const candidates = byId ? [byId] : (targets.byName.get(signerType) ?? []);
  return candidates.filter((element) => attribute(element, 'name') !== 'signDate' && contentRange(element) !== undefined);
}

/**
 * The signed copy of a filled template document: `signDate` filled, `signComplete` shown, each
 * stamp in its signer's placeholders, and, at the end of the body, the stamps that have no
 * placeholder followed by `appendix`. Every other byte of the document stays as it was.
 */
export function sealTemplateHtml(options: {
  html: string;
  signDate: string;
  stamps: Stamp[];
  /** Builds the block of the stamps without a placeholder; called only when there are some. */
  unplaced: (stamps: string[]) => string;
  appendix: string;
}): string {
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
  const targets = findTargets(document, { firstById: new Map(), byName: new Map(), signDates: [], signCompletes: [] });
  const editor = new SealEditor(source, document, duplicateAttributes);

  for (const element of targets.signDates) editor.replaceContent(element, escapeHtml(options.signDate));
  for (const element of targets.signCompletes) editor.show(element);

  const placed = new Map<Element, string[]>();
  const unplaced: string[] = [];
  for (const stamp of options.stamps) {
    const placeholders = stamp.signerType === null ? [] : placeholdersOf(targets, stamp.signerType);
    if (placeholders.length === 0) unplaced.push(stamp.markup);
    for (const element of placeholders) placed.set(element, [...(placed.get(element) ?? []), stamp.markup]);
  }
  for (const [element, markups] of placed) {
    const range = contentRange(element);
    if (range) editor.insert(range.end, markups.join(''));
  }

  const tail = (unplaced.length > 0 ? options.unplaced(unplaced) : '') + options.appendix;
  const bodyEnd = targets.body?.sourceCodeLocation?.endTag?.startOffset;
  // Without a written </body>, markup after everything else still ends up at the end of the body.
  editor.insert(bodyEnd ?? source.length, tail);
  return bom + editor.apply();
}
