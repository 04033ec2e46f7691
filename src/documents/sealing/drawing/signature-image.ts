import { type PDFDocument, PDFRawStream, type PDFRef } from 'pdf-lib';
import sharp from 'sharp';
import { imageTypeOf } from '../../../veriface/images.js';

/** A signature image ready to be placed in any number of PDFs: its pixels as a PDF image stream's data. */
export interface SignatureImage {
  width: number;
  height: number;
  /** The PNG's compressed rows (its IDAT chunks), which a PDF reads with the PNG predictor. */
  rows: Buffer;
}

/** A signature with more pixels than this is refused before it is decoded (a small PNG can hold a huge image). */
export const SIGNATURE_MAX_PIXELS = 4096 * 4096;

/** Its width × height as the PNG's header says, read before anything is decoded; 0 when the header cannot be read. */
export async function signaturePixels(png: Buffer): Promise<number> {
  const { width = 0, height = 0 } = await sharp(png)
    .metadata()
    .catch(() => ({ width: 0, height: 0 }));
  return width * height;
}

/** The largest signature kept: the people's page's canvas is 180 CSS pixels high, at most 3 device pixels each. */
const KEPT_SIZE = { width: 1600, height: 600 };

/**
 * The form a signature is kept in, made when the participant signs: a PNG of 8-bit RGB on white,
 * no larger than it is ever drawn. A drawn signature is dark strokes on a transparent canvas and
 * the pages it goes on are white, so flattening loses nothing; decoding it here also refuses an
 * image libvips cannot read while the participant can still send another. Throws when it cannot.
 */
export async function keptSignature(png: Buffer): Promise<Buffer> {
  return sharp(png, { limitInputPixels: SIGNATURE_MAX_PIXELS })
    .resize({ ...KEPT_SIZE, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .png({ compressionLevel: 6, progressive: false })
    .toBuffer();
}

/**
 * The pixels of a PNG in the kept form (8-bit RGB, not interlaced, no transparent colour), as the
 * compressed rows a PDF image stream reads with the PNG predictor; undefined for any other PNG.
 */
function rowsOfKeptForm(png: Buffer): SignatureImage | undefined {
  if (imageTypeOf(png) !== 'png') return undefined;
  let width = 0;
  let height = 0;
  const rows: Buffer[] = [];
  for (let at = 8; at + 12 <= png.length; ) {
    const length = png.readUInt32BE(at);
    if (at + 12 + length > png.length) return undefined;
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 2 || data[12] !== 0) return undefined;
    }
    if (type === 'tRNS') return undefined;
    if (type === 'IDAT') rows.push(data);
    at += 12 + length;
  }
  if (width === 0 || rows.length === 0) return undefined;
  return { width, height, rows: Buffer.concat(rows) };
}

/**
 * A signature ready to draw. One kept since signing goes in as it is, its compressed rows copied
 * (pdf-lib's embedPng took 20 ms for a 600 × 200 signature); any other PNG (one stored before the
 * kept form) is brought to that form first, by libvips off the event loop.
 */
export async function prepareSignatureImage(png: Buffer): Promise<SignatureImage> {
  const image = rowsOfKeptForm(png) ?? rowsOfKeptForm(await keptSignature(png));
  if (!image) throw new Error('unexpected PNG form from the image library');
  return image;
}

/** The image as an XObject of `document`. */
function embedSignatureImage(document: PDFDocument, image: SignatureImage): PDFRef {
  const { context } = document;
  const dict = context.obj({
    Type: 'XObject',
    Subtype: 'Image',
    Width: image.width,
    Height: image.height,
    ColorSpace: 'DeviceRGB',
    BitsPerComponent: 8,
    Filter: 'FlateDecode',
    DecodeParms: { Predictor: 15, Colors: 3, BitsPerComponent: 8, Columns: image.width },
  });
  return context.register(PDFRawStream.of(dict, image.rows));
}

const embedded = new WeakMap<PDFDocument, Map<SignatureImage, PDFRef>>();

/** The image's XObject in `document`, embedded the first time it is drawn there: once however many boxes show it. */
export function signatureImageRef(document: PDFDocument, image: SignatureImage): PDFRef {
  let images = embedded.get(document);
  if (!images) {
    images = new Map();
    embedded.set(document, images);
  }
  let ref = images.get(image);
  if (!ref) {
    ref = embedSignatureImage(document, image);
    images.set(image, ref);
  }
  return ref;
}
