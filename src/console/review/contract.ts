/*
 * What the review queue's routes answer, as types only: the console's page imports them type-only
 * (src/people/web/console/review-api.ts), so this module imports nothing of the server.
 */

export type ReviewKind = 'signer' | 'validation';
export type ReviewPhoto = 'documentFront' | 'documentBack' | 'face';
export type ReviewDecision = 'approve' | 'reject' | 'reset';
export type SimilarityBand = 'high' | 'borderline' | 'low';

export interface ReviewAttempt {
  date: string;
  successful: boolean;
  similarity?: number;
  reasons: string[];
}

/**
 * One blocked signer or face validation as the console's review queue shows it. The similarity is
 * given with its band: every reviewer is the organization's own staff, who read the number
 * through the private key anyway; the band says what it means against the matcher's threshold.
 */
export interface ReviewItem {
  kind: ReviewKind;
  /** A validation's code, or a signer's process code followed by their participant id, as the API names them. */
  code: string;
  name: string;
  process?: { code: string; name: string };
  blockedAt: string;
  reason: string;
  similarity?: number;
  band?: SimilarityBand;
  liveness?: number;
  numberDeclared?: string;
  numberRead?: string;
  numberCheck?: 'MATCH' | 'MISMATCH' | 'UNREAD';
  /** Failed checks so far: wrong codes and faces or numbers that did not match. */
  failures: number;
  attempts: ReviewAttempt[];
  /** The photos the console may show (GET /console/api/review/photo): the person's latest. */
  photos: ReviewPhoto[];
  decisions: ReviewDecision[];
}
