import type { PadesLevel } from '../../../pdf-signing/pades-level.js';

/** Every text the seal writes into final documents, in one language. */
export interface SealLabels {
  htmlLang: string;
  certificateTitle: string;
  intro: (code: string, timeZone: string) => string;
  /** The intro of a process with no document, which only collected participants' files (POST /package/upload). */
  introFilesOnly: (code: string, timeZone: string) => string;
  process: string;
  code: string;
  name: string;
  createdBy: string;
  created: string;
  finished: string;
  documents: string;
  documentColumns: [string, string, string, string];
  templateType: string;
  pdfType: string;
  participants: string;
  /** Participants are shown by their number in the process: their id, with the process code, opens their flow in the SDK. */
  participantNumber: string;
  email: string;
  phone: string;
  role: string;
  signer: string;
  approver: string;
  /** A signer's role, and what they did, where there was nothing to sign: they gave files. */
  givesFiles: string;
  signerType: string;
  identification: string;
  country: string;
  validationsRequested: string;
  noValidations: string;
  otpBy: (channel: 'phone' | 'email') => string;
  identityFace: string;
  identityDocument: string;
  notifiedBy: string;
  notifiedByIntegrator: string;
  channel: (channel: 'email' | 'whatsapp') => string;
  and: string;
  opened: string;
  codeVerification: string;
  identityVerification: string;
  signed: string;
  approved: string;
  gaveFiles: string;
  notDone: string;
  notRequested: string;
  notVerified: string;
  verified: (at: string) => string;
  ipAddress: string;
  browser: string;
  signatureImage: string;
  auditTrail: string;
  auditColumns: [string, string, string, string, string, string, string];
  finalFiles: string;
  finalFilesElsewhere: string;
  finalFileColumns: [string, string, string, string];
  finalTemplate: string;
  finalPdf: string;
  certificateFile: string;
  signedElectronically: string;
  approvedElectronically: string;
  /** The word an approver's stamp shows where the document places it. */
  approvalStamp: string;
  signatures: string;
  verifyAt: string;
  page: string;
  of: string;
  sealReason: string;
  /** What the downloads are named with: `Lease - firmado.pdf`, `Lease - certificado.pdf`. */
  signedFileWord: string;
  certificateFileWord: string;
  /** The section saying how the final files are sealed (issue 44). */
  sealSection: string;
  sealLevel: string;
  sealLevels: Record<PadesLevel, string>;
  sealChain: string;
  sealTimestamps: string;
  /** What timestamps a seal at each level carries: their times are known only once it is made. */
  sealTimestampsOf: Record<PadesLevel, string>;
  sealRevocation: string;
  yes: string;
  no: string;
  // The identity checks of a participant whose face is compared with the identification document
  attemptColumns: [string, string, string, string, string, string];
  attemptSucceeded: string;
  attemptFailed: string;
  /** How the number read on the document compared with the declared one, and where it was read. */
  numberMatches: (source: string) => string;
  numberDiffers: (source: string) => string;
  numberUnread: (reason: string) => string;
  numberSources: { PDF417: string; MRZ: string; OCR: string };
  identityHash: string;
  /** The files a participant attached, each with its SHA-256 as received. */
  attachmentColumns: [string, string, string, string];
  /** The creator's review of an attached file (PUT /attachments), in the attachments table's last column. */
  attachmentReview: { approved: string; rejected: string };
}
