import type { ParticipantRow, ProcessStatus } from '../../db/schema.js';
import type { UnusablePhotoReason } from '../../veriface/unusable-photos.js';
import type { CameraMode, OtpMedium } from '../identity-validations.js';

// What a participant's steps answer. Types only, free of server code: the people's pages import them.

export interface SigningRequirements {
  otpCode: { required: boolean; medium?: OtpMedium; verified: boolean };
  camera: {
    required: boolean;
    mode?: CameraMode;
    /** Whether a photo of the back of the identity document is asked for too. */
    documentBack: boolean;
    captured: { face: boolean; documentFront: boolean; documentBack: boolean };
    verified: boolean;
    /** Identity checks that failed (a face, or the document's number, that did not match); the MAX_FAILURES-th blocks. */
    failures: number;
    /** Why the last check failed, so the page can ask for the right retake; never the similarity. */
    lastFailure?: 'FACE_MISMATCH' | 'DOCUMENT_NUMBER_MISMATCH' | UnusablePhotoReason;
  };
}

/**
 * Where the participant signs on a document's page, in PDF points from the page's bottom-left
 * corner (src/documents/placement/box-queries.ts); `document` is the process's 0-based document.
 */
export interface SigningBox {
  document: number;
  page: number;
  left: number;
  bottom: number;
  width: number;
  height: number;
}

/** A file asked of the participant, as their own page shows it; what they gave is named by its type and size only. */
export interface AttachmentAsked {
  /** 0-based, what the page sends back when it gives the file. */
  position: number;
  name: string;
  description?: string;
  optional: boolean;
  given?: { contentType: AttachmentType; size: number };
  /** The creator rejected the file given: it is asked again, for this reason. */
  rejected?: { reason: string };
}

export type AttachmentType = 'application/pdf' | 'image/jpeg' | 'image/png';

export interface SigningView {
  code: string;
  name: string;
  /** Each document with a download URL of five minutes. */
  documents: { name: string; url: string }[];
  participant: { id: string; name: string; role: ParticipantRow['role']; status: ParticipantRow['status'] };
  requirements: SigningRequirements;
  /** Every identity validation asked of the participant is met, and every file they must give is given. */
  canSign: boolean;
  /** The files asked of the participant, in order; none when the process asks none. */
  attachments: AttachmentAsked[];
  /** The participant's own boxes, never another participant's; none when the process places no signature. */
  boxes: SigningBox[];
  /** The documents (0-based positions) the participant opened on their page: a signer signs once every one is. */
  openedDocuments: number[];
}

export interface SigningOutcome {
  status: ParticipantRow['status'];
  processStatus: ProcessStatus;
}
