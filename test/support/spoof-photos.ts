import sharp from 'sharp';

/**
 * Photos of a face that is not there: a genuine photo printed on paper, or shown on a phone or a
 * monitor, then photographed as a selfie (480 × 600, JPEG), made with sharp from any genuine photo.
 * Each kind comes in variants (tilt, glare, pattern) so that a measurement sees more than one
 * print or screen.
 */
const WIDTH = 480;
const HEIGHT = 600;
export const SPOOF_VARIANTS = 3;

const svg = (width: number, height: number, body: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`);

/** A room behind the print or the screen: a dim wall with a lighter patch, blurred by the camera's focus. */
function scene(variant: number): Buffer {
  const [wall, light] = [
    ['#6d6358', '#a89c8c'],
    ['#4f5560', '#8d949e'],
    ['#7a6f5d', '#c2b59c'],
  ][variant % 3] ?? ['#6d6358', '#a89c8c'];
  return svg(
    WIDTH,
    HEIGHT,
    `<defs><radialGradient id="l" cx="0.3" cy="0.2" r="0.9"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${wall}"/></radialGradient></defs>
     <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#l)"/>`,
  );
}

/** A soft white reflection (of a lamp or a window) on glossy paper or glass. */
function glare(variant: number): Buffer {
  const [cx, cy] = [
    [0.72, 0.25],
    [0.25, 0.7],
    [0.6, 0.8],
  ][variant % 3] ?? [0.72, 0.25];
  return svg(
    WIDTH,
    HEIGHT,
    `<defs><radialGradient id="g" cx="${cx}" cy="${cy}" r="0.35"><stop offset="0" stop-color="#fff" stop-opacity="0.75"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>
     <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#g)"/>`,
  );
}

/** An ink-jet or offset print's dots: a grid of dark dots over the picture, multiplied in. */
function halftone(width: number, height: number, pitch: number): Buffer {
  return svg(
    width,
    height,
    `<defs><pattern id="d" width="${pitch}" height="${pitch}" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
       <rect width="${pitch}" height="${pitch}" fill="#fff"/><circle cx="${pitch / 2}" cy="${pitch / 2}" r="${pitch * 0.32}" fill="#b9b4aa"/></pattern></defs>
     <rect width="${width}" height="${height}" fill="url(#d)"/>`,
  );
}

/** Tilts a picture as a hand holds it: a shear and a turn, the corners filled with transparency. */
async function tilted(picture: Buffer, variant: number): Promise<Buffer> {
  const sign = variant % 2 === 0 ? 1 : -1;
  return sharp(picture)
    .affine(
      [
        [1, 0.05 * sign],
        [-0.04 * sign, 0.97],
      ],
      { background: { r: 0, g: 0, b: 0, alpha: 0 } },
    )
    .rotate(4 * sign + variant, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}

/** Places a tilted picture in the middle of the room and takes the photo: glare, the camera's softness, JPEG. */
async function photographed(picture: Buffer, variant: number, width: number): Promise<Buffer> {
  const held = await sharp(await tilted(picture, variant))
    .resize({ width, height: HEIGHT - 20, fit: 'inside' })
    .png()
    .toBuffer();
  const { width: w = width, height: h = HEIGHT } = await sharp(held).metadata();
  return sharp(scene(variant))
    .composite([
      { input: held, left: Math.round((WIDTH - w) / 2), top: Math.round((HEIGHT - h) / 2) },
      { input: glare(variant), blend: 'screen' },
    ])
    .blur(0.6)
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * The genuine photo printed on paper and photographed: ink's narrower range and weaker colours, a
 * halftone, a white paper border, held tilted in a room, with a reflection on it.
 */
export async function printedPhoto(genuine: Buffer, variant = 0): Promise<Buffer> {
  const [pw, ph] = [400, 500];
  const print = await sharp(genuine)
    .resize(pw, ph, { fit: 'cover' })
    .modulate({ saturation: 0.75 })
    .linear(0.7, 40)
    .composite([{ input: halftone(pw, ph, 3 + (variant % 2)), blend: 'multiply' }])
    .extend({ top: 28, bottom: 28, left: 28, right: 28, background: '#f4f1ea' })
    .png()
    .toBuffer();
  return photographed(print, variant, 420);
}

/**
 * The genuine photo shown on a screen and photographed: each pixel drawn as red, green and blue
 * stripes with dark gaps between them (the pixel grid, which beats with the camera's own into
 * moiré once the photo is shrunk), a raised black level and a cold tint, inside a black bezel
 * (a phone's, or a monitor's wider one), tilted, with a reflection on the glass.
 */
export async function onScreenPhoto(genuine: Buffer, variant = 0): Promise<Buffer> {
  const monitor = variant === 2;
  const [sw, sh] = monitor ? [720, 600] : [540, 960];
  const grid = svg(
    sw,
    sh,
    `<defs><pattern id="p" width="3" height="3" patternUnits="userSpaceOnUse">
       <rect width="3" height="3" fill="#222"/><rect x="0" width="1" height="2.4" fill="#ff5050"/><rect x="1" width="1" height="2.4" fill="#50ff50"/><rect x="2" width="1" height="2.4" fill="#5050ff"/></pattern></defs>
     <rect width="${sw}" height="${sh}" fill="url(#p)"/>`,
  );
  const screen = await sharp(genuine)
    .resize(sw, sh, { fit: 'cover' })
    .linear([0.78, 0.8, 0.82], [26, 30, 40])
    .composite([{ input: grid, blend: 'multiply' }])
    .linear(1.6, 10)
    .png()
    .toBuffer();
  const bezel = monitor ? 36 : 24;
  const device = await sharp(screen)
    .extend({ top: bezel, bottom: bezel * (monitor ? 2 : 1.5), left: bezel, right: bezel, background: '#111' })
    .png()
    .toBuffer();
  return photographed(device, variant, monitor ? 470 : 380);
}
