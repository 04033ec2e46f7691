import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { Encodings, Font, FontNames } from '@pdf-lib/standard-fonts';
import { type PDFDocument, type PDFFont, type PDFRef, StandardFonts } from 'pdf-lib';

/** The styles the drawn certificate writes in. */
export type FaceStyle = 'regular' | 'bold' | 'italic' | 'mono';

/** A font registered in one document: what a text measures in it, and the operand that shows it. */
export interface TextFace {
  /** The font's name in a page's resources. */
  readonly resource: string;
  readonly ref: PDFRef;
  width(text: string, size: number): number;
  /** The text as a PDF string operand for `Tj`. */
  operand(text: string): string;
}

const STANDARD: Record<FaceStyle, { font: StandardFonts; metrics: FontNames }> = {
  regular: { font: StandardFonts.Helvetica, metrics: FontNames.Helvetica },
  bold: { font: StandardFonts.HelveticaBold, metrics: FontNames.HelveticaBold },
  italic: { font: StandardFonts.HelveticaOblique, metrics: FontNames.HelveticaOblique },
  mono: { font: StandardFonts.Courier, metrics: FontNames.Courier },
};

/** DejaVu, shipped by an npm package, writes what the standard fonts cannot (Ł, ő, Greek, Cyrillic, ...). */
const UNICODE_FILES: Record<FaceStyle, string> = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
  mono: 'DejaVuSansMono.ttf',
};

/** A standard font's WinAnsi code (two hex digits) and width, in thousandths of the size, by code point. */
type Metrics = ReadonlyMap<number, { code: string; width: number }>;

/**
 * Built once from the same tables pdf-lib uses. pdf-lib measures and encodes a text through several
 * layers (about 0.3 µs a character, and a certificate measures every word of every cell while it
 * wraps them); one map lookup a character gives the same answers.
 */
const metricsByStyle = new Map<FaceStyle, Metrics>();
function metrics(style: FaceStyle): Metrics {
  const known = metricsByStyle.get(style);
  if (known) return known;
  const font = Font.load(STANDARD[style].metrics);
  const table = new Map<number, { code: string; width: number }>();
  for (const codePoint of Encodings.WinAnsi.supportedCodePoints) {
    const { code, name } = Encodings.WinAnsi.encodeUnicodeCodePoint(codePoint);
    table.set(codePoint, { code: code.toString(16).padStart(2, '0'), width: font.getWidthOfGlyph(name) ?? 0 });
  }
  metricsByStyle.set(style, table);
  return table;
}

/** Whether the standard fonts can write every character of `text`. */
export function standardWritable(text: string): boolean {
  const table = metrics('regular');
  for (const char of text) if (!table.has(char.codePointAt(0) ?? 0)) return false;
  return true;
}

function standardFace(document: PDFDocument, style: FaceStyle): TextFace {
  const table = metrics(style);
  const font = document.embedStandardFont(STANDARD[style].font);
  return {
    resource: `Seal${style}`,
    ref: font.ref,
    width(text, size) {
      let width = 0;
      for (const char of text) width += table.get(char.codePointAt(0) ?? 0)?.width ?? 0;
      return (width * size) / 1000;
    },
    operand(text) {
      let hex = '';
      for (const char of text) hex += table.get(char.codePointAt(0) ?? 0)?.code ?? '3f';
      return `<${hex}>`;
    },
  };
}

function unicodeFace(font: PDFFont, style: FaceStyle): TextFace {
  return {
    resource: `SealUnicode${style}`,
    ref: font.ref,
    width: (text, size) => font.widthOfTextAtSize(text, size),
    operand: (text) => font.encodeText(text).toString(),
  };
}

const fontFolder = (() => {
  const packageJson = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json');
  return packageJson.slice(0, packageJson.lastIndexOf('/'));
})();
const unicodeBytes = new Map<FaceStyle, Promise<Buffer>>();
function unicodeFontBytes(style: FaceStyle): Promise<Buffer> {
  let bytes = unicodeBytes.get(style);
  if (!bytes) {
    bytes = readFile(`${fontFolder}/ttf/${UNICODE_FILES[style]}`);
    unicodeBytes.set(style, bytes);
    bytes.catch(() => unicodeBytes.delete(style));
  }
  return bytes;
}

const facesOfDocument = new WeakMap<PDFDocument, DocumentFaces>();

/**
 * The faces one document draws with. A text goes in the standard font of its style (Helvetica,
 * Courier: nothing embedded, nothing to subset) when it can write every character; otherwise in
 * DejaVu, embedded as a subset, so a name in any script the font covers is written as it was
 * given and stays searchable. DejaVu is read and embedded only for the styles such texts use.
 */
export class DocumentFaces {
  private readonly standard = new Map<FaceStyle, TextFace>();
  private readonly unicode = new Map<FaceStyle, TextFace>();

  private constructor(private readonly document: PDFDocument) {}

  /**
   * The faces of `document`, one set per document, with DejaVu embedded for the styles of the
   * `texts` the standard fonts cannot write.
   */
  static async for(document: PDFDocument, texts: Iterable<[FaceStyle, string]>): Promise<DocumentFaces> {
    let faces = facesOfDocument.get(document);
    if (!faces) {
      faces = new DocumentFaces(document);
      facesOfDocument.set(document, faces);
    }
    const styles = new Set<FaceStyle>();
    for (const [style, text] of texts) if (!faces.unicode.has(style) && !standardWritable(text)) styles.add(style);
    if (styles.size > 0) document.registerFontkit(fontkit);
    for (const style of styles) {
      const font = await document.embedFont(await unicodeFontBytes(style), { subset: true });
      faces.unicode.set(style, unicodeFace(font, style));
    }
    return faces;
  }

  /** The face that writes `text` in `style`. */
  face(style: FaceStyle, text: string): TextFace {
    const unicode = this.unicode.get(style);
    if (unicode && !standardWritable(text)) return unicode;
    let face = this.standard.get(style);
    if (!face) {
      face = standardFace(this.document, style);
      this.standard.set(style, face);
    }
    return face;
  }
}
