/** How alike the face on the document and the face photographed are, from 0 to 100. */
export interface FaceComparison {
  similarity: number;
}

/**
 * Compares a face photo with the photo on an identity document. The service decides with the
 * answer; a matcher that cannot decide answers undefined and the process waits for a person.
 */
export interface FaceMatcher {
  compare(input: { documentPhoto: Buffer; facePhoto: Buffer }): Promise<FaceComparison | undefined>;
}

/**
 * The matcher in force while no automatic one is configured: nothing is decided by a machine, so
 * every finished validation is BLOCKED for manual review, as the real service does when it cannot
 * validate automatically.
 */
export const manualReview: FaceMatcher = {
  async compare() {
    return undefined;
  },
};

/** Similarity from which a validation is approved automatically (0 to 100, as GET /veriface shows it). */
export const APPROVAL_THRESHOLD = 80;
