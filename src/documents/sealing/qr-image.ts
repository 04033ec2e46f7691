import type { PDFDocument, PDFRef } from 'pdf-lib';
import QRCode from 'qrcode';

/** A QR code's modules, one byte each (1 = dark), row after row. */
export interface QrModules {
  size: number;
  data: Uint8Array;
}

/** The modules of `text`'s QR code, at the library's default error correction (M). */
export function qrModules(text: string): QrModules {
  const { modules } = QRCode.create(text);
  return { size: modules.size, data: modules.data };
}

/**
 * The quiet zone the QR standard asks for, four modules of white around the code, inside the
 * image: with only one, the text beside the code made a scanner (zxing) miss it on some pages.
 */
export const QR_QUIET_MODULES = 4;
const QUIET = QR_QUIET_MODULES;

/**
 * The QR code as a one-bit grey image, one pixel per module, drawn scaled up without smoothing:
 * a few hundred bytes and no PNG to encode or decode (embedding a PNG through pdf-lib decoded and
 * re-compressed it for every file).
 */
export function embedQr(document: PDFDocument, qr: QrModules): PDFRef {
  const side = qr.size + 2 * QUIET;
  const rowBytes = Math.ceil(side / 8);
  // White is 1 in DeviceGray: start all white, clear the bits of dark modules.
  const bits = new Uint8Array(rowBytes * side).fill(0xff);
  for (let y = 0; y < qr.size; y++) {
    for (let x = 0; x < qr.size; x++) {
      if (qr.data[y * qr.size + x] !== 1) continue;
      const column = x + QUIET;
      const index = (y + QUIET) * rowBytes + (column >> 3);
      bits[index] = (bits[index] ?? 0) & ~(0x80 >> (column & 7));
    }
  }
  const image = document.context.stream(bits, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: side,
    Height: side,
    ColorSpace: 'DeviceGray',
    BitsPerComponent: 1,
    Interpolate: false,
  });
  return document.context.register(image);
}
