import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

/*
 * The signature of a person who signs in WhatsApp: their name written as the signing page writes a
 * typed name (src/people/web/signature.ts): an italic face in the page's ink colour, 72 px high and
 * smaller for a long name, on a transparent 600 × 200 canvas, 20 px from its left edge.
 */

const CANVAS = { width: 600, height: 200 };
const MARGIN = 20;
const INK = '#10243e';
const LARGEST = 72;
const SMALLEST = 20;

/** DejaVu Sans Oblique, from the npm package the certificate's fonts come from: the same on every machine. */
const fontFile = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans-Oblique.ttf');

function markup(name: string): string {
  const escaped = name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<span foreground="${INK}">${escaped}</span>`;
}

async function written(name: string, size: number): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp({ text: { text: markup(name), font: `DejaVu Sans Oblique ${size}`, fontfile: fontFile, rgba: true, dpi: 72 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A PNG of `name` as the page's typed signature; a name too long even at the smallest size is scaled to fit. */
export async function typedSignature(name: string): Promise<Buffer> {
  const room = CANVAS.width - 2 * MARGIN;
  let text = await written(name, LARGEST);
  if (text.width > room) {
    // The page steps down 4 px at a time until the name fits; the first size that fits, directly.
    const size = Math.max(SMALLEST, LARGEST - 4 * Math.ceil((LARGEST - (LARGEST * room) / text.width) / 4));
    text = await written(name, size);
  }
  if (text.width > room || text.height > CANVAS.height) {
    const { data, info } = await sharp(text.data).resize({ width: room, height: CANVAS.height, fit: 'inside' }).png().toBuffer({ resolveWithObject: true });
    text = { data, width: info.width, height: info.height };
  }
  return sharp({ create: { ...CANVAS, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: text.data, left: MARGIN, top: Math.round((CANVAS.height - text.height) / 2) }])
    .png()
    .toBuffer();
}
