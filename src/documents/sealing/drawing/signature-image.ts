import { type PDFDocument, PDFRawStream, type PDFRef } from 'pdf-lib';
import sharp from 'sharp';

/** A signature image ready to be placed in any number of PDFs: its pixels as a PDF image stream's data. */
export interface SignatureImage {
  width: number;
  height: number;
  /** The PNG's compressed rows (its IDAT chunks), which a PDF reads with the PNG predictor. */
  rows: Buffer;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The signature on white, as an 8-bit RGB PNG whose compressed rows go into the PDF as they are.
 * A drawn signature is dark strokes on a transparent canvas and the certificate's page is white,
 * so flattening loses nothing; without an alpha channel nothing has to be split and deflated again
 * in JavaScript (pdf-lib's embedPng took 20 ms for a 600 × 200 signature). libvips does the work
 * off the event loop.
 */
export async function prepareSignatureImage(png: Buffer): Promise<SignatureImage> {
  const flat = await sharp(png).flatten({ background: '#ffffff' }).toColourspace('srgb').png({ compressionLevel: 6, progressive: false }).toBuffer();
  if (!flat.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  const rows: Buffer[] = [];
  for (let at = 8; at + 8 <= flat.length; ) {
    const length = flat.readUInt32BE(at);
    const type = flat.toString('latin1', at + 4, at + 8);
    const data = flat.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      // Bit depth 8, colour type 2 (RGB), no interlacing: the only form the predictor below reads.
      if (data[8] !== 8 || data[9] !== 2 || data[12] !== 0) throw new Error('unexpected PNG form from the image library');
    }
    if (type === 'IDAT') rows.push(data);
    at += 12 + length;
  }
  if (width === 0 || rows.length === 0) throw new Error('a PNG without pixels');
  return { width, height, rows: Buffer.concat(rows) };
}

/** The image as an XObject of `document`. */
export function embedSignatureImage(document: PDFDocument, image: SignatureImage): PDFRef {
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
