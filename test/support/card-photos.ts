import sharp from 'sharp';

/**
 * Identity cards photographed as phones photograph them, made with sharp from any face picture:
 * the picture printed as a card's portrait (a print's weaker colours and contrast), then the card
 * photographed in one of SHOTS (turned, tilted in perspective, small in the frame, dim, out of
 * focus, a lamp's reflection on it, or a photocopy of it), on a table, saved as JPEG.
 */
const svg = (width: number, height: number, body: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`);

const CARD_WIDTH = 1000;
const CARD_HEIGHT = 630;
const PORTRAIT = { left: 40, top: 130, width: 250, height: 320 };

/** A made-up card with the face picture as its portrait, printed. */
export async function printedCard(face: Buffer): Promise<Buffer> {
  const portrait = await sharp(face)
    .resize(PORTRAIT.width, PORTRAIT.height, { fit: 'cover', position: 'centre' })
    .modulate({ saturation: 0.8 })
    .linear(0.85, 20)
    .blur(0.5)
    .png()
    .toBuffer();
  const layout = svg(
    CARD_WIDTH,
    CARD_HEIGHT,
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" rx="30" fill="#f3efe2"/>
     <rect width="${CARD_WIDTH}" height="90" rx="30" fill="#c8a43c"/>
     <text x="40" y="62" font-family="DejaVu Sans" font-size="40" font-weight="bold" fill="#1d2a57">REPUBLICA DE COLOMBIA</text>
     <text x="330" y="170" font-family="DejaVu Sans" font-size="30" fill="#111">CEDULA DE CIUDADANIA</text>
     <text x="330" y="260" font-family="DejaVu Sans Mono" font-size="44" fill="#111">1.001.001.010</text>
     <text x="330" y="340" font-family="DejaVu Sans" font-size="30" fill="#111">PEREZ GONZALEZ</text>
     <text x="330" y="390" font-family="DejaVu Sans" font-size="30" fill="#111">JUAN CARLOS</text>
     <text x="330" y="560" font-family="DejaVu Sans" font-size="22" fill="#555">FIRMA ______________________</text>`,
  );
  return sharp(layout)
    .composite([{ input: portrait, left: PORTRAIT.left, top: PORTRAIT.top }])
    .png()
    .toBuffer();
}

export interface Shot {
  name: string;
  /** Degrees the card is turned in the photo, clockwise. */
  turn: number;
  /** The card's long side as a fraction of the photo's long side. */
  scale: number;
  /** Horizontal shear, as a card seen a little from the side. */
  shear: number;
  /** Gaussian blur's sigma in pixels of the photo: focus and shake. */
  blur: number;
  /** Light on the card, 1 as lit evenly; below 1 darker, with a shadow across it. */
  light: number;
  quality: number;
  /**
   * A lamp's reflection on the card's laminate, over the portrait's upper half: 0 none, 1 white
   * where it is strongest (screen-blended, fading to nothing at its edge).
   */
  glare?: number;
  /** The card is a photocopy: grey, harder contrast, its darks and lights clipped. */
  photocopy?: boolean;
}

/** The photos of each card a measurement takes: one of each way a person photographs an ID. */
export const SHOTS: readonly Shot[] = [
  { name: 'askew on a table', turn: -5, scale: 0.75, shear: 0, blur: 1, light: 1, quality: 80 },
  { name: 'turned a quarter', turn: 92, scale: 0.7, shear: 0, blur: 1, light: 1, quality: 80 },
  { name: 'turned three quarters', turn: 267, scale: 0.7, shear: 0.05, blur: 1, light: 0.9, quality: 80 },
  { name: 'upside down', turn: 182, scale: 0.7, shear: 0, blur: 1, light: 1, quality: 80 },
  { name: 'small in the frame', turn: 4, scale: 0.32, shear: 0, blur: 0.8, light: 1, quality: 85 },
  { name: 'dim, in perspective', turn: 12, scale: 0.7, shear: 0.15, blur: 1.2, light: 0.6, quality: 70 },
  { name: 'out of focus', turn: -3, scale: 0.6, shear: 0, blur: 2, light: 1, quality: 75 },
  { name: 'glare on the portrait', turn: 3, scale: 0.7, shear: 0, blur: 1, light: 1, quality: 80, glare: 0.95 },
  { name: 'a photocopy', turn: -4, scale: 0.7, shear: 0, blur: 1, light: 1, quality: 80, photocopy: true },
];

/** The card as the shot sees its surface: a photocopy of it, a reflection on it. */
async function surfaceOf(card: Buffer, shot: Shot): Promise<Buffer> {
  const copied = shot.photocopy ? await sharp(card).greyscale().linear(1.7, -90).png().toBuffer() : card;
  if (!shot.glare) return copied;
  const { width = 0, height = 0 } = await sharp(copied).metadata();
  const reflection = svg(
    width,
    height,
    `<defs><radialGradient id="r"><stop offset="0" stop-color="#fff" stop-opacity="${shot.glare}"/><stop offset="0.55" stop-color="#fff" stop-opacity="${(shot.glare * 0.85).toFixed(2)}"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>
     <ellipse cx="${Math.round(width * 0.18)}" cy="${Math.round(height * 0.36)}" rx="${Math.round(width * 0.16)}" ry="${Math.round(height * 0.14)}" fill="url(#r)"/>`,
  );
  return sharp(copied)
    .composite([{ input: reflection, blend: 'screen' }])
    .png()
    .toBuffer();
}

/** The photo's size: landscape, or portrait when the card stands on its short side. */
const frameOf = (shot: Shot) => (Math.abs(Math.round(shot.turn / 90)) % 2 === 1 ? { width: 1200, height: 1600 } : { width: 1600, height: 1200 });

/** A card, as a phone's camera photographs it in `shot` (about 1600 × 1200, JPEG). */
export async function photographCard(card: Buffer, shot: Shot): Promise<Buffer> {
  const frame = frameOf(shot);
  const turnsSideways = frame.height > frame.width;
  const longSide = Math.round(shot.scale * Math.max(frame.width, frame.height));
  const clear = { r: 0, g: 0, b: 0, alpha: 0 };
  const sized = await sharp(await surfaceOf(card, shot))
    .ensureAlpha()
    .resize({ width: longSide })
    .png()
    .toBuffer();
  const sheared = shot.shear === 0 ? sized : await sharp(sized).affine([1, shot.shear, 0, 1], { background: clear }).png().toBuffer();
  const turned = await sharp(sheared)
    .rotate(shot.turn, { background: clear })
    .resize({ width: frame.width - 40, height: frame.height - 40, fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer();
  const { width = 0, height = 0 } = await sharp(turned).metadata();
  const table = svg(
    frame.width,
    frame.height,
    `<defs><linearGradient id="t" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6b5745"/><stop offset="1" stop-color="#4a3b2e"/></linearGradient></defs>
     <rect width="${frame.width}" height="${frame.height}" fill="url(#t)"/>`,
  );
  const shadow = svg(
    frame.width,
    frame.height,
    `<defs><linearGradient id="s" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="${(1 - shot.light).toFixed(2)}"/></linearGradient></defs>
     <rect width="${frame.width}" height="${frame.height}" fill="url(#s)"/>`,
  );
  // The card a little off centre, as a hand holds a phone.
  const left = Math.round((frame.width - width) / 2 + (turnsSideways ? 10 : 30));
  const top = Math.round((frame.height - height) / 2 - 15);
  const photo = await sharp(table)
    .composite([
      { input: turned, left, top },
      { input: shadow, left: 0, top: 0 },
    ])
    .png()
    .toBuffer();
  return sharp(photo)
    .linear(Math.min(1, 0.4 + shot.light * 0.6), 0)
    .blur(shot.blur)
    .jpeg({ quality: shot.quality })
    .toBuffer();
}

/**
 * A face photo (480 × 600, JPEG) from a face picture: the face in the middle of a portrait frame
 * whose background is the picture itself, heavily blurred; `mirrored` flips it and changes its
 * light, a second look at a person of whom only one photograph exists.
 */
export async function faceFrame(face: Buffer, mirrored = false): Promise<Buffer> {
  const width = 480;
  const height = 600;
  const inner = await sharp(face).resize(300, 375, { fit: 'inside' }).png().toBuffer();
  const { width: innerWidth = 0, height: innerHeight = 0 } = await sharp(inner).metadata();
  const background = await sharp(face).resize(width, height, { fit: 'fill' }).blur(40).png().toBuffer();
  const framed = sharp(background).composite([{ input: inner, left: Math.round((width - innerWidth) / 2), top: Math.round((height - innerHeight) / 2) }]);
  if (!mirrored) return framed.jpeg({ quality: 90 }).toBuffer();
  return sharp(await framed.png().toBuffer())
    .flop()
    .modulate({ brightness: 1.12, saturation: 0.9 })
    .rotate(4, { background: '#555' })
    .resize(width, height, { fit: 'cover' })
    .jpeg({ quality: 85 })
    .toBuffer();
}
