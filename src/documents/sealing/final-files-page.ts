import { type PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

/** The stand-alone certificate's last section: what each final file holds and its SHA-256. */
export interface FinalFilesTable {
  title: string;
  columns: [string, string, string, string];
  rows: [string, string, string, string][];
}

const A4: [number, number] = [595.28, 841.89];
/** The renderer's margins (15 mm, and 22 mm at the bottom for the seal's mark), in points. */
const MARGIN = { top: 42.5, side: 42.5, bottom: 62.4 };
const TEXT_SIZE = 8;
const HASH_SIZE = 7;
const LINE = 10;
/** Column widths in points: number, file, contents (wrapped), SHA-256 (64 hex digits in Courier). */
const WIDTHS = [22, 48, 160, 280];
const GREY = rgb(0.13, 0.13, 0.13);

/** `text` cut into lines no wider than `width` at `size`, breaking between words. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  return line === '' ? lines : [...lines, line];
}

/**
 * Draws the table on pages added at the end of `document`, in the fonts every PDF reader has. It
 * is drawn, not rendered, because it holds the hashes of files sealed in the same run: the rest of
 * the certificate is rendered once, beside the documents, before those hashes exist.
 */
export async function addFinalFilesPages(document: PDFDocument, table: FinalFilesTable): Promise<void> {
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const mono = await document.embedFont(StandardFonts.Courier);
  let page: PDFPage = document.addPage(A4);
  let y = A4[1] - MARGIN.top - 14;
  page.drawText(table.title, { x: MARGIN.side, y, size: 14, font: bold, color: GREY });
  y -= 22;
  const drawRow = (cells: string[], header: boolean) => {
    const columns = cells.map((cell, index) => {
      const hash = !header && index === 3;
      const font = header ? bold : hash ? mono : regular;
      const size = hash ? HASH_SIZE : TEXT_SIZE;
      return { lines: wrap(cell, font, size, (WIDTHS[index] ?? 0) - 4), font, size };
    });
    const height = Math.max(...columns.map((column) => column.lines.length)) * LINE;
    if (y - height < MARGIN.bottom) {
      page = document.addPage(A4);
      y = A4[1] - MARGIN.top;
    }
    let x = MARGIN.side;
    columns.forEach((column, index) => {
      column.lines.forEach((line, row) => {
        page.drawText(line, { x, y: y - (row + 1) * LINE + 2, size: column.size, font: column.font, color: GREY });
      });
      x += WIDTHS[index] ?? 0;
    });
    y -= height + 4;
    page.drawLine({ start: { x: MARGIN.side, y: y + 2 }, end: { x: x, y: y + 2 }, thickness: 0.5, color: rgb(0.73, 0.73, 0.73) });
  };
  drawRow(table.columns, true);
  for (const row of table.rows) drawRow(row, false);
}
