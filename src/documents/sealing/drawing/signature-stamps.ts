import type { PDFDocument, PDFPage } from 'pdf-lib';
import { type Gray, PageCanvas } from './page-canvas.js';
import { type SignatureImage, signatureImageRef } from './signature-image.js';
import { DocumentFaces, type FaceStyle, type TextFace } from './text-faces.js';
import { textLines } from './text-lines.js';

/** A place on a page, in points from the bottom-left corner of its MediaBox; `page` counts from 1. */
export interface StampBox {
  page: number;
  left: number;
  bottom: number;
  width: number;
  height: number;
}

/**
 * What goes in one box: the participant's mark (their signature image, or a text: their name when
 * they sent no image, the approval word of an approver) and, in small text under it, the lines
 * that say who, when and where to check it.
 */
export interface SignatureStamp {
  box: StampBox;
  mark: { image: SignatureImage } | { text: string; style: FaceStyle };
  /** An approval stamp is framed, as a rubber stamp is. */
  framed: boolean;
  lines: [FaceStyle, string][];
}

const PAD = 2;
const LEADING = 1.2;
/** The small text's sizes tried, largest first: the first whose lines fit in the lower half of the box. */
const TEXT_SIZES = [6, 5.5, 5, 4.5, 4, 3.5, 3];
const INK: Gray = 0.13;
const FRAME: Gray = 0.35;
/** Of a text's size, how far its capitals rise above the baseline (Helvetica's cap height is 0.72). */
const CAP_HEIGHT = 0.72;

interface Inner {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The lines as written at the largest size that fits `room`, as many as fit at the smallest otherwise. */
function smallText(lines: [FaceStyle, string][], faces: DocumentFaces, width: number, room: number): { size: number; rows: [TextFace, string][] } {
  const layout = (size: number) =>
    lines.flatMap(([style, text]) => {
      const face = faces.face(style, text);
      return textLines(text, face, size, width).map((line): [TextFace, string] => [face, line]);
    });
  for (const size of TEXT_SIZES) {
    const rows = layout(size);
    if (rows.length * size * LEADING <= room) return { size, rows };
  }
  const size = TEXT_SIZES.at(-1) ?? 3;
  return { size, rows: layout(size).slice(0, Math.floor(room / (size * LEADING))) };
}

/** Draws stamps on the pages of one document. */
class StampDrawer {
  constructor(
    private readonly document: PDFDocument,
    private readonly faces: DocumentFaces,
  ) {}

  /** The mark centred in `area`, as large as it fits keeping its proportions. */
  private mark(canvas: PageCanvas, mark: SignatureStamp['mark'], area: Inner): void {
    if (area.height <= 0) return;
    if ('image' in mark) {
      const { image } = mark;
      const scale = Math.min(area.width / image.width, area.height / image.height);
      const width = image.width * scale;
      const height = image.height * scale;
      canvas.inkImage(
        'SealSignature',
        signatureImageRef(this.document, image),
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
      );
      return;
    }
    const face = this.faces.face(mark.style, mark.text);
    const unit = face.width(mark.text, 1);
    const size = Math.min(area.height / CAP_HEIGHT, unit > 0 ? area.width / unit : area.height, 18);
    const x = area.x + (area.width - face.width(mark.text, size)) / 2;
    canvas.text(face, size, x, area.y + (area.height - size * CAP_HEIGHT) / 2, mark.text, INK);
  }

  draw(canvas: PageCanvas, page: PDFPage, stamp: SignatureStamp): void {
    const media = page.getMediaBox();
    const { box } = stamp;
    const inner: Inner = {
      x: media.x + box.left + PAD,
      y: media.y + box.bottom + PAD,
      width: box.width - 2 * PAD,
      height: box.height - 2 * PAD,
    };
    if (inner.width <= 0 || inner.height <= 0) return;
    if (stamp.framed) canvas.frame(media.x + box.left + 0.5, media.y + box.bottom + 0.5, box.width - 1, box.height - 1, 0.75, FRAME);
    const text = smallText(stamp.lines, this.faces, inner.width, inner.height / 2);
    const textHeight = text.rows.length * text.size * LEADING;
    text.rows.forEach(([face, line], row) => {
      const top = inner.y + textHeight - row * text.size * LEADING;
      const x = inner.x + (inner.width - face.width(line, text.size)) / 2;
      canvas.text(face, text.size, x, top - text.size * 0.9, line, INK);
    });
    const gap = textHeight > 0 ? 1 : 0;
    this.mark(canvas, stamp.mark, { ...inner, y: inner.y + textHeight + gap, height: inner.height - textHeight - gap });
  }
}

/** Every text a stamp writes, with its style, to choose the document's fonts before drawing. */
function* stampTexts(stamps: SignatureStamp[]): Generator<[FaceStyle, string]> {
  for (const stamp of stamps) {
    if ('text' in stamp.mark) yield [stamp.mark.style, stamp.mark.text];
    yield* stamp.lines;
  }
}

/**
 * Draws each stamp into the content of its page, over what the page shows: one content stream
 * added per page that has stamps. A stamp on a page the document lacks is not drawn (placement
 * refuses such boxes when the process is created).
 */
export async function drawSignatureStamps(document: PDFDocument, stamps: SignatureStamp[]): Promise<void> {
  if (stamps.length === 0) return;
  const drawer = new StampDrawer(document, await DocumentFaces.for(document, stampTexts(stamps)));
  const pages = document.getPages();
  const byPage = new Map<number, SignatureStamp[]>();
  for (const stamp of stamps) byPage.set(stamp.box.page, [...(byPage.get(stamp.box.page) ?? []), stamp]);
  for (const [number, onPage] of byPage) {
    const page = pages[number - 1];
    if (!page) continue;
    const canvas = new PageCanvas(page);
    for (const stamp of onPage) drawer.draw(canvas, page, stamp);
    canvas.finish();
  }
}
