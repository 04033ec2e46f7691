import { BinaryBitmap, DecodeHintType, HybridBinarizer, QRCodeReader, RGBLuminanceSource } from '@zxing/library';
import sharp from 'sharp';

/** The text of the QR code in the bottom quarter of a page image, as a phone's camera would read it; undefined when none is found. */
export async function readQr(png: Buffer): Promise<string | undefined> {
  const meta = await sharp(png).metadata();
  const height = meta.height ?? 0;
  const top = Math.floor(height * 0.75);
  const { data, info } = await sharp(png)
    .extract({ left: 0, top, width: meta.width ?? 0, height: height - top })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const luminances = new Uint8ClampedArray(data);
  try {
    // TRY_HARDER, as phone scanning apps run it: the fast pass alone misses some codes zxing reads on a second look.
    const hints = new Map([[DecodeHintType.TRY_HARDER, true]]);
    return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminances, info.width, info.height))), hints).getText();
  } catch {
    // zxing says "no code here" by throwing.
    return undefined;
  }
}
