import crypto from 'node:crypto';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { DEFAULT_FACE_MATCH_THRESHOLD } from '../../src/config.js';
import type { FaceComparison, FaceMatcher } from '../../src/veriface/face-matcher.js';

/** A small photo of noise, large enough for the photo checks (src/veriface/images.ts). */
const noise = sharp(crypto.randomBytes(240 * 240 * 3), { raw: { width: 240, height: 240, channels: 3 } });
const BASE_JPEG = await noise.clone().jpeg().toBuffer();
const BASE_PNG = await noise.clone().png().toBuffer();

/** A whole JPEG: the same picture each time, with a comment segment of random bytes so that no two are alike. */
export function jpeg(): Buffer {
  const comment = crypto.randomBytes(600);
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(comment.length + 2, 2);
  return Buffer.concat([BASE_JPEG.subarray(0, 2), header, comment, BASE_JPEG.subarray(2)]);
}

/** A whole PNG: the same picture each time, with a private chunk of random bytes after its header so that no two are alike. */
export function png(): Buffer {
  const data = crypto.randomBytes(600);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('ruSt', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(zlib.crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  const afterHeader = 8 + 25;
  return Buffer.concat([BASE_PNG.subarray(0, afterHeader), chunk, BASE_PNG.subarray(afterHeader)]);
}

/**
 * A matcher the test decides for, standing in for the real one behind the same interface (the
 * real one runs in test/face-matcher.test.ts and the flows' face tests): a similarity from the
 * default threshold up matches, undefined leaves the decision to a person.
 */
export function matcher(answer: number | FaceComparison | undefined): FaceMatcher & { calls: number } {
  const m = {
    calls: 0,
    async compare() {
      m.calls++;
      if (typeof answer !== 'number') return answer;
      return { similarity: answer, matches: answer >= DEFAULT_FACE_MATCH_THRESHOLD };
    },
    async close() {},
  };
  return m;
}
