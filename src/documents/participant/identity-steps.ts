/**
 * What a participant's identity steps collect (the one-time code, the photos, the comparison, the
 * count of failures): none of it yet, as a participant is created, or once more from nothing, as the
 * person who takes a handed-over place starts. An unlock's reset clears the same fields but keeps
 * the verifications already passed (unlock-participant.ts).
 */
export const NO_IDENTITY_STEPS = {
  opened_at: null,
  otp_hash: null,
  otp_expires_at: null,
  otp_failures: 0,
  otp_sent_at: null,
  otp_verified_at: null,
  face_key: null,
  document_front_key: null,
  document_back_key: null,
  similarity: null,
  camera_failures: 0,
  camera_last_failure: null,
  camera_verified_at: null,
  signature_key: null,
} as const;
