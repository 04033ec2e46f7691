import { type DecodedImage, INPUT_MAX_SIDE } from './decode-image.js';
import { type DetectedFace, type Detectors, type FaceModel, faceAt } from './face-model.js';
import { clamped, cropped, enlargedCrop, normalised, shrunk, turned } from './image-transforms.js';
import { type Box, faceSharpness, SHARPNESS_SIDE } from './sharpness.js';

/**
 * Finding the portrait on a photographed identity card. A phone photographs a card turned any
 * way, often small in the frame, and the portrait fills a few per cent of the photo: searched for
 * in the whole photo shrunk to 640 px, it is found, but described from those few pixels it looks
 * like anyone. So the card's turn is searched for on the shrunk photo, then the portrait is cut
 * from the photo at its own resolution with a margin, enlarged to the size the recognition
 * network reads, its luminance stretched, found again there, and described from that crop, not
 * levelled: a face photo is described as the person holds their head, and a levelled portrait
 * matched a leaning one less well.
 */

/** The longest side a document photo is decoded at: the portrait is cut from it, not from the shrunk search view. */
export const DOCUMENT_MAX_SIDE = 2048;

/** The photo's quarter turns, clockwise. */
const QUARTER_TURNS = [0, 90, 270, 180] as const;

/** Turns tried when no quarter turn shows a face: a card photographed well askew. */
const SKEWS = [-30, 30] as const;

/**
 * How many of the quarter turns the Tiny detector scored highest are looked at closely: it also
 * finds faces, with scores up to 0.8, in a portrait lying on its side or upside down, and on the
 * sample cards the right turn was always one of its two best.
 */
const CANDIDATES = 2;

/**
 * The width the portrait's face is brought to, in pixels: face-api's recognition network reads a
 * 150 × 150 crop of the face, and its landmarks network 112 × 112; a face smaller than that is
 * enlarged before either sees it.
 */
export const PORTRAIT_FACE_PIXELS = 160;

/** A face is enlarged at most this many times: beyond, a Lanczos filter invents no detail worth describing. */
const MAX_ENLARGEMENT = 4;

/** The crop around the face, as a multiple of its box: the detector finds a face with its hair and chin around it more surely than a face filling the frame. */
const CROP_SCALE = 2.2;

/**
 * A face at least this many pixels a side in the shrunk photo, found there by the Tiny detector
 * without turning it, is looked at closely before any other turn is searched: a card photographed
 * upright and filling much of the frame (on the sample cards, faces of 103 – 166 px) costs one close
 * look, not four searches.
 */
const UPRIGHT_FIRST_SIDE = 100;

/**
 * A tile's side, as a fraction of the photo's: four overlapping tiles cover it, and each, shrunk to
 * the search's 640 px, shows a card's portrait about twice as large as the whole photo does.
 */
const TILE_FRACTION = 0.55;

export interface Portrait {
  /** The enlarged crop around the portrait, upright. */
  image: DecodedImage;
  face: DetectedFace;
  /** The face's smaller side in the photo's own pixels, before enlargement. */
  sourceSide: number;
  /**
   * The face's sharpness where it was found in the shrunk photo, as a face photo's is measured, or
   * in the photo's own pixels when it is smaller there than the measure's side: an enlargement is
   * not judged blurred for being enlarged.
   */
  sharpness: number;
}

interface Found {
  face: DetectedFace;
  turn: number;
  view: DecodedImage;
}

async function largestIn(model: FaceModel, image: DecodedImage, detectors?: Detectors): Promise<DetectedFace | undefined> {
  const faces = await model.detect(image, detectors);
  return faces.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height)[0];
}

/** The faces `detectors` find in `turns` of the shrunk photo, in that order; with `firstOnly`, the first found. */
async function searchTurns(model: FaceModel, reduced: DecodedImage, turns: readonly number[], detectors: Detectors, firstOnly: boolean): Promise<Found[]> {
  const found: Found[] = [];
  for (const turn of turns) {
    const view = await turned(reduced, turn);
    const face = await largestIn(model, view, detectors);
    if (face) found.push({ face, turn, view });
    if (face && firstOnly) break;
  }
  return found;
}

/**
 * The turns of the shrunk photo in which a face was found, surest first: Tiny on each quarter turn
 * (turn 0's answer given unless it was already looked at closely), else SSD, which finds smaller faces, on each turn and skew.
 */
async function candidateTurns(model: FaceModel, reduced: DecodedImage, upright: Found | undefined): Promise<{ candidates: Found[]; bySsd: boolean }> {
  const search = (turns: readonly number[], detectors: Detectors, firstOnly: boolean) => searchTurns(model, reduced, turns, detectors, firstOnly);
  const quick = [...(upright ? [upright] : []), ...(await search(QUARTER_TURNS.slice(1), 'tiny', false))];
  const found = quick.length > 0 ? quick : await search([...QUARTER_TURNS, ...SKEWS], 'ssd', true);
  return { candidates: found.sort((a, b) => b.face.score - a.face.score).slice(0, CANDIDATES), bySsd: quick.length === 0 };
}

/** The square around `found`'s face cut from the photo at its own resolution (turned the same way), enlarged and its luminance stretched. */
interface CloseCrop {
  /** The photo turned as the view was. */
  upright: DecodedImage;
  crop: DecodedImage;
  /** How many times the crop was enlarged. */
  factor: number;
  /** The face's box as found, in the crop's pixels. */
  box: Box;
}

async function closeCrop(photo: DecodedImage, found: Found): Promise<CloseCrop> {
  const upright = await turned(photo, found.turn);
  // Both were turned about their centres on grown canvases, so one scale maps the view onto the photo.
  const scale = upright.width / found.view.width;
  const { box } = found.face;
  const side = Math.max(box.width, box.height) * scale * CROP_SCALE;
  const centre = { x: (box.x + box.width / 2) * scale, y: (box.y + box.height / 2) * scale };
  const factor = Math.min(MAX_ENLARGEMENT, PORTRAIT_FACE_PIXELS / (box.width * scale));
  const square = { x: centre.x - side / 2, y: centre.y - side / 2, width: side, height: side };
  const crop = await normalised(await enlargedCrop(upright, square, factor));
  const origin = clamped(upright, square);
  const inCrop = {
    x: (box.x * scale - origin.left) * factor,
    y: (box.y * scale - origin.top) * factor,
    width: box.width * scale * factor,
    height: box.height * scale * factor,
  };
  return { upright, crop, factor, box: inCrop };
}

/**
 * The face of `found` in its close crop, found again there by SSD; undefined when SSD does not
 * find it there: a pattern the Tiny detector took for a face in the shrunk photo (a card with no
 * portrait, turned) is no portrait.
 */
async function closeLook(model: FaceModel, found: Found, { upright, crop, factor }: CloseCrop): Promise<Portrait | undefined> {
  const face = await largestIn(model, crop, 'ssd');
  if (!face) return undefined;
  return { image: crop, face, sourceSide: Math.min(face.box.width, face.box.height) / factor, sharpness: await sharpnessOf(upright, found) };
}

/**
 * The sharpness of `found`'s face where it was found, or in the photo's own pixels (`upright`:
 * the photo turned as the view was) when it is smaller there than the measure's side: a card small
 * in the frame leaves a face of 25 – 60 px in the shrunk photo, which the measure would enlarge to
 * its side and judge blurred (5 – 43 there on the sample cards, 12 – 56 in the photo's own pixels).
 */
async function sharpnessOf(upright: DecodedImage, { face: { box }, view }: Found): Promise<number> {
  if (Math.min(box.width, box.height) >= SHARPNESS_SIDE) return faceSharpness(view, box);
  const scale = upright.width / view.width;
  return faceSharpness(upright, { x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale });
}

/**
 * A face SSD found in a turn of the shrunk photo but did not find again in the close look (on the
 * sample cards, a card out of focus, or small in the frame), described in its close crop where it
 * was found: described in the shrunk photo instead, from a face of about 28 px there, a held-out
 * card small in the frame matched its person at 44.7, and at 65.4 in the crop. SSD found no face on
 * the card without a portrait in any turn or skew, where the Tiny detector took a pattern for one.
 */
async function asFound(found: Found, { upright, crop, factor, box }: CloseCrop): Promise<Portrait> {
  return {
    image: crop,
    face: faceAt(found.face, box, crop),
    sourceSide: Math.min(box.width, box.height) / factor,
    sharpness: await sharpnessOf(upright, found),
  };
}

/**
 * The portrait of a card so small in the frame that no detector found it in the whole photo shrunk
 * to 640 px (a face of about 28 px there): searched for by the Tiny detector in each quarter turn of
 * four overlapping tiles, and confirmed by the close look, as everywhere, so that a pattern the
 * Tiny detector takes for a face on a card without a portrait is no portrait.
 */
async function inTiles(model: FaceModel, photo: DecodedImage): Promise<Portrait | undefined> {
  const width = Math.round(photo.width * TILE_FRACTION);
  const height = Math.round(photo.height * TILE_FRACTION);
  const found: { tile: DecodedImage; found: Found }[] = [];
  for (const y of [0, photo.height - height]) {
    for (const x of [0, photo.width - width]) {
      const tile = await cropped(photo, { x, y, width, height });
      const view = await shrunk(tile, INPUT_MAX_SIDE);
      for (const turn of await searchTurns(model, view, QUARTER_TURNS, 'tiny', false)) found.push({ tile, found: turn });
    }
  }
  let best: Portrait | undefined;
  for (const candidate of found.sort((a, b) => b.found.face.score - a.found.face.score).slice(0, CANDIDATES)) {
    best ??= await closeLook(model, candidate.found, await closeCrop(candidate.tile, candidate.found));
  }
  return best;
}

/**
 * The card's portrait, cut from the photo at its own resolution and enlarged; undefined
 * when no face is found in any turn nor in any tile, or none is confirmed in the close look. A
 * large face found upright in the shrunk photo is looked at closely first, without searching the
 * other turns; the tiles are searched only when nothing else found a face, so they cost only a
 * photo that shows none (× 1.45 on a card without a portrait, docs/benchmarks.md).
 */
export async function findPortrait(model: FaceModel, photo: DecodedImage): Promise<Portrait | undefined> {
  const reduced = await shrunk(photo, INPUT_MAX_SIDE);
  const face = await largestIn(model, reduced, 'tiny');
  const upright = face ? { face, turn: 0, view: reduced } : undefined;
  const lookedFirst = upright && Math.min(upright.face.box.width, upright.face.box.height) >= UPRIGHT_FIRST_SIDE;
  let best = lookedFirst ? await closeLook(model, upright, await closeCrop(photo, upright)) : undefined;
  if (!best) {
    // On the sample cards, SSD never found a face in the close look at a wrong turn, so the next
    // turn is looked at only when this one showed none.
    const { candidates, bySsd } = await candidateTurns(model, reduced, lookedFirst ? undefined : upright);
    if (!bySsd) for (const found of candidates) best ??= await closeLook(model, found, await closeCrop(photo, found));
    if (!best) {
      // No Tiny candidate found again: SSD's own detection (the one candidate when Tiny found none),
      // looked at closely, or else described as it was found, in the same crop.
      const [ssd] = bySsd ? candidates : await searchTurns(model, reduced, [...QUARTER_TURNS, ...SKEWS], 'ssd', true);
      if (ssd) {
        const close = await closeCrop(photo, ssd);
        best = (await closeLook(model, ssd, close)) ?? (await asFound(ssd, close));
      }
    }
  }
  return best ?? (await inTiles(model, photo));
}
