import sharp from 'sharp';
import { expect } from 'vitest';
import type { SignatureBoxRow } from '../../src/db/schema.js';
import { pageImage } from './pdf-tools.js';

export type PlacedBox = Pick<SignatureBoxRow, 'page' | 'left_pt' | 'bottom_pt' | 'width_pt' | 'height_pt'>;

/** The verification mark's band at the foot of every uploaded page (QR code and its lines), drawn there with or without boxes. */
export const MARK_BAND = 60;

/**
 * The pixels (at 72 dpi, one a point) where the final page differs from the original one, by
 * where they fall: inside each box, in the mark's band, or elsewhere.
 */
export async function inkByPlace(original: Buffer, sealed: Buffer, page: number, boxes: PlacedBox[]): Promise<{ inBox: number[]; elsewhere: number }> {
  const gray = async (pdf: Buffer) =>
    sharp(pageImage(pdf, page, 72))
      .grayscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
  const [before, after] = await Promise.all([gray(original), gray(sealed)]);
  const { width, height } = after.info;
  expect(before.info).toMatchObject({ width, height });
  const inBox = boxes.map(() => 0);
  let elsewhere = 0;
  for (let row = 0; row < height; row++) {
    for (let column = 0; column < width; column++) {
      const at = row * width + column;
      if (Math.abs((before.data[at] ?? 0) - (after.data[at] ?? 0)) < 48) continue;
      const x = column + 0.5;
      const y = height - row - 0.5;
      const box = boxes.findIndex((b) => x >= b.left_pt - 1 && x <= b.left_pt + b.width_pt + 1 && y >= b.bottom_pt - 1 && y <= b.bottom_pt + b.height_pt + 1);
      if (box >= 0) inBox[box] = (inBox[box] ?? 0) + 1;
      else if (y > MARK_BAND) elsewhere++;
    }
  }
  return { inBox, elsewhere };
}
