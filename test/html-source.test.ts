import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HtmlSource, type SourceEdit } from '../src/documents/html-source.js';

/** What `edited` promises, written the slow way: the edits applied one by one from the end of the text. */
function splicedFromTheEnd(text: string, edits: readonly SourceEdit[]): string {
  const ordered = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let output = text;
  for (const edit of ordered) output = output.slice(0, edit.start) + edit.text + output.slice(edit.end);
  return output;
}

const source = (html: string) => new HtmlSource(html, { countTemplateContents: false });

describe('edits are made as if applied one by one from the end of the document', () => {
  it('of two insertions at the same place, the one given later comes first', () => {
    expect(
      source('<p>ab</p>').edited([
        { start: 4, end: 4, text: 'first' },
        { start: 4, end: 4, text: 'second' },
      ]),
    ).toBe('<p>asecondfirstb</p>');
  });

  it('an insertion where a replaced range starts goes before the replacement', () => {
    expect(
      source('<p>abc</p>').edited([
        { start: 3, end: 6, text: 'XYZ' },
        { start: 3, end: 3, text: '>' },
      ]),
    ).toBe('<p>>XYZ</p>');
  });

  it('a byte order mark stays in front, outside every offset', () => {
    expect(source('\uFEFF<p>ab</p>').edited([{ start: 3, end: 5, text: 'cd' }])).toBe('\uFEFF<p>cd</p>');
  });

  it('any edits that do not overlap give what splicing them in from the end gives', () => {
    const text = `${'a'.repeat(12)}<p>bcdefghij</p>${'k'.repeat(12)}`;
    const html = source(text);
    const edit = fc.record({ at: fc.nat({ max: text.length }), length: fc.nat({ max: 6 }), text: fc.string({ maxLength: 4 }) });
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 10 }), (drawn) => {
        // Kept only while each starts at or after the end of the one before it: no two overlap.
        const edits: SourceEdit[] = [];
        let free = 0;
        for (const { at, length, text: inserted } of [...drawn].sort((a, b) => a.at - b.at)) {
          if (at < free) continue;
          const end = Math.min(text.length, at + length);
          edits.push({ start: at, end, text: inserted });
          free = end;
        }
        const shuffled = [...edits].reverse();
        expect(html.edited(shuffled)).toBe(splicedFromTheEnd(text, shuffled));
      }),
    );
  });
});
