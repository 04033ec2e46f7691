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

/**
 * Elements that cannot take a stamp or the date: beyond the shared ones, `textarea` and `title` read
 * their content as text (a stamp would show as its markup), and a template's content is never shown.
 */
const NO_STAMP_CONTENT: ReadonlySet<string> = new Set([...NO_MARKUP_CONTENT, 'textarea', 'title', 'template']);

/** One participant's stamp and the signer type whose placeholder should receive it. */
export interface Stamp {
  signerType: string | null;
  markup: string;
}

/** Where new markup can go inside an element: between its start and end tags as written in the source. */
function contentRange(element: Element): SourceRange | undefined {
  if (element.namespaceURI !== HTML_NAMESPACE || NO_STAMP_CONTENT.has(element.tagName)) return undefined;
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

/**
 * A signer's placeholders (docs/real-service.md §2.5): the element with `id="<type>"`, or, only when no element
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
 * placeholder. Every other byte of the document stays as it was.
 */
export function sealTemplateHtml(options: {
  html: string;
  signDate: string;
  stamps: Stamp[];
  /** Builds the block of the stamps without a placeholder; called only when there are some. */
  unplaced: (stamps: string[]) => string;
}): string {
  // Template contents are counted, so that a date never replaces a range that cuts through a template.
  const html = new HtmlSource(options.html, { countTemplateContents: true });
  const targets = findTargets(html.document, { firstById: new Map(), byName: new Map(), signDates: [], signCompletes: [] });
  // The edits never overlap (replaced contents are not searched), as HtmlSource.edited needs.
  const edits: SourceEdit[] = [];

  for (const element of targets.signDates) {
    const range = contentRange(element);
    if (range && html.holdsExactly(range, element)) edits.push({ ...range, text: escapeHtml(options.signDate) });
  }
  for (const element of targets.signCompletes) {
    // Only shown: one written without `hidden` stays as it is.
    const show = attribute(element, 'hidden') === undefined ? undefined : html.hiddenEdit(element, false);
    if (show) edits.push(show);
  }

  const placed = new Map<Element, string[]>();
  const unplaced: string[] = [];
  for (const stamp of options.stamps) {
    const placeholders = stamp.signerType === null ? [] : placeholdersOf(targets, stamp.signerType);
    if (placeholders.length === 0) unplaced.push(stamp.markup);
    for (const element of placeholders) placed.set(element, [...(placed.get(element) ?? []), stamp.markup]);
  }
  for (const [element, markups] of placed) {
    const range = contentRange(element);
    if (range) edits.push({ start: range.end, end: range.end, text: markups.join('') });
  }

  const tail = unplaced.length > 0 ? options.unplaced(unplaced) : '';
  const bodyEnd = targets.body?.sourceCodeLocation?.endTag?.startOffset;
  // Without a written </body>, markup after everything else still ends up at the end of the body.
  const at = bodyEnd ?? html.text.length;
  edits.push({ start: at, end: at, text: tail });
  return html.edited(edits);
}
