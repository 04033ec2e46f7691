import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Real photographs for the face tests, cut at test time from the screenshots the MIT-licensed
 * @vladmandic/human package ships in assets/ (nothing is committed): its author appears in
 * screenshot-faceid.jpg, in screenshot-facedetect.jpg and in screenshot-facematch.jpg; four
 * other people appear in screenshot-facedetect.jpg.
 */
// The package exports no package.json: its main file (dist/human.node.js, never loaded) is found instead.
const assets = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/human')), '..', 'assets');
const asset = (name: string) => path.join(assets, name);

interface Crop {
  file: string;
  box: { left: number; top: number; width: number; height: number };
}

const FACES = {
  /** The package's author, three photographs taken at different times. */
  authorWebcam: { file: 'screenshot-faceid.jpg', box: { left: 10, top: 135, width: 150, height: 152 } },
  authorPhoto: { file: 'screenshot-facedetect.jpg', box: { left: 5, top: 343, width: 156, height: 157 } },
  authorSelected: { file: 'screenshot-facematch.jpg', box: { left: 0, top: 20, width: 190, height: 180 } },
  /** Other people. */
  womanDarkHair: { file: 'screenshot-facedetect.jpg', box: { left: 163, top: 343, width: 155, height: 157 } },
  womanBlonde: { file: 'screenshot-facedetect.jpg', box: { left: 320, top: 343, width: 155, height: 157 } },
  womanBrownHair: { file: 'screenshot-facedetect.jpg', box: { left: 477, top: 343, width: 155, height: 157 } },
} satisfies Record<string, Crop>;
export type Person = keyof typeof FACES;

/** The face alone, tightly cropped. */
async function faceCrop(person: Person, side: number): Promise<Buffer> {
  const { file, box } = FACES[person];
  return sharp(asset(file)).extract(box).resize(side, side, { fit: 'cover' }).png().toBuffer();
}

/** A selfie: the face in the middle of a portrait frame whose background is the photo itself, heavily blurred. */
export async function selfie(person: Person, options: { faceSide?: number; width?: number; height?: number } = {}): Promise<Buffer> {
  const { faceSide = 220, width = 480, height = 600 } = options;
  const face = await faceCrop(person, faceSide);
  const background = await sharp(face).resize(width, height, { fit: 'fill' }).blur(40).png().toBuffer();
  return sharp(background)
    .composite([{ input: face, left: Math.round((width - faceSide) / 2), top: Math.round((height - faceSide) / 2) }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Two people side by side in one frame. */
export async function twoPeople(first: Person, second: Person): Promise<Buffer> {
  const [a, b] = await Promise.all([selfie(first), selfie(second)]);
  return sharp({ create: { width: 960, height: 600, channels: 3, background: '#808080' } })
    .composite([
      { input: a, left: 0, top: 0 },
      { input: b, left: 480, top: 0 },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * An identity card as a phone photographs one: a card with a coloured band, printed text and the
 * person's portrait, lying a little askew on a table, slightly out of focus, saved as JPEG.
 */
export async function identityCard(person: Person): Promise<Buffer> {
  const portrait = await sharp(await faceCrop(person, 170))
    .resize(150, 185, { fit: 'cover' })
    .png()
    .toBuffer();
  const text = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400">
    <rect width="640" height="400" rx="24" fill="#f3efe2"/>
    <rect width="640" height="70" rx="24" fill="#c8a43c"/>
    <text x="24" y="46" font-family="DejaVu Sans" font-size="28" font-weight="bold" fill="#1d2a57">REPUBLICA DE COLOMBIA</text>
    <text x="210" y="120" font-family="DejaVu Sans" font-size="18" fill="#333">IDENTIFICACION PERSONAL</text>
    <text x="210" y="160" font-family="DejaVu Sans" font-size="24" fill="#111">CEDULA DE CIUDADANIA</text>
    <text x="210" y="205" font-family="DejaVu Sans Mono" font-size="26" fill="#111">1.001.001.010</text>
    <text x="210" y="250" font-family="DejaVu Sans" font-size="20" fill="#111">PEREZ GONZALEZ</text>
    <text x="210" y="285" font-family="DejaVu Sans" font-size="20" fill="#111">JUAN CARLOS</text>
    <text x="210" y="350" font-family="DejaVu Sans" font-size="14" fill="#555">FIRMA ___________________</text>
  </svg>`);
  const card = await sharp(text)
    .composite([{ input: portrait, left: 32, top: 100 }])
    .png()
    .toBuffer();
  return sharp(card)
    .rotate(-4, { background: '#5b4a3a' })
    .extend({ top: 60, bottom: 60, left: 60, right: 60, background: '#5b4a3a' })
    .blur(1)
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** A face far away: the same selfie with its face a few dozen pixels wide. */
export async function distantFace(person: Person): Promise<Buffer> {
  const face = await faceCrop(person, 48);
  return sharp({ create: { width: 480, height: 600, channels: 3, background: '#9a9080' } })
    .composite([{ input: face, left: 216, top: 276 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A selfie shaken so badly that no feature has an edge left. */
export async function blurredSelfie(person: Person): Promise<Buffer> {
  return sharp(await selfie(person))
    .blur(6)
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Images without any face: a flat colour, a gradient, and the package's icon (a drawn skeleton). */
export async function imagesWithoutFaces(): Promise<{ name: string; image: Buffer }[]> {
  const gradient = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="480" height="600">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#123"/><stop offset="1" stop-color="#fc8"/></linearGradient></defs>
    <rect width="480" height="600" fill="url(#g)"/></svg>`);
  return [
    {
      name: 'a flat colour',
      image: await sharp({ create: { width: 480, height: 600, channels: 3, background: '#d9c7b0' } })
        .png()
        .toBuffer(),
    },
    { name: 'a gradient', image: await sharp(gradient).jpeg().toBuffer() },
    { name: 'the package icon', image: await sharp(asset('icon.png')).png().toBuffer() },
  ];
}

/** Bytes that start like a JPEG and are nothing else. */
export const notAnImage = (): Buffer => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('not a photograph at all')]);

/**
 * Faces in @vladmandic/face-api's demo photographs (demo/sample1.jpg to sample6.jpg, 1920 px
 * wide, MIT): groups of people photographed by a camera, each face's box as face-api's detector
 * found it (score 0.6 or more).
 */
const GROUP_FACES: readonly { sample: number; box: { x: number; y: number; width: number; height: number } }[] = [
  { sample: 1, box: { x: 776, y: 445, width: 313, height: 256 } },
  { sample: 1, box: { x: 1422, y: 215, width: 307, height: 283 } },
  { sample: 1, box: { x: 337, y: 397, width: 305, height: 251 } },
  { sample: 2, box: { x: 1403, y: 173, width: 277, height: 264 } },
  { sample: 3, box: { x: 1005, y: 252, width: 325, height: 275 } },
  { sample: 3, box: { x: 525, y: 370, width: 313, height: 271 } },
  { sample: 3, box: { x: 1444, y: 342, width: 289, height: 270 } },
  { sample: 4, box: { x: 625, y: 98, width: 253, height: 229 } },
  { sample: 4, box: { x: 225, y: 234, width: 274, height: 244 } },
  { sample: 4, box: { x: 925, y: 225, width: 268, height: 231 } },
  { sample: 5, box: { x: 313, y: 897, width: 316, height: 313 } },
  { sample: 5, box: { x: 1346, y: 417, width: 305, height: 283 } },
  { sample: 5, box: { x: 533, y: 435, width: 286, height: 242 } },
  { sample: 5, box: { x: 1058, y: 242, width: 280, height: 248 } },
  { sample: 5, box: { x: 734, y: 134, width: 237, height: 196 } },
  { sample: 6, box: { x: 1432, y: 314, width: 299, height: 290 } },
  { sample: 6, box: { x: 616, y: 378, width: 295, height: 275 } },
  { sample: 6, box: { x: 1092, y: 360, width: 296, height: 275 } },
  { sample: 6, box: { x: 187, y: 518, width: 335, height: 289 } },
];

const faceApiDemo = (sample: number) =>
  path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo', `sample${sample}.jpg`);

/** A portrait frame (4:5) around one face of a group photograph, as a selfie camera frames a face. */
async function groupSelfie(face: (typeof GROUP_FACES)[number]): Promise<Buffer> {
  const file = faceApiDemo(face.sample);
  const { width = 0, height = 0 } = await sharp(file).metadata();
  const { box } = face;
  const frameWidth = Math.round(box.width * 1.6);
  const frameHeight = Math.round(frameWidth * 1.25);
  const left = Math.max(0, Math.min(width - frameWidth, Math.round(box.x + box.width / 2 - frameWidth / 2)));
  const top = Math.max(0, Math.min(height - frameHeight, Math.round(box.y + box.height / 2 - frameHeight * 0.45)));
  return sharp(file)
    .extract({ left, top, width: Math.min(frameWidth, width - left), height: Math.min(frameHeight, height - top) })
    .resize(480, 600, { fit: 'cover' })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * Every genuine face photograph the packages ship, as selfies: the six crops of `human`'s
 * screenshots (five people) and nineteen faces of face-api's group photographs.
 */
export async function genuineSelfies(): Promise<{ name: string; image: Buffer }[]> {
  const people = Object.keys(FACES).filter((name): name is Person => name in FACES);
  const own = await Promise.all(people.map(async (name) => ({ name, image: await selfie(name) })));
  const groups = await Promise.all(GROUP_FACES.map(async (face, i) => ({ name: `face-api sample${face.sample} #${i + 1}`, image: await groupSelfie(face) })));
  return [...own, ...groups];
}
