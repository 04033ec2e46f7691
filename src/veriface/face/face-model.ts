import { createRequire } from 'node:module';
import path from 'node:path';
// The same TensorFlow.js instance face-api's bundle requires, whose typings lack the backend calls.
import * as tf from '@tensorflow/tfjs';
import * as faceapi from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import type { DecodedImage } from './decode-image.js';
import { boxAgain } from './face-alignment.js';
import type { Box } from './sharpness.js';

/** A face the detector found: where, how sure it is, and (once asked for) its descriptor. */
export interface DetectedFace {
  box: Box;
  score: number;
  detection: faceapi.FaceDetection;
}

/**
 * Below this detection score a "face" is more often a pattern or a shadow. Measured: no detection
 * at all on the non-face test images even at 0.2; the portrait on a photographed, slightly blurred
 * ID card scored 0.40 to 0.74 with SSD, so 0.5 (face-api's default) missed one of six.
 */
const MIN_DETECTION_SCORE = 0.4;

/** Tiny Face Detector's input side: 416 found every test face but the largest close-ups, at 60 to 160 ms. */
const TINY_INPUT_SIZE = 416;

/**
 * face-api on TensorFlow.js's WebAssembly backend, with the weights its npm package ships: two
 * detectors, the 68-point landmarks (to align the face) and the ResNet-34 recognition network (128
 * numbers per face). Loaded once per thread; nothing is fetched from the network.
 */
/**
 * Which detector looks: the Tiny Face Detector, then SSD MobileNet v1 when it found nothing (the
 * default); or only one of them, when the caller knows which it needs.
 */
export type Detectors = 'tiny-then-ssd' | 'tiny' | 'ssd';

export interface FaceModel {
  detect(image: DecodedImage, detectors?: Detectors): Promise<DetectedFace[]>;
  /**
   * The face's 128 numbers, where its landmarks place it: found in the detector's box, or again
   * in the square they first gave when that box is off them (face-alignment.ts).
   */
  describe(image: DecodedImage, face: DetectedFace): Promise<Float32Array | undefined>;
}

function modelDirectory(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
}

function toTensor(image: DecodedImage): faceapi.tf.Tensor3D {
  return faceapi.tf.tensor3d(image.pixels, [image.height, image.width, 3], 'int32');
}

/** The 68 landmarks of this face only (not of every face the detector found), in the image's pixels. */
function landmarksIn(tensor: faceapi.tf.Tensor3D, face: DetectedFace) {
  const detected = Promise.resolve(faceapi.extendWithFaceDetection({}, face.detection));
  return new faceapi.DetectSingleFaceLandmarksTask(detected, tensor, false).run();
}

/** Starts the WebAssembly backend and reads the three networks from node_modules. */
export async function loadFaceModel(): Promise<FaceModel> {
  // The wasm backend finds its .wasm files next to its own module in Node; setWasmPaths would
  // turn the path into a URL and fail.
  await tf.setBackend('wasm');
  await tf.ready();
  const directory = modelDirectory();
  await faceapi.nets.tinyFaceDetector.loadFromDisk(directory);
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(directory);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(directory);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(directory);
  const tiny = new faceapi.TinyFaceDetectorOptions({ inputSize: TINY_INPUT_SIZE, scoreThreshold: MIN_DETECTION_SCORE });
  const ssd = new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_DETECTION_SCORE });
  return {
    async detect(image, detectors = 'tiny-then-ssd') {
      const tensor = toTensor(image);
      try {
        // The Tiny Face Detector is four times faster than SSD MobileNet and found the portraits on
        // photographed ID cards with higher scores, but misses faces that fill the frame, which
        // SSD finds: SSD runs only when the tiny one found nothing.
        const quick = detectors === 'ssd' ? [] : await faceapi.detectAllFaces(tensor, tiny);
        const detections = quick.length > 0 || detectors === 'tiny' ? quick : await faceapi.detectAllFaces(tensor, ssd);
        return detections.map((detection) => ({
          box: { x: detection.box.x, y: detection.box.y, width: detection.box.width, height: detection.box.height },
          score: detection.score,
          detection,
        }));
      } finally {
        tensor.dispose();
      }
    },
    async describe(image, face) {
      const tensor = toTensor(image);
      try {
        const found = await landmarksIn(tensor, face);
        if (!found) return undefined;
        const again = boxAgain(face.box, found.landmarks.positions, image);
        const placed = again ? await landmarksIn(tensor, faceAt(face, again, image)) : found;
        if (!placed) return undefined;
        return (await new faceapi.ComputeSingleFaceDescriptorTask(Promise.resolve(placed), tensor))?.descriptor;
      } finally {
        tensor.dispose();
      }
    },
  };
}

/** `face`'s detection moved to `box` of `image` (the same face cut out and enlarged): described there, not where it was found. */
export function faceAt(face: DetectedFace, box: Box, image: DecodedImage): DetectedFace {
  const relative = new faceapi.Rect(box.x / image.width, box.y / image.height, box.width / image.width, box.height / image.height);
  return { box, score: face.score, detection: new faceapi.FaceDetection(face.score, relative, { width: image.width, height: image.height }) };
}

export function descriptorDistance(a: Float32Array, b: Float32Array): number {
  return faceapi.euclideanDistance(a, b);
}
