import { decodePDFRawStream, PDFArray, type PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import type { TextRun } from '../../rendering/self-test.js';
import type { PageSize, PlacedBox } from './page-box.js';

/** The smallest box a tag gives, so a signature drawn in it stays legible however small the tag's text. */
export const TAG_BOX_MIN = { width: 150, height: 50 };

export const signatureTag = (index: number) => `{{signature:${index}}}`;

/**
 * The boxes of a tag: one wherever its text is, anchored at the text's baseline-left, as wide as the
 * text or TAG_BOX_MIN, moved back inside the page when it would overflow. The text is matched across
 * the runs of a page, as a generator may split it.
 */
export function findTagBoxes(pages: TextRun[][], sizes: PageSize[], tag: string): PlacedBox[] {
  const boxes: PlacedBox[] = [];
  pages.forEach((runs, p) => {
    const size = sizes[p];
    if (!size) return;
    const text = runs.map((run) => run.text).join('');
    const owners = runs.flatMap((run, r) => [...run.text].map((_, offset) => ({ r, offset })));
    for (let at = text.indexOf(tag); at !== -1; at = text.indexOf(tag, at + tag.length)) {
      const start = owners[at];
      const run = start && runs[start.r];
      if (!start || !run) continue;
      const [, , , , e = 0, f = 0] = run.transform;
      const perChar = run.text.length > 0 ? run.width / run.text.length : 0;
      const width = Math.max(TAG_BOX_MIN.width, perChar * tag.length);
      const height = Math.max(TAG_BOX_MIN.height, run.height);
      const left = Math.min(Math.max(0, e + perChar * start.offset), Math.max(0, size.width - width));
      const bottom = Math.min(Math.max(0, f), Math.max(0, size.height - height));
      boxes.push({ page: p + 1, left, bottom, width: Math.min(width, size.width), height: Math.min(height, size.height) });
    }
  });
  return boxes;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The tag as a content stream draws it with a simple font: in a literal string `(…)` or a hex
 * string `<…>` of its character codes, possibly cut by a TJ array's kerning (`(sig) -20 (nature)`):
 * each character, then what may separate it from the next. Every other group is a separator.
 */
function tagPatterns(tag: string): RegExp[] {
  const join = (parts: string[], separator: string, flags: string) => new RegExp(parts.map((part) => `(${part})`).join(`(${separator})?`), flags);
  const literal = join(
    [...tag].map((c) => escapeRegExp(c)),
    '\\)[\\s\\d.\\-]*\\(',
    'g',
  );
  const hex = join(
    [...tag].map((c) => (c.codePointAt(0) ?? 0).toString(16).padStart(2, '0').split('').join('\\s*')),
    '\\s*(?:>[\\s\\d.\\-]*<)?\\s*',
    'gi',
  );
  return [literal, hex];
}

/** Replaces each character of the tag with a space (`20` in a hex string), keeping the separators. */
function blankTag(content: string, options: { pattern: RegExp; tag: string; space: string }): { content: string; found: number } {
  const { pattern, tag, space } = options;
  let found = 0;
  const blanked = content.replace(pattern, (...args: unknown[]) => {
    found++;
    // The tag's characters and the separators between them, before replace's offset and whole string.
    const groups = args.slice(1, 2 * tag.length).filter((arg): arg is string | undefined => typeof arg === 'string' || arg === undefined);
    return groups.map((part, i) => (i % 2 === 0 ? space : (part ?? ''))).join('');
  });
  return { content: blanked, found };
}

function contentStreams(document: PDFDocument, pageIndex: number): PDFRef[] {
  const contents = document.getPage(pageIndex).node.get(PDFName.of('Contents'));
  if (contents instanceof PDFRef) return [contents];
  if (contents instanceof PDFArray) return contents.asArray().filter((item): item is PDFRef => item instanceof PDFRef);
  return [];
}

/**
 * Rewrites the string operands that draw the tags in the pages' content streams to spaces, so the
 * final file neither shows nor contains them. Answers how many occurrences it blanked per tag.
 */
export function removeTags(document: PDFDocument, tags: string[]): Map<string, number> {
  const removed = new Map(tags.map((tag) => [tag, 0]));
  for (const pageIndex of document.getPageIndices()) {
    for (const ref of contentStreams(document, pageIndex)) {
      const stream = document.context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) continue;
      const original = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
      let content = original;
      for (const tag of tags) {
        const [literal, hex] = tagPatterns(tag);
        for (const [pattern, space] of [
          [literal, ' '],
          [hex, '20'],
        ] as const) {
          if (!pattern) continue;
          const blanked = blankTag(content, { pattern, tag, space });
          content = blanked.content;
          removed.set(tag, (removed.get(tag) ?? 0) + blanked.found);
        }
      }
      if (content !== original) document.context.assign(ref, document.context.flateStream(Buffer.from(content, 'latin1')));
    }
  }
  return removed;
}
