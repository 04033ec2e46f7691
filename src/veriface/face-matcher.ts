import { UNUSABLE_PHOTO_REASONS, type UnusablePhotoReason } from './unusable-photos.js';

export { UNUSABLE_PHOTO_REASONS, type UnusablePhotoReason };

/** What a person reads about an unusable photo, with what to do about it. */
export const UNUSABLE_PHOTO_EXPLANATIONS: Readonly<Record<UnusablePhotoReason, string>> = {
  IMAGE_UNREADABLE: 'the photo could not be read as an image, take it again',
  NO_FACE: 'no face was found in the photo of the face, take it again facing the camera',
  MULTIPLE_FACES: 'more than one face is in the photo of the face, take it again alone',
  FACE_TOO_SMALL: 'the face is too small in the photo, take it again closer',
  FACE_BLURRY: 'the face is blurred in the photo, take it again holding the camera still',
  DOCUMENT_NO_FACE: 'no portrait was found on the photo of the document, take it again with the whole document in view',
};

export type PhotoRole = 'face' | 'document';

/**
 * How likely the face photo shows a person in front of the camera rather than a printed or
 * on-screen picture (src/veriface/face/liveness-model.ts): a score from 0 to 1 and whether it is
 * below the configured threshold. A signal, not a proof: docs/face-matching.md says what it misses.
 */
export interface LivenessSignal {
  score: number;
  suspect: boolean;
}

/**
 * The comparison of a face with the portrait of an identity document: how alike they are from 0
 * to 100 and whether that reaches the configured threshold, with the face's liveness when the
 * matcher scores it, or why a photo could not be used.
 */
export type FaceComparison = { similarity: number; matches: boolean; liveness?: LivenessSignal } | { unusable: UnusablePhotoReason; photo: PhotoRole };

/**
 * Whose photos these are, so that the face workers are shared fairly between flows
 * (src/veriface/face/worker-pool.ts): a person's link (a participant, a face validation, WhatsApp
 * included) or an organization's API calls.
 */
export interface MatcherFlow {
  kind: 'person' | 'organization';
  /** The participant's or face validation's id, or the organization's. */
  id: string;
}

/**
 * Compares a face photo with the photo on an identity document. The service decides with the
 * answer; a matcher that cannot decide answers undefined and the process waits for a person.
 */
export interface FaceMatcher {
  compare(input: { documentPhoto: Buffer; facePhoto: Buffer; flow: MatcherFlow }): Promise<FaceComparison | undefined>;
  /** Stops whatever the matcher runs beside the service (its worker threads). */
  close(): Promise<void>;
}

/**
 * FACE_MATCHER=manual: nothing is decided by a machine, so every finished validation is BLOCKED
 * for manual review, as the real service does when it cannot validate automatically.
 */
export const manualReview: FaceMatcher = {
  async compare() {
    return undefined;
  },
  async close() {},
};
