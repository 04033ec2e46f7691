import type { TextFace } from './text-faces.js';

/**
 * `text` cut into lines no wider than `width`: between words, and inside a word only when the word
 * alone is wider than the line (as CSS `overflow-wrap: anywhere`), or anywhere when `anywhere` is
 * set (as `word-break: break-all`, for hashes). Line breaks in the text are kept; each word is
 * measured once.
 */
export function textLines(text: string, face: TextFace, size: number, lineWidth: number, anywhere = false): string[] {
  // Widths are sums of fractions: what fits exactly must not be pushed out by a rounding error.
  const width = lineWidth + 1e-6;
  const lines: string[] = [];
  const space = face.width(' ', size);
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = '';
    let used = 0;
    const push = () => {
      lines.push(line.trimEnd());
      line = '';
      used = 0;
    };
    for (const word of paragraph.split(/[ \t]+/).filter((part) => part !== '')) {
      const wordWidth = face.width(word, size);
      const gap = line === '' ? 0 : space;
      if (used + gap + wordWidth <= width) {
        line += (line === '' ? '' : ' ') + word;
        used += gap + wordWidth;
        continue;
      }
      if (!anywhere && wordWidth <= width) {
        push();
        line = word;
        used = wordWidth;
        continue;
      }
      // The word is split: what fits goes on this line (on a new one when it is not for breaking anywhere).
      if (!anywhere && line !== '') push();
      if (line !== '') {
        line += ' ';
        used += space;
      }
      for (const char of word) {
        const charWidth = face.width(char, size);
        if (used + charWidth > width && line.trim() !== '') push();
        line += char;
        used += charWidth;
      }
    }
    push();
  }
  return lines;
}

/** The widest word of `text`, the narrowest a column can be without cutting a word. */
export function widestWord(text: string, face: TextFace, size: number): number {
  let widest = 0;
  for (const word of text.split(/\s+/)) widest = Math.max(widest, face.width(word, size));
  return widest;
}

/** The width of `text` on one line (its longest line, when it has line breaks). */
export function lineWidth(text: string, face: TextFace, size: number): number {
  let widest = 0;
  for (const line of text.split(/\r\n|\r|\n/)) widest = Math.max(widest, face.width(line, size));
  return widest;
}
