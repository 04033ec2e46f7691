import type { ParticipantRow, VerifaceRow } from '../db/schema.js';
import type { AnswerRefusal } from '../documents/creating/answer-refusal.js';
import type { OtpMedium } from '../documents/identity-validations.js';
import type { AttachmentAsked, SigningBox, SigningOutcome, SigningRequirements, SigningView } from '../documents/participant/signing-view.js';
import type { Language } from '../organizations/languages.js';
import type { QuestionType } from '../templates/question-types.js';
import type { PersonView } from '../veriface/person-view.js';

/*
 * The people's API on the wire: what each route takes and answers. The handlers answer these types
 * and the pages' browser code imports them (type-only), so the two cannot drift apart. Types only,
 * importing only modules free of server code: the pages' tsconfig, which has no Node types, checks it.
 */

export type { AttachmentAsked, PersonView, SigningBox, SigningOutcome, SigningRequirements, SigningView };

// What the routes take.

export interface PhotoInput {
  kind: 'face' | 'documentFront' | 'documentBack';
  image: string;
}

export interface OtpCheckInput {
  code: string;
}

export interface FinishInput {
  consent: boolean;
}

/** How a signature is made: drawn, or the name typed (shown in a handwriting-like font). */
export type SignatureKind = 'draw' | 'font';

export interface SignInput {
  consent: boolean;
  /** The drawn or typed signature as a PNG, placed in the final document. */
  signature?: string;
  /** Which of the two `signature` is; without it, a signature counts as drawn and none as typed. */
  signatureKind?: SignatureKind;
}

/** POST /people/signing/opened: the page showed this document (0-based position in the process). */
export interface OpenedInput {
  document: number;
}

/** POST /people/signing/opened: the documents the participant opened so far. */
export interface DocumentsOpened {
  openedDocuments: number[];
}

/** POST /people/signing/attachment: one of the files asked (its 0-based position) and its bytes in base64. */
export interface AttachmentInput {
  attachment: number;
  file: string;
}

export interface RejectInput {
  reason: string;
}

/**
 * POST /people/signing/delegate: the person the signer hands their place to, and why. The e-mail
 * is always asked (every participant is reached by it); the phone and the identification when the
 * place's validations need them.
 */
export interface DelegateInput {
  name: string;
  email: string;
  phone?: string;
  identification?: string;
  identificationType?: string;
  country?: string;
  reason: string;
}

/** POST /people/signing/delegate: the place was handed over; this link now opens nothing. */
export interface Delegated {
  delegated: true;
  to: string;
}

export interface SendLinkInput {
  channel: PhoneChannel;
}

export type PhoneChannel = 'sms' | 'whatsapp';

export type EmbedFlow = 'sign' | 'validation' | 'fill';

/** The SDK's `fill` flow: what names the form beside its template (`document`). */
export interface EmbedFillInput {
  /** A prebuilt process of the organization to complete, with `preBuild: true`. */
  code?: string;
  preBuild?: boolean;
  /** A reference link of the organization (its id or its token): its settings apply. */
  reference?: string;
}

/** POST /people/embed: what the SDK's frame received from the page that embeds it. */
export interface EmbedInput extends EmbedFillInput {
  keyPublic: string;
  /** The SDK's `document`: a face-validation code, a process code followed by the participant's id, or a template id (the fill flow). */
  document: string;
  /** The origin of the page that embeds the frame, as the browser gave it to the frame (`event.origin`). */
  parentOrigin: string;
  /** A token the organization's backend minted for this document and origin (POST /sdk/token), through the SDK's `onSDKToken`. */
  token?: string;
  /** The SDK's `language`: kept as the person's, so their messages speak what their frame does. */
  language?: Language;
}

// What the routes answer.

/**
 * Which page the participant sees: `act` (their turn: read, verify, sign or reject), `waiting`
 * (earlier participants first), `done` (they finished; others have not), and the pages of a process
 * that ended: `finished`, `rejected`, `expired`, `cancelled`; `blocked` when three failed checks
 * stopped them; `delegated` when the person of this link handed their place to another, whose
 * link it is now (this one shows only that).
 */
/** `editing`: the creator is correcting the process (edit mode); nothing to read or do until the new invitation. */
export type SigningPageState = 'act' | 'waiting' | 'done' | 'blocked' | 'review' | 'finished' | 'rejected' | 'expired' | 'cancelled' | 'delegated' | 'editing';

export interface PageDocument {
  /** The evidence certificate is named by the page in the person's language. */
  kind: 'document' | 'certificate';
  name: string;
  /** A download URL of five minutes. */
  url: string;
  contentType: string;
  /** The document's 0-based position in the process, which boxes and openings name; not for the certificate. */
  position?: number;
}

/**
 * The organization's colours (PUT /company uxOptions) as its pages apply them, kept readable
 * (src/company/page-colours.ts); absent when it chose none. Colours the SDK passes win when embedded.
 */
export interface PageColours {
  primary: string;
  onPrimary: string;
}

export interface SigningPage {
  state: SigningPageState;
  language: Language;
  colours?: PageColours;
  process: { code: string; name: string; message: string; organization: string };
  participant: { id: string; name: string; role: ParticipantRow['role']; status: ParticipantRow['status'] };
  /** Everyone taking part, in order, by name only: no e-mail or phone of anyone reaches the page. */
  participants: { name: string; role: ParticipantRow['role']; status: ParticipantRow['status']; you: boolean }[];
  /** The names of those the participant waits for (state waiting or done). */
  waitingFor: string[];
  /** The documents to read; once the process is finished and sealed, the signed files and the certificate. */
  documents: PageDocument[];
  /** Whether the organization gave a phone for the participant, so the page may offer to send the link to it. */
  phoneOnRecord: boolean;
  /** The kinds of signature the participant may use (their template's `allow`): the page offers only these. */
  signatureKinds: SignatureKind[];
  /** Only while it is the participant's turn. */
  requirements?: SigningRequirements;
  canSign?: boolean;
  /** Only while it is the participant's turn: where they sign, their boxes only. */
  boxes?: SigningBox[];
  /** Only while it is the participant's turn: the documents they opened (a signer must open every one). */
  openedDocuments?: number[];
  /** Only while it is the participant's turn: the files asked of them, and what they gave (type and size). */
  attachments?: AttachmentAsked[];
  /** A finished process whose signed files are still being written. */
  sealing?: boolean;
  /** A rejected process that this participant's own step ended: they rejected, or their identity was. */
  rejection?: 'yours' | 'identity';
  /**
   * While it is their turn, when their organization lets signers hand their place to another
   * person: what the delegate must be given beside a name and an e-mail.
   */
  delegation?: { phone: boolean; identification: boolean };
  /** State delegated: the name of the person this link's holder handed their place to. */
  delegatedTo?: string;
}

/**
 * Where a reader's process is: `following` while it is in signature, then how it ended. A reader
 * never acts, so there is no turn, step or refusal of theirs.
 */
export type ReadingPageState = 'following' | 'finished' | 'rejected' | 'expired' | 'cancelled' | 'editing';

/**
 * A reader's page (/read/<token>): what they follow, read-only. Built field by field: no code,
 * participant id, contact, link or identity photo of anyone reaches it.
 */
export interface ReadingPage {
  state: ReadingPageState;
  language: Language;
  colours?: PageColours;
  process: { name: string; message: string; organization: string };
  /** Everyone who takes part, in order, by name only (`you` is never true: the reader takes no part). */
  participants: SigningPage['participants'];
  /** What the participants read; once sealed, the signed files and the certificate. A CC address sees only those. */
  documents: PageDocument[];
  /** A finished process whose signed files are still being written. */
  sealing?: boolean;
}

/**
 * The person's page of a face validation: `capture` while in progress, then the outcome in words:
 * `approved` (APPROVED, or VALIDATED by a person), `not-approved` (INVALIDATED), `review` (BLOCKED:
 * a person of the organization decides), `expired`. The similarity never reaches the person.
 */
export type ValidationPageState = 'capture' | 'approved' | 'not-approved' | 'review' | 'expired';

export interface ValidationPage {
  state: ValidationPageState;
  language: Language;
  colours?: PageColours;
  code: string;
  name: string;
  organization: string;
  country: string;
  documentType: string;
  captured: { documentFront: boolean; documentBack: boolean; face: boolean };
  /** Once the validation is over: its status, and its similarity when faces were compared (what the SDK's close event carries). */
  outcome?: { status: VerifaceRow['status']; similarity?: number };
}

/** POST /people/embed: the flow the frame opens, and the token it acts with. */
export interface EmbeddedFlow {
  flow: EmbedFlow;
  /** The link token the frame then acts with, exactly as the person's own link would. */
  token: string;
}

/** GET /people/signing/qr, GET /people/validation/qr: the person's own link as a QR code. */
export interface LinkQr {
  svg: string;
}

/** The messages the page sends on the person's behalf (the link to a phone, a copy by e-mail). */
export interface LinkSent {
  sent: true;
}

/** POST /people/signing/otp: the code is on its way, by this medium. */
export interface OtpSent {
  medium: OtpMedium;
  expiresAt: string;
}

/**
 * POST /people/validation/finish. The similarity only once the validation is over (approved, or
 * blocked for review): a person who may still try again never learns how close a photo came, so the
 * answer cannot guide a spoof from one try to the next. While tries remain, how many.
 */
export interface ValidationFinished {
  code: string;
  status: VerifaceRow['status'];
  similarity?: number;
  attemptsLeft?: number;
}

// The questionnaire of a reference link (/r/<token>).

/** One question as the fill page draws it: only what the page needs. */
export interface FillQuestion {
  name: string;
  type: QuestionType;
  /** The question's words: its label. */
  description: string;
  /** The template's help text for it: its hint. */
  help?: string;
  /** Must be answered whenever it is asked. */
  required: boolean;
  /** The option chosen to begin with (clausula, select, searchlist). */
  value?: string;
  options?: { value: string; label: string }[];
  /** A check's choices. */
  values?: string[];
  prereq?: { k: string; v: string }[];
  prereqOptionals?: string[];
  /** Phone, identification, department: the country the question is fixed to. */
  country?: string;
  /** Signature: drawn, typed or both. */
  allow?: ('draw' | 'font')[];
  maxlength?: number;
  /** Request: the https address the page asks with the answer. */
  endpoint?: string;
}

/** An answer the page starts with: given by the template (preFill), or by whoever prepared the process. Locked ones cannot be changed. */
export interface FillPrefilled {
  name: string;
  value: string;
  locked: boolean;
}

/** GET /people/fill: the questionnaire, in order. */
export interface FillForm {
  template: { name: string; description?: string };
  organization: string;
  questions: FillQuestion[];
  prefilled: FillPrefilled[];
  /** The person goes to their signing page once the form is sent. */
  signNow: boolean;
  /**
   * With sign now, the `signature` question the person signs in the form: the signature is kept on
   * the device and offered on their signing page, where it is applied once their identity is checked.
   */
  signatureQuestion?: string;
  expiresAt?: string;
  /** Whether the template has a Mask HTML to preview (GET /people/fill/preview). */
  preview: boolean;
}

/**
 * GET /people/fill/preview: the Mask HTML, shown in a frame where no script runs, without the
 * styles written in its markup; they come apart (its `<style>` sheets, and the inline styles of
 * the elements marked `data-preview-style` with their index) for the page to apply.
 */
export interface FillPreview {
  html: string | null;
  sheets: string[];
  inline: string[];
}

export interface FillAnswer {
  key: string;
  value: string;
}

/** POST /people/fill/check: the answers so far. */
export interface FillCheckInput {
  data: FillAnswer[];
}

/** One refused answer: the question it is about (null: the answers as a whole), /document/save's message, and why in a word. */
export interface FillError {
  name: string | null;
  message: string;
  reason: AnswerRefusal;
}

export interface FillChecked {
  errors: FillError[];
}

/** POST /people/fill: the answers and a key the page made for this submission, so that sending it again makes no second process. */
export interface FillSubmitInput {
  data: FillAnswer[];
  idempotencyKey: string;
}

/** Where the code that confirms the submitter's own address went, and until when it can be typed. */
export interface FillConfirmation {
  medium: 'email' | 'phone';
  to: string;
  expiresAt: string;
}

/**
 * The process made. While its submitter's code is awaited, `confirmation` says where it went and
 * nobody else is told of the process; once confirmed, with sign now, the address of the signing
 * page of the person who filled it (theirs only).
 */
export interface FillSubmitted {
  code: string;
  signingUrl?: string;
  confirmation?: FillConfirmation;
}

/** POST /people/fill/confirm: the submission's own key and the code sent to the submitter. */
export interface FillConfirmInput {
  idempotencyKey: string;
  code: string;
}

/** POST /people/fill/resend: a new code for the submission `idempotencyKey` names. */
export interface FillResendInput {
  idempotencyKey: string;
}
