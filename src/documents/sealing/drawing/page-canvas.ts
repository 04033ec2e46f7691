import { deflateSync } from 'node:zlib';
import { type PDFPage, PDFRawStream, type PDFRef } from 'pdf-lib';
import type { TextFace } from './text-faces.js';

/** A gray level, 0 black to 1 white: everything the certificate draws is gray. */
export type Gray = number;

function n(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/**
 * One page's drawing as PDF operators written out directly, each resource named once on the
 * page. pdf-lib's drawText adds a font entry to the page on every call and deflates with a
 * JavaScript zlib; a certificate draws hundreds of texts, so its pages are written here and
 * deflated by Node's zlib.
 */
export class PageCanvas {
  private readonly operators: string[] = [];
  /** Each font's and image's name in the page's resources, made unique there (a page read from a file has its own). */
  private readonly names = new Map<PDFRef, string>();
  private inkState?: string;

  constructor(readonly page: PDFPage) {}

  private fontName(face: TextFace): string {
    let name = this.names.get(face.ref);
    if (name === undefined) {
      name = this.page.node.newFontDictionary(face.resource, face.ref).asString();
      this.names.set(face.ref, name);
    }
    return name;
  }

  text(face: TextFace, size: number, x: number, y: number, text: string, gray: Gray): void {
    if (text === '') return;
    this.operators.push(`BT ${this.fontName(face)} ${n(size)} Tf ${n(gray)} g ${n(x)} ${n(y)} Td ${face.operand(text)} Tj ET`);
  }

  fill(x: number, y: number, width: number, height: number, gray: Gray): void {
    this.operators.push(`${n(gray)} g ${n(x)} ${n(y)} ${n(width)} ${n(height)} re f`);
  }

  frame(x: number, y: number, width: number, height: number, thickness: number, gray: Gray): void {
    this.operators.push(`${n(gray)} G ${n(thickness)} w ${n(x)} ${n(y)} ${n(width)} ${n(height)} re S`);
  }

  line(from: [number, number], to: [number, number], thickness: number, gray: Gray): void {
    this.operators.push(`${n(gray)} G ${n(thickness)} w ${n(from[0])} ${n(from[1])} m ${n(to[0])} ${n(to[1])} l S`);
  }

  private xObjectName(resource: string, ref: PDFRef): string {
    let name = this.names.get(ref);
    if (name === undefined) {
      name = this.page.node.newXObject(resource, ref).asString();
      this.names.set(ref, name);
    }
    return name;
  }

  image(resource: string, ref: PDFRef, x: number, y: number, width: number, height: number): void {
    this.operators.push(`q ${n(width)} 0 0 ${n(height)} ${n(x)} ${n(y)} cm ${this.xObjectName(resource, ref)} Do Q`);
  }

  /**
   * The image multiplied into what the page shows (blend mode Multiply), as ink on paper: its
   * white lets a signature line under it show through instead of covering it.
   */
  inkImage(resource: string, ref: PDFRef, x: number, y: number, width: number, height: number): void {
    this.inkState ??= this.page.node.newExtGState('SealInk', this.page.doc.context.obj({ Type: 'ExtGState', BM: 'Multiply' })).asString();
    this.operators.push(`q ${this.inkState} gs ${n(width)} 0 0 ${n(height)} ${n(x)} ${n(y)} cm ${this.xObjectName(resource, ref)} Do Q`);
  }

  /**
   * Adds the operators as a content stream after the page's own, which pdf-lib wraps in q/Q when
   * it first normalizes the page: what they leave of the graphics state never moves ours.
   */
  finish(): void {
    const { node, doc } = this.page;
    const content = deflateSync(Buffer.from(this.operators.join('\n'), 'latin1'));
    const stream = PDFRawStream.of(doc.context.obj({ Filter: 'FlateDecode' }), content);
    node.addContentStream(doc.context.register(stream));
  }
}
