import {
  type Binarizer,
  BinaryBitmap,
  DecodeHintType,
  GlobalHistogramBinarizer,
  HybridBinarizer,
  type LuminanceSource,
  QRCodeReader,
  RGBLuminanceSource,
} from '@zxing/library';
import sharp from 'sharp';
import { pageImage } from './pdf-tools.js';

/**
 * The distances a phone's camera looks from, as page resolutions. zxing misses a few codes at any
 * one of them: the modules fall on a pixel grid they do not fit (2.9 pixels each at 150 dpi), and
 * for about one process code in a hundred its sampling or binarizing goes wrong there. A phone
 * keeps scanning as it moves; so does this reader.
 */
const RESOLUTIONS = [150, 200, 300];
const BINARIZERS: ((source: LuminanceSource) => Binarizer)[] = [(source) => new HybridBinarizer(source), (source) => new GlobalHistogramBinarizer(source)];

/** The text of the QR code in the bottom quarter of a PDF's page, as a phone's camera would read it; undefined when none is found. */
export async function readPageQr(pdf: Buffer, page: number): Promise<string | undefined> {
  for (const dpi of RESOLUTIONS) {
    const text = await readQr(pageImage(pdf, page, dpi));
    if (text !== undefined) return text;
  }
  return undefined;
}

async function readQr(png: Buffer): Promise<string | undefined> {
  const meta = await sharp(png).metadata();
  const height = meta.height ?? 0;
  const top = Math.floor(height * 0.75);
  const { data, info } = await sharp(png)
    .extract({ left: 0, top, width: meta.width ?? 0, height: height - top })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const luminances = new RGBLuminanceSource(new Uint8ClampedArray(data), info.width, info.height);
  // TRY_HARDER, as phone scanning apps run it: the fast pass alone misses some codes zxing reads on a second look.
  const hints = new Map([[DecodeHintType.TRY_HARDER, true]]);
  for (const binarizer of BINARIZERS) {
    try {
      return new QRCodeReader().decode(new BinaryBitmap(binarizer(luminances)), hints).getText();
    } catch {
      // zxing says "no code here" by throwing: look again another way.
    }
  }
  return undefined;
}
