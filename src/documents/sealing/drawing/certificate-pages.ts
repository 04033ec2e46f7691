import type { PDFDocument, PDFPage } from 'pdf-lib';
import type { CertificateBlock } from '../seal-evidence.js';
import { type Gray, PageCanvas } from './page-canvas.js';
import { type SignatureImage, signatureImageRef } from './signature-image.js';
import { DocumentFaces, type FaceStyle, type TextFace } from './text-faces.js';
import { lineWidth, textLines, widestWord } from './text-lines.js';

const A4: [number, number] = [595.28, 841.89];
/** The renderer's margins (15 mm, and 22 mm at the bottom, kept free for the seal's mark), in points. */
const MARGIN = { top: 42.52, side: 42.52, bottom: 62.36 };
const WIDTH = A4[0] - 2 * MARGIN.side;
const LEADING = 1.35;
const INK: Gray = 0.13;
const MUTED: Gray = 0.33;
const BORDER: Gray = 0.73;
const RULE: Gray = 0.6;
const SHADE: Gray = 0.95;
const CELL = { size: 6.75, hashSize: 6.5, padX: 3.75, padY: 2.25 };
/** The most a column's minimum takes of the width: a hash (64 digits) on one line, a long word cut beyond 30 %. */
const COLUMN = { breakableMin: WIDTH * 0.55, widestMin: WIDTH * 0.3 };
const SIGNATURE_BOX = { width: 165, height: 42 };

/** A cell's text, laid out: its lines and the face and size they are written in. */
interface CellLines {
  lines: string[];
  face: TextFace;
  size: number;
}

/** Pages added to a document one after the other, and where the next thing goes on the last one. */
class Flow {
  readonly pages: PDFPage[] = [];
  private canvasOfPage?: PageCanvas;
  /** The top of the space left on the current page. */
  y = 0;

  constructor(private readonly document: PDFDocument) {
    this.newPage();
  }

  get canvas(): PageCanvas {
    if (!this.canvasOfPage) throw new Error('no page');
    return this.canvasOfPage;
  }

  get space(): number {
    return this.y - MARGIN.bottom;
  }

  get atTop(): boolean {
    return this.y === A4[1] - MARGIN.top;
  }

  newPage(): void {
    this.canvasOfPage?.finish();
    const page = this.document.addPage(A4);
    this.pages.push(page);
    this.canvasOfPage = new PageCanvas(page);
    this.y = A4[1] - MARGIN.top;
  }

  /** A new page unless `height` fits in what is left of this one. */
  keep(height: number): void {
    if (height > this.space && !this.atTop) this.newPage();
  }

  finish(): void {
    this.canvasOfPage?.finish();
  }
}

/** Where a line's baseline sits in a line box of `size × LEADING` whose top is `top`. */
function baseline(top: number, size: number): number {
  return top - (size * (LEADING - 1)) / 2 - size * 0.78;
}

/** Draws the certificate's blocks; one instance per document. */
class CertificateDrawer {
  private readonly flow: Flow;
  constructor(
    private readonly document: PDFDocument,
    private readonly faces: DocumentFaces,
  ) {
    this.flow = new Flow(document);
  }

  get pages(): PDFPage[] {
    return this.flow.pages;
  }

  finish(): void {
    this.flow.finish();
  }

  /** Lines of text written across the width, breaking to a new page between lines. */
  private lines(text: string, style: FaceStyle, size: number, gray: Gray, spaceAfter: number): void {
    const face = this.faces.face(style, text);
    const height = size * LEADING;
    for (const line of textLines(text, face, size, WIDTH)) {
      this.flow.keep(height);
      this.flow.canvas.text(face, size, MARGIN.side, baseline(this.flow.y, size), line, gray);
      this.flow.y -= height;
    }
    this.flow.y -= spaceAfter;
  }

  /** A heading stays on the page of what follows it: it starts a new page unless a few lines fit under it. */
  private heading(text: string, size: number, spaceBefore: number, rule: boolean): void {
    if (!this.flow.atTop) this.flow.y -= spaceBefore;
    this.flow.keep(size * LEADING + 40);
    this.lines(text, 'bold', size, INK, rule ? 1.5 : 3);
    if (rule) {
      this.flow.canvas.line([MARGIN.side, this.flow.y], [MARGIN.side + WIDTH, this.flow.y], 0.75, RULE);
      this.flow.y -= 4.5;
    }
  }

  private cell(text: string, style: FaceStyle, width: number, anywhere: boolean): CellLines {
    const size = style === 'mono' ? CELL.hashSize : CELL.size;
    const face = this.faces.face(style, text);
    return { lines: textLines(text, face, size, width - 2 * CELL.padX, anywhere), face, size };
  }

  /**
   * One table row at the flow's position, `shaded` cells on grey. A row that does not fit goes to
   * the next page (after `onNewPage`, which repeats a table's header); one taller than a whole page
   * is split between pages line by line.
   */
  private row(cells: CellLines[], widths: number[], shaded: (index: number) => boolean, onNewPage: () => void = () => undefined): void {
    const leading = CELL.size * LEADING;
    const height = (rows: CellLines[]) => Math.max(...rows.map((cell) => cell.lines.length)) * leading + 2 * CELL.padY;
    if (height(cells) > this.flow.space && !this.flow.atTop) {
      this.flow.newPage();
      onNewPage();
    }
    let rest = cells;
    for (;;) {
      const fit = Math.max(1, Math.floor((this.flow.space - 2 * CELL.padY) / leading));
      const now = rest.map((cell) => ({ ...cell, lines: cell.lines.slice(0, fit) }));
      rest = rest.map((cell) => ({ ...cell, lines: cell.lines.slice(fit) }));
      this.drawRow(now, widths, height(now), shaded);
      if (rest.every((cell) => cell.lines.length === 0)) return;
      this.flow.newPage();
      onNewPage();
    }
  }

  private drawRow(cells: CellLines[], widths: number[], height: number, shaded: (index: number) => boolean): void {
    const { canvas } = this.flow;
    const top = this.flow.y;
    let x = MARGIN.side;
    cells.forEach((cell, index) => {
      const width = widths[index] ?? 0;
      if (shaded(index)) canvas.fill(x, top - height, width, height, SHADE);
      cell.lines.forEach((line, row) => {
        canvas.text(cell.face, cell.size, x + CELL.padX, baseline(top - CELL.padY - row * CELL.size * LEADING, CELL.size), line, INK);
      });
      canvas.line([x, top], [x, top - height], 0.75, BORDER);
      x += width;
    });
    canvas.line([x, top], [x, top - height], 0.75, BORDER);
    canvas.line([MARGIN.side, top], [x, top], 0.75, BORDER);
    canvas.line([MARGIN.side, top - height], [x, top - height], 0.75, BORDER);
    this.flow.y -= height;
  }

  private fields(fields: [string, string][]): void {
    const widths = [WIDTH * 0.3, WIDTH * 0.7];
    for (const [label, value] of fields) {
      this.row([this.cell(label, 'bold', widths[0] ?? 0, false), this.cell(value, 'regular', widths[1] ?? 0, false)], widths, (index) => index === 0);
    }
    this.flow.y -= 6;
  }

  /**
   * Column widths as a browser's automatic table layout gives them: each column at least as wide as
   * its widest word (a column that breaks anywhere, as its longest text), both capped, and the
   * rest of the width shared in proportion to how much more each column's longest text wants.
   */
  private columnWidths(columns: string[], rows: string[][], breakable: number[]): number[] {
    const pad = 2 * CELL.padX;
    const min: number[] = [];
    const max: number[] = [];
    columns.forEach((column, index) => {
      const texts = rows.map((row) => row[index] ?? '');
      const style: FaceStyle = breakable.includes(index) ? 'mono' : 'regular';
      const size = style === 'mono' ? CELL.hashSize : CELL.size;
      const headFace = this.faces.face('bold', column);
      let widest = widestWord(column, headFace, CELL.size);
      let longest = lineWidth(column, headFace, CELL.size);
      for (const text of texts) {
        const face = this.faces.face(style, text);
        widest = Math.max(widest, widestWord(text, face, size));
        longest = Math.max(longest, lineWidth(text, face, size));
      }
      min.push((breakable.includes(index) ? Math.min(longest, COLUMN.breakableMin) : Math.min(widest, COLUMN.widestMin)) + pad);
      max.push(Math.max(longest + pad, min[index] ?? 0));
    });
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    if (sum(max) <= WIDTH) return max.map((value) => (value * WIDTH) / sum(max));
    const extra = Math.max(0, WIDTH - sum(min));
    const wants = sum(max) - sum(min);
    const widths = min.map((value, index) => value + (wants === 0 ? 0 : (extra * ((max[index] ?? 0) - value)) / wants));
    // Minimums wider than the page together: every column shrinks alike, and words break inside.
    return sum(widths) > WIDTH ? widths.map((value) => (value * WIDTH) / sum(widths)) : widths;
  }

  private table(columns: string[], rows: string[][], breakable: number[]): void {
    const widths = this.columnWidths(columns, rows, breakable);
    const header = () =>
      this.row(
        columns.map((column, index) => this.cell(column, 'bold', widths[index] ?? 0, false)),
        widths,
        () => true,
      );
    this.flow.keep(4 * CELL.size * LEADING);
    header();
    for (const row of rows) {
      const cells = row.map((text, index) => {
        const anywhere = breakable.includes(index);
        return this.cell(text, anywhere ? 'mono' : 'regular', widths[index] ?? 0, anywhere);
      });
      this.row(cells, widths, () => false, header);
    }
    this.flow.y -= 6;
  }

  private signature(label: string, name: string, image: SignatureImage | undefined): void {
    const labelHeight = CELL.size * LEADING;
    const scale = image ? Math.min(1, SIGNATURE_BOX.width / image.width, SIGNATURE_BOX.height / image.height) : 1;
    const nameSize = 13.5;
    const markHeight = image ? image.height * scale : nameSize * 1.2;
    this.flow.keep(labelHeight + markHeight + 6);
    this.flow.canvas.text(this.faces.face('regular', label), CELL.size, MARGIN.side, baseline(this.flow.y, CELL.size), label, MUTED);
    this.flow.y -= labelHeight;
    if (image) {
      this.flow.canvas.image('SealSignature', signatureImageRef(this.document, image), MARGIN.side, this.flow.y - markHeight, image.width * scale, markHeight);
    } else {
      this.flow.canvas.text(this.faces.face('italic', name), nameSize, MARGIN.side, this.flow.y - nameSize, name, INK);
    }
    this.flow.y -= markHeight + 6;
  }

  draw(block: CertificateBlock): void {
    switch (block.kind) {
      case 'title':
        this.lines(block.text, 'bold', 13.5, INK, 6);
        break;
      case 'paragraph':
        this.lines(block.text, 'regular', 7.5, INK, 6);
        break;
      case 'heading':
        this.heading(block.text, 10.5, 12, true);
        break;
      case 'subheading':
        this.heading(block.text, 9, 7.5, false);
        break;
      case 'fields':
        this.fields(block.fields);
        break;
      case 'signature':
        this.signature(block.label, block.name, block.image);
        break;
      case 'table':
        this.table(block.columns, block.rows, block.breakable);
        break;
    }
  }
}

/** Every text of the blocks with the style it is written in, to choose the document's fonts before drawing. */
function* styledTexts(blocks: CertificateBlock[]): Generator<[FaceStyle, string]> {
  for (const block of blocks) {
    switch (block.kind) {
      case 'title':
      case 'heading':
      case 'subheading':
        yield ['bold', block.text];
        break;
      case 'paragraph':
        yield ['regular', block.text];
        break;
      case 'fields':
        for (const [label, value] of block.fields) yield* [['bold', label] as [FaceStyle, string], ['regular', value] as [FaceStyle, string]];
        break;
      case 'signature':
        yield ['regular', block.label];
        yield ['italic', block.name];
        break;
      case 'table':
        for (const column of block.columns) yield ['bold', column];
        for (const row of block.rows) {
          for (const [index, text] of row.entries()) yield [block.breakable.includes(index) ? 'mono' : 'regular', text];
        }
        break;
    }
  }
}

/**
 * The evidence certificate drawn on A4 pages added at the end of a document, with the renderer's
 * margins (the bottom one left to the seal's mark), in parts: what is known first, then what
 * follows it on the same pages. Drawn here rather than rendered by Chromium: a render of its text
 * took 47 – 56 ms, half of a seal.
 */
export class CertificatePages {
  private constructor(
    private readonly document: PDFDocument,
    private readonly drawer: CertificateDrawer,
  ) {}

  static async start(document: PDFDocument, blocks: CertificateBlock[]): Promise<CertificatePages> {
    const pages = new CertificatePages(document, new CertificateDrawer(document, await DocumentFaces.for(document, styledTexts(blocks))));
    for (const block of blocks) pages.drawer.draw(block);
    return pages;
  }

  /** Draws `blocks` after what is drawn. */
  async add(blocks: CertificateBlock[]): Promise<void> {
    await DocumentFaces.for(this.document, styledTexts(blocks));
    for (const block of blocks) this.drawer.draw(block);
  }

  /** Closes the last page; answers the pages added. */
  finish(): PDFPage[] {
    this.drawer.finish();
    return this.drawer.pages;
  }
}

/** The certificate's pages added at the end of `document` in one go. */
export async function addCertificatePages(document: PDFDocument, blocks: CertificateBlock[]): Promise<PDFPage[]> {
  return (await CertificatePages.start(document, blocks)).finish();
}
