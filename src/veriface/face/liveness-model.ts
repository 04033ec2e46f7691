import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
// The same TensorFlow.js instance (and WebAssembly backend) face-api's networks run on.
import * as tf from '@tensorflow/tfjs';
import type { DecodedImage } from './decode-image.js';
import type { Box } from './sharpness.js';

/**
 * How @vladmandic/human 3.3.6 prepares a face for these two networks (dist/human.esm-nobundle.js):
 * its detector's box grown 1.4 times about its centre and squared on the longer side, cut out and
 * resized to the face mesh's 192 × 192 input, scaled to 0 – 1, then resized again (bilinear) to
 * each network's own input (128 px for anti-spoofing, 32 px for liveness). The box here is
 * face-api's, which frames the same forehead-to-chin area as human's detector.
 */
const BOX_SCALE = 1.4;
const FACE_CROP_SIDE = 192;

/**
 * Two networks of @vladmandic/human score a face from 0 to 1, rounded to two decimals as human
 * rounds them; higher is more likely a person in front of the camera. `score` is the liveness
 * network's first class: the service decides on it. `antispoofScore` is the anti-spoofing
 * network's: measured by `npm run bench` on genuine selfies and on printed and on-screen faces, it
 * does not separate them (docs/face-matching.md), so no photo waits for it.
 */
export interface LivenessModel {
  score(image: DecodedImage, face: Box): Promise<number>;
  antispoofScore(image: DecodedImage, face: Box): Promise<number>;
}

function modelDirectory(): string {
  // The package exports no package.json: its main file (dist/human.node.js, never loaded) is found instead.
  return path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/human')), '..', 'models');
}

/** A graph model read from memory, as TensorFlow.js types it. */
type Network = ReturnType<typeof tf.loadGraphModelSync>;

function isModelJson(value: unknown): value is tf.io.ModelJSON {
  return typeof value === 'object' && value !== null && 'modelTopology' in value && 'weightsManifest' in value && Array.isArray(value.weightsManifest);
}

async function readGraphModel(name: 'antispoof' | 'liveness'): Promise<Network> {
  const directory = modelDirectory();
  const json: unknown = JSON.parse(await fs.readFile(path.join(directory, `${name}.json`), 'utf8'));
  if (!isModelJson(json)) throw new Error(`${name}.json is not a TensorFlow.js graph model`);
  // Each of these models keeps its weights in one file, named after it.
  const weights = await fs.readFile(path.join(directory, `${name}.bin`));
  const buffer = weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength);
  return tf.loadGraphModelSync([json, buffer]);
}

const rounded = (value: number) => Math.round(value * 100) / 100;

async function firstOutput(model: Network, input: tf.Tensor4D): Promise<number> {
  const output = model.execute(input);
  const tensor = Array.isArray(output) ? output[0] : output;
  if (!tensor || !(tensor instanceof tf.Tensor)) throw new Error('a liveness network answered no tensor');
  try {
    const [value] = await tensor.data();
    return rounded(value ?? 0);
  } finally {
    tf.dispose(output);
  }
}

/** human's face tensor: the box grown and squared, cut out at 192 × 192, scaled to 0 – 1 (outside the photo is black). */
function faceCrop(image: DecodedImage, face: Box): tf.Tensor4D {
  const side = Math.max(face.width, face.height) * BOX_SCALE;
  const [cx, cy] = [face.x + face.width / 2, face.y + face.height / 2];
  const box: [number, number, number, number] = [
    (cy - side / 2) / image.height,
    (cx - side / 2) / image.width,
    (cy + side / 2) / image.height,
    (cx + side / 2) / image.width,
  ];
  const pixels = tf.tensor4d(image.pixels, [1, image.height, image.width, 3], 'int32').toFloat();
  return tf.image.cropAndResize(pixels, [box], [0], [FACE_CROP_SIDE, FACE_CROP_SIDE]).div(255);
}

/** The input side a network declares (NHWC: its height). */
function inputSide(model: Network): number {
  const side = model.inputs[0]?.shape?.[1];
  if (!side || side < 1) throw new Error('a liveness network declares no input size');
  return side;
}

/**
 * Reads @vladmandic/human's anti-spoofing and liveness networks from node_modules (nothing is
 * fetched) on the backend already started by the face model (loadFaceModel).
 */
export async function loadLivenessModel(): Promise<LivenessModel> {
  const [antispoof, liveness] = await Promise.all([readGraphModel('antispoof'), readGraphModel('liveness')]);
  const [antispoofSide, livenessSide] = [inputSide(antispoof), inputSide(liveness)];
  // The face cut out as human cuts it, then resized to the network's input, and scored.
  const scoreWith = async (network: Network, side: number, image: DecodedImage, face: Box): Promise<number> => {
    const input = tf.tidy(() => tf.image.resizeBilinear(faceCrop(image, face), [side, side]));
    try {
      return await firstOutput(network, input);
    } finally {
      input.dispose();
    }
  };
  return {
    score: (image, face) => scoreWith(liveness, livenessSide, image, face),
    antispoofScore: (image, face) => scoreWith(antispoof, antispoofSide, image, face),
  };
}
