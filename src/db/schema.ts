import type { ColumnType, Generated, Insertable, Kysely, Selectable } from 'kysely';
import type { UserRole } from '../organizations/user-roles.js';

/**
 * Table shapes shared by SQLite and PostgreSQL. Ids and timestamps (ISO-8601 UTC text) are made by
 * the application so both dialects store the same values; JSON lives in text columns for the same reason.
 */
export interface OrganizationsTable {
  id: string;
  name: string;
  sdk_integration: number;
  /** JSON array of the origins allowed to embed the organization's pages with the SDK. */
  sdk_origins: Generated<string>;
  /** Language of the final documents and of messages: es, en, pt or fr. */
  language: Generated<string>;
  /** IANA time zone of the dates in the final documents. */
  time_zone: Generated<string>;
  /** Days identity photos are kept after a process ends. */
  photo_retention_days: Generated<number>;
  /** 1 when embedding with the SDK needs a token minted with the private key. */
  sdk_require_token: Generated<number>;
  /** The logo's https URL (PUT /company `image`); null without one. */
  image: string | null;
  /** JSON `{primaryColor?, alternateColor?}` of the people's pages, as PUT /company merged them. */
  ux_options: Generated<string>;
  /** Processes its public forms (reference links, the SDK's fill flow) may create in an hour. */
  form_processes_per_hour: Generated<number>;
  /** 1: its signers may hand their place to another person from the signing page (UPDATE_SIGNER). */
  signer_delegation: Generated<number>;
  /** The PAdES level of its final documents (B-B, B-T, B-LT, B-LTA); null: the instance's PADES_LEVEL. */
  pades_level: string | null;
  /** The organization's OpenID Connect provider for console single sign-on; all three or none. */
  oidc_issuer: string | null;
  oidc_client_id: string | null;
  oidc_client_secret: string | null;
  created_at: string;
}

/** What a user may do in the operator console: src/organizations/user-roles.ts holds each role's permissions. */
export type { UserRole };

export interface UsersTable {
  id: string;
  organization_id: string;
  email: string;
  /** Shown as the author of the processes they create (the roadmap's `author.name`); null when not given. */
  name: string | null;
  role: UserRole;
  /** The console's language the user chose (es, en, pt, fr); null: the organization's. */
  language: string | null;
  created_at: string;
}

/** An e-mailed console sign-in (src/console/sign-in.ts): one link and one code, used once. */
export interface ConsoleSignInsTable {
  id: string;
  user_id: string;
  organization_id: string;
  email: string;
  /** SHA-256 of the link's token and of the code (salted with the row id), hex. */
  token_hash: string;
  code_hash: string;
  /** Wrong codes typed against it; past the limit it opens nothing. */
  failures: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A signed-in console user's session (src/console/sessions.ts); the cookie holds the token, this its SHA-256. */
export interface ConsoleSessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  organization_id: string;
  /** Moved forward as the session is used; idle past a limit, it ends. */
  last_seen_at: string;
  /** The absolute end, however active the session is. */
  expires_at: string;
  /** Signed out. */
  ended_at: string | null;
  /** 'totp' while the session waits for the user's second factor: until then it opens nothing. */
  pending_factor: string | null;
  /** Wrong second-factor codes typed in this session; past the limit it ends. */
  factor_failures: number;
  created_at: string;
}

/** A user's passkey (src/console/passkeys): a WebAuthn credential, its public key and signature counter. */
export interface ConsolePasskeysTable {
  id: string;
  /** The credential's id, base64url, as the authenticator gives it. */
  credential_id: string;
  user_id: string;
  organization_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** bigint: PostgreSQL answers it as text. */
  counter: ColumnType<string | number, number, number>;
  /** JSON array of the authenticator's transports. */
  transports: string;
  last_used_at: string | null;
  created_at: string;
}

/** A one-time challenge kept server-side: a passkey's registration or sign-in, or an OpenID Connect sign-in's state. */
export interface ConsoleChallengesTable {
  id: string;
  purpose: string;
  /** SHA-256 of the challenge (or of the OpenID Connect state), hex. */
  challenge_hash: string;
  user_id: string | null;
  organization_id: string | null;
  /** JSON of what the answer is checked against (OpenID Connect: the PKCE verifier, the nonce, the browser's binding). */
  data: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A user's TOTP second factor (src/console/totp): its secret encrypted with the data key, the last time step used. */
export interface ConsoleTotpTable {
  user_id: string;
  organization_id: string;
  secret: string;
  /** Null until a first code confirmed the enrolment: until then sign-in does not ask for it. */
  confirmed_at: string | null;
  /** bigint: PostgreSQL answers it as text. */
  last_step: ColumnType<string | number | null, number | null, number | null>;
  failures: number;
  created_at: string;
}

/** The organization's console audit log: every sign-in and every decision, with who and from where. */
export interface ConsoleAuditTable {
  id: string;
  organization_id: string;
  user_id: string | null;
  email: string;
  action: string;
  detail: string | null;
  address: string | null;
  created_at: string;
}

export type ApiKeyKind = 'private' | 'public';

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  kind: ApiKeyKind;
  key_hash: string;
  hint: string;
  created_at: string;
  revoked_at: string | null;
}

export interface TemplatesTable {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  /** The template's questionnaire document: config, sign, signatureProfile, preBuild and the optional extras, as JSON. */
  body: string;
  build: number;
  status: 'active' | 'inactive';
  created_at: string;
  updated_at: string;
  /**
   * 1 once an HTML file of the template may be stored: set when the service stores one (the local
   * store, whose uploads pass through it), or from the start where uploads go straight to the
   * bucket (S3). 0 means deleting the template has no file to look for.
   */
  files_stored: Generated<number>;
}

export interface ReferenceLinksTable {
  id: string;
  organization_id: string;
  template_id: string;
  token: string;
  name: string | null;
  /** The identity validations of the processes made through the link, as /document/save's root fields (JSON), or null for none. */
  validations: string | null;
  sign_now: number;
  expires_at: string | null;
  enabled: number;
  /** The user the link's processes are created by; null: the organization's first user. */
  creator_email: string | null;
  /** The processes the link may ever make; null: no end. */
  max_uses: number | null;
  /** The processes it may make in any hour, whatever the organization's own cap leaves. */
  hourly_cap: number;
  /** The processes it made, counted in each one's transaction. */
  uses: number;
  created_at: string;
}

/**
 * A public form's process held until the person who filled it confirms their own address with the
 * code sent there: until then nobody else is invited, and it expires at `expires_at`.
 */
export interface FormConfirmationsTable {
  process_id: string;
  organization_id: string;
  /** The participant who filled the form (their row id), whose address the code went to. */
  participant_id: string;
  medium: 'email' | 'phone';
  sent_to: string;
  code_hash: string;
  expires_at: string;
  failures: Generated<number>;
  /** When the code now valid was sent: a new one is sent at most every OTP_RESEND_SECONDS. */
  sent_at: string;
  /** New codes sent after the first, at most MAX_CONFIRMATION_RESENDS. */
  resends: Generated<number>;
  confirmed_at: string | null;
  created_at: string;
}

/** A process made through a reference link, under the key the form sent with it. */
export interface ReferenceLinkUsesTable {
  id: string;
  organization_id: string;
  reference_link_id: string;
  idempotency_key: string;
  process_id: string;
  process_code: string;
  /** The participant who filled the form, when the link signs now: their page is answered again to a retry. */
  filler_participant_id: string | null;
  created_at: string;
}

/**
 * EDITING: put in edit mode (POST /document/edit); nobody can act until the creator sends the
 * process again (docs/real-service.md §3.10), and then it is CREATED once more.
 */
export type ProcessStatus = 'CREATED' | 'EDITING' | 'FINISH' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';
export type ProcessKind = 'document' | 'package';

export interface ProcessesTable {
  id: string;
  code: string;
  organization_id: string;
  kind: ProcessKind;
  name: string;
  status: ProcessStatus;
  /** The registered user who created it. */
  creator_email: string;
  /** The e-mail sent to the signers. */
  subject: string;
  message: string;
  expires_at: string | null;
  /** Reminders to participants who have not acted, every so many hours, while in signature. */
  remind_every_hours: number | null;
  next_reminder_at: string | null;
  /** The integrator's JSON values, echoed in every webhook. */
  custom: string | null;
  target_webhooks: string | null;
  tags: string | null;
  /** Why it ended when someone ended it: the rejection or cancellation message, and who. */
  end_reason: string | null;
  ended_by: string | null;
  /** When the final files (signed documents and evidence certificate) were written. */
  sealed_at: string | null;
  /** When a seal run first found a document it cannot seal, and why; kept once it is sealed after a fix. */
  seal_failed_at: string | null;
  seal_failure: string | null;
  /** When the participants' identity photos were deleted (retention or on request). */
  photos_deleted_at: string | null;
  /** The creator's folder it sits in; null: the root. */
  folder_id: string | null;
  /** 0: created with `sign: false`, its document e-mailed for printing instead of signed (status FINISH, nobody signs). */
  sign: number;
  created_at: string;
  updated_at: string;
}

export interface FoldersTable {
  id: string;
  organization_id: string;
  /** The organization user whose folder it is (the real service's folders belong to the creator). */
  owner_email: string;
  path: string;
  created_at: string;
}

export type DocumentSource = 'template' | 'pdf';

export interface ProcessDocumentsTable {
  id: string;
  process_id: string;
  position: number;
  name: string;
  source: DocumentSource;
  template_id: string | null;
  template_build: number | null;
  /** The template answers the document was filled with (JSON object), for template documents. */
  answers: string | null;
  /** The template's `custom` page layout (JSON, src/templates/page-layout.ts) as it was at creation; null without one. */
  layout: string | null;
  file_key: string | null;
  /** 0 while an uploaded PDF is awaited. */
  file_ready: number;
  sha256: string | null;
  /** A package document's own code (docs/real-service.md §4.1); null for a single document, whose code is the process's. */
  code: string | null;
  created_at: string;
}

export type ParticipantRole = 'SIGNER' | 'APPROVER';
/** The real service's participant states: PENDING (not their turn yet), NOTIFICATION, FINISH, REJECT, BLOCK. */
export type ParticipantStatus = 'PENDING' | 'NOTIFICATION' | 'FINISH' | 'REJECT' | 'BLOCK';

export interface ParticipantsTable {
  id: string;
  process_id: string;
  /** 16 random characters (two in processes created before, as the real service's `G8`), unique within the process. */
  participant_id: string;
  position: number;
  role: ParticipantRole;
  /** Participants with the lowest order act first; equal orders act together. */
  sign_order: number;
  name: string;
  email: string;
  phone: string | null;
  identification: string | null;
  identification_type: string | null;
  country: string | null;
  /** The template signer type the participant fills, when created from a template. */
  signer_type: string | null;
  /** 0 when the integrator delivers the link itself. */
  notification: number;
  /** The effective identity validations (JSON, src/documents/identity-validations.ts). */
  validations: string;
  status: ParticipantStatus;
  link_token: string;
  opened_at: string | null;
  /** SHA-256 of the current one-time code; the code itself is never stored. */
  otp_hash: string | null;
  otp_expires_at: string | null;
  otp_failures: number;
  otp_sent_at: string | null;
  otp_verified_at: string | null;
  face_key: string | null;
  document_front_key: string | null;
  document_back_key: string | null;
  /** 0 to 100, when the face was compared with the document. */
  similarity: number | null;
  /** Face comparisons that did not match; the third blocks the participant. */
  camera_failures: number;
  /** FACE_MISMATCH or the reason the last photo could not be used, until the face is verified. */
  camera_last_failure: string | null;
  camera_verified_at: string | null;
  signed_at: string | null;
  /** Blob key of the PNG the participant signed with (drawn or typed), when their page sent one. */
  signature_key: string | null;
  /** The signature kinds the participant may use (JSON array of `draw`, `font`), from their template signature question's `allow`; null: any. */
  signature_kinds: string | null;
  rejected_at: string | null;
  reject_reason: string | null;
  block_reason: string | null;
  /** What the participant reads (es, en, pt, fr), given at creation; null: the organization's. */
  language: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProcessEventsTable {
  id: string;
  process_id: string;
  participant_id: string | null;
  /** The real service's roadmap actions: NOTIFICATION_SIGN, PARTICIPANT_SIGN, CANCEL_SIGN, ... */
  action: string;
  platform: string | null;
  actor: string | null;
  message: string | null;
  detail: string | null;
  at: string;
}

/**
 * One handing over of a participant's place (UPDATE_SIGNER): who held it before, and why they
 * handed it on. The participant row then holds the new person, with a new id and link.
 */
export interface ParticipantDelegationsTable {
  id: string;
  process_id: string;
  participant_row_id: string;
  former_participant_id: string;
  former_name: string;
  former_email: string;
  former_phone: string | null;
  /** The link the former holder had: it shows that the place was handed over, and opens nothing. */
  former_link_token: string;
  reason: string;
  created_at: string;
}

/**
 * A file asked of a participant (`signProfile[x].files`), and once they gave it on their signing
 * page, where it is kept and the SHA-256 of its bytes. `optional` 0: they sign only once it is given.
 */
export interface ParticipantAttachmentsTable {
  id: string;
  process_id: string;
  participant_row_id: string;
  /** 0-based, in the order the creation asked the files. */
  position: number;
  name: string;
  description: string | null;
  optional: number;
  file_key: string | null;
  sha256: string | null;
  /** application/pdf, image/jpeg or image/png, as read from the bytes. */
  content_type: string | null;
  size: number | null;
  uploaded_at: string | null;
  /** The creator's review of the file given: approved, or rejected (asked again); empty until then. */
  review: 'approved' | 'rejected' | null;
  review_reason: string | null;
  reviewed_at: string | null;
  created_at: string;
}

/** A final file of a sealed process, with the SHA-256 of its bytes as written. */
export interface FinalFilesTable {
  process_id: string;
  file_key: string;
  sha256: string;
  created_at: string;
  /** The document this file is the final copy of; null for the evidence certificate. */
  document_position: number | null;
}

/**
 * READER: follows the process (invited to read it, told of every signature, rejection and end, sent
 * the final files); CC: only sent the final files. Neither ever acts in it.
 */
export type ReaderKind = 'READER' | 'CC';

export interface ProcessReadersTable {
  id: string;
  process_id: string;
  position: number;
  kind: ReaderKind;
  /** Null for a CC address, which is an e-mail only. */
  name: string | null;
  email: string;
  /** The secret of their read-only page (/read/<token>); never a participant's. */
  link_token: string;
  created_at: string;
}

/**
 * A box on a page of an uploaded PDF where a participant's signature (an approver's stamp) is drawn
 * when the process is sealed; in PDF points from the page's bottom-left corner, `page` 1-based.
 */
export interface SignatureBoxesTable {
  process_id: string;
  document_position: number;
  /** participants.id (the row), not the participant's id within the process. */
  participant_row_id: string;
  box_index: number;
  page: number;
  left_pt: number;
  bottom_pt: number;
  width_pt: number;
  height_pt: number;
}

/** The placement of a PDF still awaited through its upload URL, as JSON (src/documents/placement/awaited-placements.ts). */
export interface AwaitedPlacementsTable {
  process_id: string;
  document_position: number;
  placements: string;
}

/** An organization's PDF template: its file and, by signer type, the boxes where they sign (src/documents/pdf-templates). */
export interface PdfTemplatesTable {
  id: string;
  organization_id: string;
  name: string;
  file_key: string;
  sha256: string;
  /** JSON: {"<type>": [{page, x, y, w, h}]}. */
  positions: string;
  created_at: string;
}

/** A token an integrator's backend minted for one embedded flow (src/people/sdk-token.ts). */
export interface SdkTokensTable {
  /** SHA-256 of the token, hex: the token itself is never stored. */
  token_hash: string;
  organization_id: string;
  /** The SDK's `document`: a process code followed by a participant id, or a face-validation code. */
  document: string;
  /** The one origin whose page may use it. */
  origin: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export type OutboxStatus = 'pending' | 'delivered' | 'failed';

export interface OutboxTable {
  id: string;
  organization_id: string | null;
  kind: 'webhook' | 'email' | 'whatsapp' | 'sms' | 'job';
  /** The message as JSON; its shape is fixed by `kind` (src/outbox/types.ts). */
  payload: string;
  status: OutboxStatus;
  /** Attempts made in the current round (a resend starts a new round). */
  attempts: number;
  next_attempt_at: string;
  /** The worker holding the message, and until when; a crashed worker's lease simply runs out. */
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  /** At most one pending message per key (recurring jobs); null for ordinary messages. */
  dedupe_key: string | null;
  webhook_id: string | null;
  event_type: string | null;
  /** A WhatsApp message's number, digits only: its messages go out in the order they were queued. Null for other kinds. */
  recipient: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttemptsTable {
  id: string;
  outbox_id: string;
  started_at: string;
  duration_ms: number;
  ok: number;
  status_code: number | null;
  response: string | null;
  error: string | null;
  /** The worker that made the attempt (host:pid:random); null for attempts made before it was recorded. */
  instance: string | null;
}

export interface WebhooksTable {
  id: string;
  organization_id: string;
  name: string;
  url: string;
  secret: string;
  description: string | null;
  enabled: number;
  /** The body it receives: `typed` ({type, timestamp, data}) or `flat` (the real service's). */
  format: Generated<WebhookFormat>;
  /** A static header added to every delivery, as the real service's `header: {key, value}`; both null without one. */
  header_key: string | null;
  header_value: string | null;
  created_at: string;
  updated_at: string;
}

export type WebhookFormat = 'typed' | 'flat';

/** VALIDATED: a BLOCKED process approved by a person; INVALIDATED: not successful, or rejected by a person. */
export type VerifaceStatus = 'INPROGRESS' | 'APPROVED' | 'VALIDATED' | 'INVALIDATED' | 'BLOCKED' | 'EXPIRED';

export interface VerifaceProcessesTable {
  id: string;
  code: string;
  organization_id: string;
  creator_email: string;
  platform: 'whatsapp' | 'web';
  name: string;
  phone: string;
  country: string;
  document_type: string;
  identification: string;
  user_email: string | null;
  /** The integrator's JSON values, echoed in every webhook. */
  custom: string | null;
  target_webhooks: string | null;
  tags: string | null;
  status: VerifaceStatus;
  expires_at: string | null;
  /** The secret part of the person's link. */
  link_token: string;
  /** Blob keys of the photos, once captured. */
  document_front: string | null;
  document_back: string | null;
  face: string | null;
  /** 0 to 100, once compared. */
  similarity: number | null;
  result_reason: string | null;
  /** The registered user who decided a BLOCKED process by hand, and the reason they gave. */
  email_validated: string | null;
  review_reason: string | null;
  /** When the identity photos were deleted (retention or on request). */
  photos_deleted_at: string | null;
  /** What the person reads (es, en, pt, fr), given at creation; null: the organization's. */
  language: string | null;
  created_at: string;
  updated_at: string;
}

/** Where a WhatsApp conversation stands in one flow of one number (src/whatsapp/conversation). */
export interface ChatFlowsTable {
  /** Random: it travels in button ids and template payloads, so it names nothing. */
  id: string;
  /** The number in the contract's +[country code][number] form. */
  phone: string;
  organization_id: string;
  /** The participant of a signature, or the face validation: exactly one is set. */
  participant_row_id: string | null;
  veriface_id: string | null;
  /** `invited` until the person starts; `started`; `rejecting` while the rejection's reason is awaited. */
  step: string;
  /** The photo to send again after a refused one or a face that did not match. */
  retake: string | null;
  created_at: string;
  updated_at: string;
}

/** Per number: the flow chosen among several, and the day a number with nothing open was last answered. */
export interface ChatNumbersTable {
  phone: string;
  current_flow_id: string | null;
  /** YYYY-MM-DD (UTC). */
  answered_on: string | null;
  updated_at: string;
}

/** Every identity photo ever written, with the signing process or face validation it belongs to. */
export interface PhotoBlobsTable {
  key: string;
  owner_id: string;
  created_at: string;
  /** When a decision (a match, a block) was taken on this photo: such a photo is never replaced. */
  decided_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Photos sent per participant or face validation and UTC day (`YYYY-MM-DD`). */
export interface PhotoAttemptsTable {
  owner_id: string;
  day: string;
  attempts: number;
}

/** Comparisons per participant or face validation: over its life and in its current UTC hour (src/veriface/face-share/). */
export interface FaceMatcherUsesTable {
  owner_id: string;
  uses: number;
  /** YYYY-MM-DDTHH (UTC). */
  hour: string;
  hour_uses: number;
  /** The hour whose first refusal was recorded for the integrator. */
  refused_hour: string | null;
}

/** Hits per key (a route or limiter, and a client address) in the window ending at `resets_at` (ms, the database's clock). */
export interface RateLimitHitsTable {
  key: string;
  hits: number;
  resets_at: string | number;
}

export interface VerifaceStagesTable {
  id: string;
  process_id: string;
  stage: string;
  detail: string | null;
  at: string;
}

export type WhatsAppDirection = 'in' | 'out';
/** Sent ones: queued, then as Meta reports them. Received ones: received until handled (or given up: failed). */
export type WhatsAppStatus = 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'received' | 'handled';

/** A WhatsApp message in or out (src/whatsapp/records): never a code's digits, a photo or a media id. */
export interface WhatsAppMessagesTable {
  /** Of a message sent, the id of the outbox message that carries it. */
  id: string;
  organization_id: string | null;
  process_id: string | null;
  /** The participant's id within the process (the `userId` of GET /whatsapp/records). */
  participant_id: string | null;
  veriface_id: string | null;
  /** Digits only, with the country code, as Meta writes numbers. */
  phone: string;
  direction: WhatsAppDirection;
  /** text, buttons, document, template; received: text, button, image, document, unsupported. */
  kind: string;
  /** Why it was sent (invitation, reminder, code, link, step, …); null for received messages. */
  purpose: string | null;
  /** Meta's message id, once Meta accepted (sent) or delivered (received) it. */
  wamid: string | null;
  status: WhatsAppStatus;
  status_at: string;
  /** Why it failed, in a few words (Meta's error title, or the refusal): never the message's text. */
  error: string | null;
  /** A received message as the conversation is handed it (InboundChatMessage, JSON), until handled: then null. */
  content: string | null;
  /** Times the conversation failed on a received message. */
  attempts: number;
  /** After a failed attempt, when the message may be tried again: its number waits until then (src/whatsapp/inbound/drain.ts). */
  retry_after: string | null;
  created_at: string;
}

/** A status Meta reported for a message sent, kept until applied (it may arrive before the send is recorded). */
export interface WhatsAppStatusesTable {
  id: string;
  wamid: string;
  /** The person's number (Meta's recipient_id). */
  phone: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  at: string;
  error: string | null;
  applied_at: string | null;
}

/** Who handles a number's received messages now: one worker at a time, so that they are handled in order. */
export interface WhatsAppConversationLocksTable {
  phone: string;
  locked_by: string | null;
  locked_until: string | null;
}

/** One identity check of a participant or a face validation, as decided (migration 024, src/identity-attempts/). */
export interface IdentityAttemptsTable {
  id: string;
  organization_id: string;
  /** The signing process or the face validation. */
  owner_id: string;
  /** The participant, in a signing process. */
  participant_row_id: string | null;
  at: string;
  /** The photos' keys, cleared when the process's photos are deleted. */
  document_front_key: string | null;
  document_back_key: string | null;
  face_key: string | null;
  /** JSON: the SHA-256 of each photo's bytes, kept after the photos are deleted. */
  photo_sha256: string;
  similarity: number | null;
  /** The face photo's liveness score, 0 to 1 (src/veriface/face/liveness-model.ts), when it was scored. */
  liveness: number | null;
  /** JSON: how the number read compared with the declared one (src/veriface/document/number-check.ts). */
  number_check: string;
  /** JSON: what was read on the document (src/veriface/document/read-number.ts), {} when nothing. */
  document_data: string;
  successful: number;
  /** JSON: [{key, error}], why it did not succeed, or what could not be checked. */
  error_messages: string;
}

/** A prebuilt process's state: waiting for its form, completed (the process exists under its code), or cancelled before that. */
export type PrebuiltStatus = 'PENDING' | 'COMPLETED' | 'CANCELLED';

/** POST /document/prebuild: a process prepared by the integrator, completed through the form of its link or the SDK. */
export interface PrebuiltProcessesTable {
  id: string;
  organization_id: string;
  template_id: string;
  /** The code the process gets when it is completed: GET /document and the SDK name it by this code from the start. */
  code: string;
  name: string;
  creator_email: string;
  /** Who completes the form: the answer to the last question of the template's preBuildData. */
  email_to: string;
  /** The secret of /f/<token>, e-mailed to email_to. */
  link_token: string;
  /** The prefilled answers, {question: value} (JSON), locked in the form. */
  answers: string;
  /** /document/save's root fields the process is created with (JSON). */
  fields: string;
  status: PrebuiltStatus;
  expires_at: string | null;
  /** The key of the submission that completed it: sent again, it answers the same process. */
  completion_key: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A form the SDK's `fill` flow opened: a template, a reference link's, or a prebuilt process's; it makes at most one process. */
export interface FillSessionsTable {
  token_hash: string;
  organization_id: string;
  template_id: string;
  reference_link_id: string | null;
  prebuilt_id: string | null;
  /** The embedding origin it was opened from. */
  origin: string;
  expires_at: string;
  /** The submission that made its process, and that process's code. */
  idempotency_key: string | null;
  process_code: string | null;
  /** When it made that process. */
  used_at: string | null;
  created_at: string;
}

export interface Database {
  identity_attempts: IdentityAttemptsTable;
  whatsapp_messages: WhatsAppMessagesTable;
  whatsapp_statuses: WhatsAppStatusesTable;
  whatsapp_conversation_locks: WhatsAppConversationLocksTable;
  veriface_processes: VerifaceProcessesTable;
  veriface_stages: VerifaceStagesTable;
  outbox: OutboxTable;
  delivery_attempts: DeliveryAttemptsTable;
  webhooks: WebhooksTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  console_sign_ins: ConsoleSignInsTable;
  console_sessions: ConsoleSessionsTable;
  console_audit: ConsoleAuditTable;
  console_passkeys: ConsolePasskeysTable;
  console_challenges: ConsoleChallengesTable;
  console_totp: ConsoleTotpTable;
  api_keys: ApiKeysTable;
  templates: TemplatesTable;
  reference_links: ReferenceLinksTable;
  reference_link_uses: ReferenceLinkUsesTable;
  form_confirmations: FormConfirmationsTable;
  processes: ProcessesTable;
  process_documents: ProcessDocumentsTable;
  folders: FoldersTable;
  participants: ParticipantsTable;
  process_readers: ProcessReadersTable;
  participant_delegations: ParticipantDelegationsTable;
  participant_attachments: ParticipantAttachmentsTable;
  process_events: ProcessEventsTable;
  settings: SettingsTable;
  photo_blobs: PhotoBlobsTable;
  photo_attempts: PhotoAttemptsTable;
  face_matcher_uses: FaceMatcherUsesTable;
  final_files: FinalFilesTable;
  signature_boxes: SignatureBoxesTable;
  awaited_placements: AwaitedPlacementsTable;
  pdf_templates: PdfTemplatesTable;
  sdk_tokens: SdkTokensTable;
  rate_limit_hits: RateLimitHitsTable;
  chat_flows: ChatFlowsTable;
  chat_numbers: ChatNumbersTable;
  prebuilt_processes: PrebuiltProcessesTable;
  fill_sessions: FillSessionsTable;
}

/**
 * The store as every query takes it, opened by database.ts. Declared here, beside the tables, so
 * that what database.ts builds on (the group commit) can name it without importing database.ts.
 */
export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export type IdentityAttemptRow = Selectable<IdentityAttemptsTable>;
export type TemplateRow = Selectable<TemplatesTable>;
export type NewTemplateRow = Insertable<TemplatesTable>;
export type ProcessRow = Selectable<ProcessesTable>;
export type ProcessDocumentRow = Selectable<ProcessDocumentsTable>;
export type ParticipantRow = Selectable<ParticipantsTable>;
export type ReaderRow = Selectable<ProcessReadersTable>;
export type DelegationRow = Selectable<ParticipantDelegationsTable>;
export type FolderRow = Selectable<FoldersTable>;
export type AttachmentRow = Selectable<ParticipantAttachmentsTable>;
export type ProcessEventRow = Selectable<ProcessEventsTable>;
export type FinalFileRow = Selectable<FinalFilesTable>;
export type SignatureBoxRow = Selectable<SignatureBoxesTable>;
export type PdfTemplateRow = Selectable<PdfTemplatesTable>;
export type SdkTokenRow = Selectable<SdkTokensTable>;
export type WhatsAppMessageRow = Selectable<WhatsAppMessagesTable>;
export type WhatsAppStatusRow = Selectable<WhatsAppStatusesTable>;
export type ReferenceLinkRow = Selectable<ReferenceLinksTable>;
export type ReferenceLinkUseRow = Selectable<ReferenceLinkUsesTable>;
export type FormConfirmationRow = Selectable<FormConfirmationsTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type UserRow = Selectable<UsersTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type DeliveryAttemptRow = Selectable<DeliveryAttemptsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type VerifaceRow = Selectable<VerifaceProcessesTable>;
export type VerifaceStageRow = Selectable<VerifaceStagesTable>;
export type ChatFlowRow = Selectable<ChatFlowsTable>;
export type ChatNumberRow = Selectable<ChatNumbersTable>;
export type PrebuiltProcessRow = Selectable<PrebuiltProcessesTable>;
export type FillSessionRow = Selectable<FillSessionsTable>;
export type { Generated };
