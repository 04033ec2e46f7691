import { type Color, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { CertificateBlock } from './seal-evidence.js';

/** A4 in points, with 2 cm margins. */
const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 56.7;
const TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const LABEL_WIDTH = 150;
const FOOTER_SIZE = 8;

const BODY_SIZE = 9;
const INK = rgb(0.13, 0.13, 0.13);
const MUTED = rgb(0.4, 0.4, 0.4);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  /** What the standard fonts can encode (WinAnsi), as code points. */
  encodable: ReadonlySet<number>;
}

/** Combining marks (U+0300 to U+036F) left by decomposing a letter the font cannot encode whole. */
const COMBINING_MARK = /[\u0300-\u036f]/g;

/**
 * The standard fonts only encode WinAnsi: a character outside it becomes its base letter when it
 * has one (`ő` → `o`), `?` otherwise, because pdf-lib refuses to draw text it cannot encode.
 */
function encodable(text: string, fonts: Fonts): string {
  let out = '';
  for (const character of text.normalize('NFC')) {
    const code = character.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f) out += ' ';
    else if (fonts.encodable.has(code)) out += character;
    else {
      const base = [...character.normalize('NFD').replace(COMBINING_MARK, '')].filter((c) => fonts.encodable.has(c.codePointAt(0) ?? 0));
      out += base.length > 0 ? base.join('') : '?';
    }
  }
  return out;
}

/** Lines no wider than `width`; a word wider than a line (a hash) is cut where it overflows. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= width;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    for (const character of word) {
      if (line !== '' && !fits(line + character)) {
        lines.push(line);
        line = '';
      }
      line += character;
    }
  }
  lines.push(line);
  return lines;
}

/** Draws the certificate downwards, starting a new page whenever the current one is full. */
class CertificateWriter {
  readonly pages: PDFPage[] = [];
  private page: PDFPage | undefined;
  private y = 0;
  private readonly pageFonts = new Map<PDFPage, PDFFont>();

  constructor(
    private readonly document: PDFDocument,
    private readonly fonts: Fonts,
  ) {}

  /** Makes room for `height` points on the current page, on a new one when there is not enough. */
  private room(height: number): PDFPage {
    if (this.page === undefined || this.y - height < MARGIN + FOOTER_SIZE * 2) {
      this.page = this.document.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
      this.pages.push(this.page);
      this.y = PAGE_HEIGHT - MARGIN;
    }
    return this.page;
  }

  /**
   * pdf-lib adds a font resource every time a font is passed to drawText, so the font is set on
   * the page only when it changes.
   */
  private draw(page: PDFPage, text: string, style: { x: number; y: number; size: number; font: PDFFont; color?: Color }): void {
    if (this.pageFonts.get(page) !== style.font) {
      page.setFont(style.font);
      this.pageFonts.set(page, style.font);
    }
    page.drawText(text, { x: style.x, y: style.y, size: style.size, color: style.color ?? INK });
  }

  gap(points: number): void {
    this.y -= points;
  }

  /** Lines of one style; `keepWith` extra lines of room keep a heading with what follows it. */
  text(text: string, style: { bold?: boolean; size?: number; x?: number; width?: number; keepWith?: number }): void {
    const font = style.bold === true ? this.fonts.bold : this.fonts.regular;
    const size = style.size ?? BODY_SIZE;
    const lineHeight = size * 1.35;
    const x = style.x ?? 0;
    const lines = text.split('\n').flatMap((part) => wrap(encodable(part, this.fonts), font, size, style.width ?? TEXT_WIDTH - x));
    lines.forEach((line, index) => {
      const page = this.room(lineHeight * (index === 0 ? 1 + (style.keepWith ?? 0) : 1));
      this.y -= lineHeight;
      this.draw(page, line, { x: MARGIN + x, y: this.y + (lineHeight - size), size, font });
    });
  }

  /** Label and value side by side, line by line, so a long value may continue on the next page. */
  field(label: string, value: string): void {
    const lineHeight = BODY_SIZE * 1.35;
    const labels = wrap(encodable(label, this.fonts), this.fonts.bold, BODY_SIZE, LABEL_WIDTH - 8);
    const values = value.split('\n').flatMap((part) => wrap(encodable(part, this.fonts), this.fonts.regular, BODY_SIZE, TEXT_WIDTH - LABEL_WIDTH));
    for (let index = 0; index < Math.max(labels.length, values.length); index++) {
      const page = this.room(lineHeight);
      this.y -= lineHeight;
      const baseline = this.y + (lineHeight - BODY_SIZE);
      const labelLine = labels[index];
      const valueLine = values[index];
      if (labelLine) this.draw(page, labelLine, { x: MARGIN, y: baseline, size: BODY_SIZE, font: this.fonts.bold });
      if (valueLine) this.draw(page, valueLine, { x: MARGIN + LABEL_WIDTH, y: baseline, size: BODY_SIZE, font: this.fonts.regular });
    }
  }

  rule(): void {
    const page = this.room(4);
    this.y -= 3;
    page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: PAGE_WIDTH - MARGIN, y: this.y }, thickness: 0.5, color: MUTED });
    this.y -= 3;
  }

  block(block: CertificateBlock): void {
    switch (block.kind) {
      case 'title':
        this.text(block.text, { bold: true, size: 16 });
        this.gap(6);
        return;
      case 'paragraph':
        this.text(block.text, {});
        this.gap(6);
        return;
      case 'heading':
        this.gap(10);
        this.text(block.text, { bold: true, size: 12, keepWith: 3 });
        this.rule();
        return;
      case 'subheading':
        this.gap(6);
        this.text(block.text, { bold: true, size: 10, keepWith: 2 });
        return;
      case 'fields':
        for (const [label, value] of block.fields) this.field(label, value);
        return;
      case 'table':
        // A row reads as its first two cells in bold, then the others as `Column: value`.
        for (const row of block.rows) {
          this.text(row.slice(0, 2).join('   '), { bold: true, keepWith: 1 });
          const rest = row.flatMap((value, index) => (index < 2 || value === '' ? [] : [`${block.columns[index] ?? ''}: ${value}`]));
          if (rest.length > 0) this.text(rest.join('  ·  '), { x: 12 });
          this.gap(4);
        }
        return;
    }
  }

  footers(text: string): void {
    this.pages.forEach((page, index) => {
      const footer = encodable(`${text} · page ${index + 1} of ${this.pages.length}`, this.fonts);
      const width = this.fonts.regular.widthOfTextAtSize(footer, FOOTER_SIZE);
      this.draw(page, footer, { x: (PAGE_WIDTH - width) / 2, y: MARGIN / 2, size: FOOTER_SIZE, font: this.fonts.regular, color: MUTED });
    });
  }
}

/**
 * The original PDF followed by the certificate pages, titled with the document's name and with the
 * process code as subject; the original pages are not touched. The output depends only on the
 * inputs (no clock), so repeated runs write the same bytes. Answers undefined when pdf-lib cannot
 * open the PDF (encrypted or damaged) or finds no page in it.
 */
export async function appendCertificatePages(
  original: Buffer,
  options: { title: string; subject: string; modifiedAt: Date; footer: string; blocks: CertificateBlock[] },
): Promise<Buffer | undefined> {
  let document: PDFDocument;
  try {
    // updateMetadata: false keeps pdf-lib from stamping its producer and the current time.
    document = await PDFDocument.load(original, { updateMetadata: false });
    // Pages pdf-lib could not find would be missing from the result: keep such a file as it is.
    // A file without a page tree at all makes the count itself throw.
    if (document.getPageCount() === 0) return undefined;
  } catch {
    return undefined;
  }
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const writer = new CertificateWriter(document, { regular, bold, encodable: new Set(regular.getCharacterSet()) });
  for (const block of options.blocks) writer.block(block);
  writer.footers(options.footer);
  document.setTitle(options.title);
  document.setSubject(options.subject);
  document.setModificationDate(options.modifiedAt);
  // Form fields keep their own appearances: regenerating them would change the original pages.
  return Buffer.from(await document.save({ useObjectStreams: false, updateFieldAppearances: false }));
}
