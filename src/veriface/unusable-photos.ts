/**
 * Why a photo could not be compared: each one asks the person for a retake, none counts as a
 * failed attempt. A real mismatch is not among them (it is a similarity below the threshold).
 * Free of server code: the people's pages read these reasons too.
 */
export const UNUSABLE_PHOTO_REASONS = ['IMAGE_UNREADABLE', 'NO_FACE', 'MULTIPLE_FACES', 'FACE_TOO_SMALL', 'FACE_BLURRY', 'DOCUMENT_NO_FACE'] as const;
export type UnusablePhotoReason = (typeof UNUSABLE_PHOTO_REASONS)[number];
