import sharp, { type Sharp } from 'sharp';
import type { DecodedImage } from './decode-image.js';
import type { Box } from './sharpness.js';

/** What a turned image's new corners are filled with: a flat grey, where no detector sees a face. */
const FILL = '#808080';

const pipelineOf = (image: DecodedImage) => sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 3 } });

async function decodedOf(pipeline: Sharp): Promise<DecodedImage> {
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { pixels: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** The image turned `degrees` clockwise about its centre, on a canvas grown to hold all of it. */
export function turned(image: DecodedImage, degrees: number): Promise<DecodedImage> {
  return degrees === 0 ? Promise.resolve(image) : decodedOf(pipelineOf(image).rotate(degrees, { background: FILL }));
}

/** The image shrunk to at most `maxSide` a side (never enlarged). */
export function shrunk(image: DecodedImage, maxSide: number): Promise<DecodedImage> {
  if (image.width <= maxSide && image.height <= maxSide) return Promise.resolve(image);
  return decodedOf(pipelineOf(image).resize({ width: maxSide, height: maxSide, fit: 'inside' }));
}

/** `box` in whole pixels, clamped to the image: the region a crop of it holds. */
export function clamped(image: DecodedImage, box: Box): { left: number; top: number; width: number; height: number } {
  const left = Math.max(0, Math.floor(box.x));
  const top = Math.max(0, Math.floor(box.y));
  const width = Math.max(1, Math.min(image.width - left, Math.round(box.width + Math.min(0, box.x))));
  const height = Math.max(1, Math.min(image.height - top, Math.round(box.height + Math.min(0, box.y))));
  return { left, top, width, height };
}

/** `box` cut out (clamped to the image), at the image's own resolution. */
export function cropped(image: DecodedImage, box: Box): Promise<DecodedImage> {
  return decodedOf(pipelineOf(image).extract(clamped(image, box)));
}

/** `box` cut out (clamped to the image) and resized by `factor` with a Lanczos filter, which keeps edges that a bilinear enlargement smears. */
export function enlargedCrop(image: DecodedImage, box: Box, factor: number): Promise<DecodedImage> {
  const region = clamped(image, box);
  return decodedOf(
    pipelineOf(image)
      .extract(region)
      .resize(Math.max(1, Math.round(region.width * factor)), Math.max(1, Math.round(region.height * factor)), { kernel: 'lanczos3', fit: 'fill' }),
  );
}

/**
 * The image's luminance stretched over the full range: the crop of a card photographed in dim
 * light, or in a shadow, had a median luminance of 75 of 255, and SSD did not find the face in it.
 */
export function normalised(image: DecodedImage): Promise<DecodedImage> {
  return decodedOf(pipelineOf(image).normalise());
}
