/** A grey image as the barcode search reads it: one byte a pixel, row after row. */
export interface GreyImage {
  luminances: Uint8ClampedArray;
  width: number;
  height: number;
}

/** Gradients weaker than this (in grey levels over a pixel's neighbours) are noise, the table's texture, JPEG's blocks. */
const EDGE_STRENGTH = 40;

/** The orientation histogram's bins: a degree each, over a quarter turn. */
const BINS = 90;

/**
 * The angle, in degrees from −45 to 45, by which the image's straight edges lean from level:
 * a PDF417 barcode is hundreds of parallel bars, and a card's border runs along them, so the
 * strongest direction of the gradients is the barcode's. Directions are folded into a quarter
 * turn (a bar's edge and the row's edge count alike, and a card turned a quarter reads the same),
 * weighted by the gradient's strength, and the fullest degree wins, smoothed over its two
 * neighbours.
 */
export function dominantSkew({ luminances, width, height }: GreyImage): number {
  const histogram = new Float64Array(BINS);
  const at = (x: number, y: number) => luminances[y * width + x] ?? 0;
  // Every second pixel: the bars are several pixels wide, and the search should cost little beside a decode.
  for (let y = 1; y < height - 1; y += 2) {
    for (let x = 1; x < width - 1; x += 2) {
      const gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);
      const gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);
      const strength = Math.hypot(gx, gy);
      if (strength < EDGE_STRENGTH) continue;
      const degrees = ((((Math.atan2(gy, gx) * 180) / Math.PI) % 90) + 90) % 90;
      const bin = Math.floor(degrees) % BINS;
      histogram[bin] = (histogram[bin] ?? 0) + strength;
    }
  }
  let best = 0;
  let bestWeight = -1;
  for (let bin = 0; bin < BINS; bin++) {
    const weight = (histogram[(bin + BINS - 1) % BINS] ?? 0) + (histogram[bin] ?? 0) + (histogram[(bin + 1) % BINS] ?? 0);
    if (weight > bestWeight) [best, bestWeight] = [bin, weight];
  }
  const centre = best + 0.5;
  return centre > 45 ? centre - 90 : centre;
}

/**
 * The image turned `degrees` clockwise about its centre onto a canvas that holds all of it,
 * sampled bilinearly; the corners outside the image are mid-grey, which no binarizer reads as a bar.
 */
export function rotatedGrey({ luminances, width, height }: GreyImage, degrees: number): GreyImage {
  const radians = (degrees * Math.PI) / 180;
  const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
  const outWidth = Math.ceil(Math.abs(width * cos) + Math.abs(height * sin));
  const outHeight = Math.ceil(Math.abs(width * sin) + Math.abs(height * cos));
  const out = new Uint8ClampedArray(outWidth * outHeight).fill(128);
  const [cx, cy, ox, oy] = [width / 2, height / 2, outWidth / 2, outHeight / 2];
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      // The source of each output pixel: the inverse turn.
      const sx = cos * (x - ox) + sin * (y - oy) + cx;
      const sy = -sin * (x - ox) + cos * (y - oy) + cy;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) continue;
      const [fx, fy] = [sx - x0, sy - y0];
      const i = y0 * width + x0;
      const top = (luminances[i] ?? 0) * (1 - fx) + (luminances[i + 1] ?? 0) * fx;
      const bottom = (luminances[i + width] ?? 0) * (1 - fx) + (luminances[i + width + 1] ?? 0) * fx;
      out[y * outWidth + x] = top * (1 - fy) + bottom * fy;
    }
  }
  return { luminances: out, width: outWidth, height: outHeight };
}
