import crypto from 'node:crypto';
import { DEFAULT_FACE_MATCH_THRESHOLD } from '../../src/config.js';
import type { FaceComparison, FaceMatcher } from '../../src/veriface/face-matcher.js';

/** A JPEG as the image checks see one: its first bytes, then random ones, so that no two are alike. */
export const jpeg = (): Buffer => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(600)]);

/** A PNG as the image checks see one: its signature, then random bytes. */
export const png = (): Buffer => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(600)]);

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
