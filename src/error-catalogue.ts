export interface CatalogueEntry {
  readonly status: readonly number[];
  /** For a code answered at several statuses: the status of each situation, named; a throw site names its own. */
  readonly when?: Readonly<Record<string, number>>;
  readonly meaning: string;
}

/**
 * Every code the service answers in `{message}`, with the statuses it comes with and what it means.
 * The OpenAPI document and docs/api.md's table are written from this list, `fail` (src/domain-error.ts)
 * takes no other code (a message is a code, or a code, a colon and a detail), so a new code cannot
 * ship undocumented, and the answer's status is the catalogue's (src/http/errors.ts). Validation
 * messages in Joi's words (`"id" is required`) are the other kind of 400.
 */
export const ERROR_CATALOGUE = {
  // Any route
  UNAUTHORIZED: { status: [401], meaning: 'No key, an unknown or revoked key, or a public key on a route that writes' },
  PRIVATE_KEY_REQUIRED: {
    status: [403],
    meaning: 'The public key reads only what the holder of a process code may see: listings, personal data and logs take the private key',
  },
  TOO_MANY_REQUESTS: { status: [429], meaning: 'Too many failed attempts from this address; wait the seconds of Retry-After' },
  BODY_TOO_DEEP: { status: [400], meaning: 'The JSON body nests objects and arrays deeper than the documented limit' },
  BODY_NOT_JSON: { status: [400], meaning: 'The body is not valid JSON' },
  BODY_REQUIRED: { status: [400], meaning: 'The route takes a JSON body and none was sent' },
  BODY_FORBIDDEN_KEY: { status: [400], meaning: 'The body holds a "__proto__" or "constructor.prototype" key' },
  TEXT_HAS_NUL: { status: [400], meaning: 'A text field holds the character U+0000, which no store keeps' },
  TEXT_NOT_WELL_FORMED: { status: [400], meaning: 'A text field holds a lone UTF-16 surrogate (U+D800 to U+DFFF), which no store keeps' },
  UNSUPPORTED_MEDIA_TYPE: { status: [415], meaning: 'The body is not of the media type the route takes (application/json for the API)' },
  BODY_TOO_LARGE: { status: [413], meaning: 'The body is larger than the route takes' },
  HEADERS_TOO_LARGE: { status: [431], meaning: 'The request headers are larger than the server takes' },
  REQUEST_TIMEOUT: { status: [408], meaning: 'The request did not arrive within REQUEST_TIMEOUT_MS' },
  BAD_REQUEST: { status: [400], meaning: 'The request could not be read as HTTP (malformed URL or framing)' },
  ROUTE_NOT_FOUND: { status: [404], meaning: 'No route has this method and path' },
  INTERNAL_ERROR: { status: [500], meaning: 'An unexpected fault; it is logged with the request' },

  // Templates and reference links
  TEMPLATE_NOT_FOUND: {
    status: [400, 404],
    when: { readingOne: 404, uploadUrl: 404, elsewhere: 400 },
    meaning: 'No template with this id in the organization (404 when reading one, 400 elsewhere, as the contract shows for delete)',
  },
  TEMPLATE_IN_USE: { status: [400], meaning: 'A process created from the template is still in signature' },
  TEMPLATE_HTML_MISSING: { status: [400], meaning: 'The Complete HTML of the template has not been uploaded' },
  PATTERNS_TOO_COSTLY: {
    status: [400],
    meaning: "Checking the answers against the template's patterns would take too long: shorter answers or smaller patterns",
  },
  REFERENCE_NOT_FOUND: { status: [400], meaning: 'No reference link with this id in the organization' },
  REFERENCE_LINK_NOT_FOUND: {
    status: [404],
    meaning: "The form's link is unknown, or was deleted: a reference link (/r/<token>), a prebuilt process's (/f/<token>) or a form the SDK opened",
  },
  REFERENCE_LINK_DISABLED: { status: [410], meaning: 'The reference link was switched off by its organization: it creates nothing' },
  REFERENCE_LINK_EXPIRED: { status: [410], meaning: 'The reference link passed its expiry: it creates nothing' },
  FILL_SUBMISSION_NOT_FOUND: { status: [404], meaning: 'No submission of this form was made under this key' },
  FILL_CONFIRMATION_EXPIRED: {
    status: [410],
    meaning:
      "The submitter's code was not typed in time, or was typed wrong three times: the process sent nothing to anyone else and expires; fill the form again",
  },
  FILL_CODE_RESENDS_USED_UP: {
    status: [429],
    meaning: 'The submitter asked for a new code three times already: type the last one sent, or fill the form again once the hour is over',
  },
  REFERENCE_LINK_USED_UP: { status: [410], meaning: 'The reference link made the processes its `maxUses` allows: it creates nothing' },
  PDF_TEMPLATE_NOT_FOUND: {
    status: [400, 404],
    when: { readingOne: 404, elsewhere: 400 },
    meaning: 'No PDF template with this id in the organization (404 when reading or deleting one, 400 when creating a process from it)',
  },

  // Files and upload URLs
  URL_SIGNATURE_INVALID: { status: [403], meaning: 'The URL was not issued by the service, or was altered' },
  URL_EXPIRED: { status: [403], meaning: 'The URL is past its expiry (upload URLs last 5 minutes)' },
  FILE_NOT_FOUND: { status: [404], meaning: 'Nothing is stored under this URL yet' },
  FILE_TOO_LARGE: { status: [413], meaning: 'The file is larger than UPLOAD_MAX_BYTES' },
  FILE_EMPTY: { status: [400], meaning: 'The upload had no bytes' },
  FILE_NOT_VALID: {
    status: [400],
    meaning: 'The file is not a PDF the service can seal (the detail says why: not a PDF, encrypted, no pages, damaged beyond repair)',
  },
  FILE_WRONG_TYPE: { status: [415], meaning: 'The upload is not of the Content-Type this URL takes' },
  UPLOAD_IN_PROGRESS: { status: [409], meaning: 'Another upload to the same URL is under way; the first one to finish is kept' },
  DOCUMENT_ALREADY_UPLOADED: { status: [409], meaning: 'The PDF of this upload URL has already arrived' },

  // Signing processes
  DOCUMENT_NOT_FOUND: {
    status: [400, 404],
    when: { uploadUrl: 404, embedding: 404, sealing: 404, download: 404, elsewhere: 400 },
    meaning: 'No process with this code in the organization',
  },
  PHOTOS_IN_USE: {
    status: [400],
    meaning: 'The signing process or face validation is still in progress: its identity photos can be deleted once it ends',
  },
  DOCUMENT_NOT_IN_SIGNATURE: { status: [400], meaning: 'The process is finished, rejected, cancelled or expired, or in edit mode' },
  DOCUMENT_NOT_EDITABLE: {
    status: [400],
    meaning:
      'Edit mode needs a process in signature that nobody has signed, approved, rejected or given identity photos for, and not in edit mode already; the detail says which',
  },
  DOCUMENT_NOT_IN_EDIT: { status: [400], meaning: 'The code names no process in edit mode: put it in edit mode first (POST /document/edit or /package/edit)' },
  PACKAGE_NOT_FOUND: { status: [400], meaning: 'No package with this code in the organization (a document code names a document, not a package)' },
  DOCUMENT_EXPIRED: { status: [400], meaning: 'The process passed its expiry date' },
  DOCUMENTS_MIN_TWO: { status: [400], meaning: 'A package needs at least two documents' },
  SIGNER_SEQUENCE_NOT_SUPPORTED: { status: [400], meaning: 'A package cannot set an order of signers' },
  SIGNER_NOTIFICATION_NOT_SUPPORTED: {
    status: [400],
    meaning: 'POST /package/upload always notifies its participants: `notification` is refused, at the root and per signer',
  },
  SIGNER_VALIDATIONS_NOT_SUPPORTED: {
    status: [400],
    meaning: 'A package takes camera, otpCode and options at the root only, for every participant; one given per signer is refused',
  },
  SIGNER_DATA_MISSING: { status: [400], meaning: "A participant's name or e-mail is missing from the answers" },
  SIGNERS_REQUIRED: { status: [400], meaning: 'The template has no signatureProfile and the request sent no signProfile' },
  SIGNER_EMAIL_DUPLICATED: { status: [400], meaning: 'The same e-mail signs twice in one process' },
  EXPIRED_DATE_INVALID: { status: [400], meaning: 'The expiry date is not in the future' },
  USER_NOTFOUND: { status: [400], meaning: 'The e-mail is not a user of the organization' },
  WEBHOOK_NOT_FOUND: { status: [400], meaning: 'No webhook with this name in the organization' },
  SIGNING_LINK_NOT_FOUND: { status: [404], meaning: "The participant's link is unknown or no longer valid" },
  READING_LINK_NOT_FOUND: {
    status: [404],
    meaning: "A reader's link (/read/<token>) is unknown: it opens a read-only page of one process, never a participant's",
  },
  SIGNING_CONFLICT: { status: [409], meaning: 'The participant changed meanwhile; try again' },
  MISSING_SIGNER_ID: { status: [400], meaning: 'The code (of an unlock or a reminder) needs the participant id after the process code' },
  SIGNER_NOT_FOUND: { status: [400], meaning: 'The process has no participant with this id' },
  NOT_BLOCKED_PROCESS: { status: [400], meaning: 'The participant is not blocked' },
  PARTICIPANT_NOT_NOTIFIED: {
    status: [400],
    meaning: 'The service sends this participant nothing: they were created with notification false, and the integrator delivers their link',
  },
  DOCUMENT_AWAITING_UPLOAD: { status: [400], meaning: 'A PDF of the process has not arrived at its upload URL: nobody has been invited yet' },
  REMINDER_TOO_SOON: {
    status: [429],
    meaning: 'The participant was invited or reminded less than an hour ago; retry after the seconds of Retry-After',
  },
  PROCESS_NOT_FOUND: { status: [400], meaning: 'No process with this code (or package) in the organization' },
  PROCESS_NOT_REACTIVABLE: {
    status: [400],
    meaning: 'Only a rejected or expired process can be reactivated, and not once its identity photos were deleted',
  },
  NOT_YOUR_TURN: { status: [400], meaning: 'Earlier participants have not finished' },
  PARTICIPANT_ALREADY_DONE: { status: [400], meaning: 'The participant has already signed, approved or rejected' },
  PARTICIPANT_BLOCKED: { status: [400], meaning: 'Three failed identity checks blocked the participant' },
  DOCUMENT_NOT_OPENED: { status: [400], meaning: 'A signer signs once they have opened every document of the process on their page' },
  SIGNING_DOCUMENT_UNKNOWN: { status: [400], meaning: 'The process has no document at this position (0-based)' },
  WRONG_ROLE: { status: [400], meaning: 'Signers sign and approvers approve' },
  SIGNATURE_IMAGE_EMPTY: { status: [400], meaning: 'The signature image had no bytes' },
  SIGNATURE_IMAGE_TOO_LARGE: { status: [413], meaning: 'The signature image is larger than 512 KB or 4096 × 4096 pixels' },
  SIGNATURE_IMAGE_NOT_PNG: { status: [415], meaning: 'The signature image must be a PNG' },
  SIGNATURE_IMAGE_UNREADABLE: { status: [422], meaning: 'The signature image starts as a PNG but cannot be decoded' },
  SIGNATURE_KIND_NOT_ALLOWED: { status: [400], meaning: "The participant's template does not let them sign this way (drawn or typed: `allow`)" },
  REJECT_REASON_REQUIRED: { status: [400], meaning: 'A rejection needs a reason' },
  DELEGATION_NOT_ALLOWED: {
    status: [403],
    meaning:
      "The participant's organization does not let its signers hand their place to another person (signerDelegation), or the participant is not a signer",
  },
  DELEGATION_TOO_LATE: {
    status: [400],
    meaning:
      'The identity steps have begun (a code checked, a photo taken) or a file was attached: the place is no longer handed over; the organization may cancel or unlock instead',
  },
  DELEGATE_ALREADY_TAKES_PART: { status: [400], meaning: 'The person the place is handed to already takes part in the process, by e-mail or phone' },
  DELEGATE_PHONE_REQUIRED: {
    status: [400],
    meaning: "The place's validations reach the person by phone (WhatsApp, or a code by phone): the delegate needs one",
  },
  DELEGATE_IDENTIFICATION_REQUIRED: {
    status: [400],
    meaning: "The place's validations compare the face with the ID document: the delegate needs identification, identificationType and country",
  },
  ATTACHMENT_REQUIRED: { status: [400], meaning: 'A file asked of the participant, and not optional, must be given before they sign or approve' },
  ATTACHMENT_UNKNOWN: { status: [400], meaning: 'The participant is asked no file at this position (0-based)' },
  ATTACHMENT_EMPTY: { status: [400], meaning: 'The attached file had no bytes' },
  ATTACHMENT_TOO_LARGE: { status: [413], meaning: 'The attached file is larger than 8 MiB' },
  ATTACHMENT_TYPE_NOT_ALLOWED: { status: [415], meaning: 'An attached file must be a PDF, a JPEG or a PNG, as its bytes show (its name does not count)' },
  ATTACHMENT_NOT_GIVEN: { status: [400], meaning: 'PUT /attachments: the participant has not given the files named (or any), so there is nothing to review' },
  ATTACHMENTS_FINAL: {
    status: [400],
    meaning: 'PUT /attachments: the participant signed the document with these files, so they can no longer be rejected',
  },
  ATTACHMENT_NOT_FOUND: {
    status: [400],
    meaning: 'No process with this code in the organization asks attachments (or none of this participant), as the real service answers GET /attachments',
  },
  IDENTITY_VALIDATION_REQUIRED: { status: [400], meaning: 'The photo and face comparison must pass before signing' },
  IDENTITY_ALREADY_VERIFIED: { status: [400], meaning: "The participant's identity is already verified" },
  CAMERA_NOT_REQUIRED: { status: [400], meaning: 'This participant is not asked for photos' },
  DOCUMENT_PHOTO_NOT_REQUIRED: { status: [400], meaning: 'This participant is not asked for an ID document photo' },
  OTP_REQUIRED: { status: [400], meaning: 'The one-time code must be verified before signing' },
  OTP_NOT_REQUIRED: { status: [400], meaning: 'This participant is not asked for a one-time code' },
  OTP_ALREADY_VERIFIED: { status: [400], meaning: 'The one-time code is already verified' },
  OTP_TOO_SOON: { status: [400], meaning: 'A new code can be asked for 30 seconds after the last' },
  OTP_CODE_INVALID: { status: [400], meaning: 'The code is wrong' },
  OTP_CODE_EXPIRED: { status: [400], meaning: 'The code is past its validity; ask for another' },

  // Face validations
  VERIFACE_NOT_FOUND: {
    status: [400, 404],
    when: { personLink: 404, elsewhere: 400 },
    meaning: 'No face validation with this code in the organization',
  },
  VERIFACE_NOT_BLOCKED: { status: [400], meaning: 'Only a BLOCKED face validation can be reviewed by a person' },
  VERIFACE_CLOSED: { status: [400], meaning: 'The face validation has already ended' },
  VERIFACE_EXPIRED: { status: [400], meaning: 'The face validation passed its expiry' },
  FACE_PHOTO_REQUIRED: { status: [400], meaning: 'The face photo must be sent first' },
  DOCUMENT_PHOTO_REQUIRED: { status: [400], meaning: 'The ID document photo must be sent first' },
  PHOTO_MISSING: { status: [409], meaning: 'A photo the comparison needs is no longer stored' },
  PHOTO_UNREADABLE: {
    status: [409],
    meaning: 'A stored photo cannot be decrypted: PHOTO_ENCRYPTION_KEY is not the key it was stored with, or its bytes were altered',
  },
  IMAGE_EMPTY: { status: [400], meaning: 'The image had no bytes' },
  IMAGE_TOO_LARGE: { status: [413], meaning: 'The image is larger than the service takes' },
  IMAGE_NOT_JPEG_OR_PNG: { status: [415], meaning: 'Images must be JPEG or PNG' },
  IMAGE_UNREADABLE: { status: [422], meaning: 'A photo is not one whole JPEG or PNG that decodes; the page asks for a retake' },
  IMAGE_TOO_SMALL: { status: [422], meaning: 'A photo is smaller than 200 pixels on a side; the page asks for a retake' },
  PHOTO_ATTEMPTS_EXCEEDED: {
    status: [429],
    meaning: 'More photos were sent today for this participant or face validation than the service takes (30 a day); try again tomorrow',
  },
  NO_FACE: { status: [422], meaning: 'No face was found in the photo of the face; the page asks for a retake' },
  MULTIPLE_FACES: { status: [422], meaning: 'More than one face is in the photo of the face; the page asks for a retake alone' },
  FACE_TOO_SMALL: { status: [422], meaning: 'The face (or the portrait on the document) is too small to compare; the page asks for a closer retake' },
  FACE_BLURRY: { status: [422], meaning: 'The face (or the portrait on the document) is too blurred to compare; the page asks for a retake' },
  DOCUMENT_NO_FACE: { status: [422], meaning: 'No portrait was found on the photo of the document; the page asks for a retake' },
  FACE_MATCHER_BUSY: { status: [503], meaning: 'Every face worker is busy and the queue is full (FACE_QUEUE_MAX); retry after the seconds of Retry-After' },
  // The face matcher's fair share (src/veriface/face-share/, src/veriface/face/worker-pool.ts)
  FACE_COMPARISON_UNDER_WAY: {
    status: [429],
    meaning:
      "A comparison of this link (or as many of this organization's as it may have: one per face worker and half the queue) is already waiting or running on this instance; retry after the seconds of Retry-After",
  },
  FACE_COMPARISONS_PER_HOUR_EXCEEDED: {
    status: [429],
    meaning: 'This participant or face validation had its 10 face comparisons of the hour; retry after the seconds of Retry-After (the next UTC hour)',
  },
  FORM_PROCESSES_PER_HOUR_EXCEEDED: {
    status: [429],
    meaning:
      "The organization's public forms (reference links, the SDK's fill flow) made the processes its `formProcessesPerHour` setting allows in the last hour; retry after the seconds of Retry-After",
  },
  REFERENCE_LINK_HOURLY_CAP_EXCEEDED: {
    status: [429],
    meaning: 'The reference link made the processes its `hourlyCap` allows in the last hour; retry after the seconds of Retry-After',
  },
  FACE_COMPARISONS_EXCEEDED: {
    status: [429],
    meaning: 'This participant or face validation had all its 25 face comparisons; the organization can send a new link',
  },
  FACE_MATCHING_DISABLED: { status: [404], meaning: 'This instance compares no faces (FACE_MATCHER=manual)' },
  FACE_MATCHER_FAILED: { status: [503], meaning: 'The face comparison failed on the machine (a worker stopped); send the photo again' },
  DOCUMENT_READER_FAILED: { status: [503], meaning: 'The text of the document could not be read on the machine (the OCR worker failed); send the image again' },

  // The declared identification number, checked in every flow
  DOCUMENT_NUMBER_MISMATCH: {
    status: [422],
    meaning:
      'The number read on the photo of the identity document is not the declared identification: a failed attempt, counted like a face that does not match (the third blocks); the page asks for the photo of the document again',
  },

  // Organizations and the people's pages
  ORGANIZATION_NOT_FOUND: { status: [404], meaning: "The key's organization no longer exists" },
  LINK_NOT_FOUND: { status: [404], meaning: 'The request carries no well-formed link token (X-Link-Token)' },
  EMBED_NOT_FOUND: {
    status: [404],
    meaning:
      'The embedded flow cannot open: the key, the document, the participant, the embedding origin or the token is not one the organization allows (or it requires a token and none was sent)',
  },
  SDK_ORIGIN_NOT_ALLOWED: { status: [400], meaning: "A token for embedding is minted only for an origin of the organization's SDK origins" },
  PHONE_NOT_ON_RECORD: { status: [400], meaning: 'The participant has no phone number to send the link to' },

  // The operator console (src/console)
  CONSOLE_SIGN_IN_REQUIRED: {
    status: [401],
    meaning:
      "No console session: the session cookie is missing, unknown, signed out, idle too long or past its end (an API key or a person's link is no session)",
  },
  CONSOLE_ADMIN_REQUIRED: {
    status: [403],
    meaning: "The console user is not an admin: keys, settings, webhooks, users and the audit log are the organization's admins'",
  },
  CONSOLE_REVIEWER_REQUIRED: {
    status: [403],
    meaning:
      "The console user is a sender or a viewer: identity data (ID and face photos, ID numbers, phones) and the review queue's decisions are the organization's reviewers' and admins'",
  },
  CONSOLE_SENDER_REQUIRED: {
    status: [403],
    meaning:
      'The console user is a viewer, who reads and changes nothing: reminding, cancelling and reactivating processes, and making templates and reference links, are for senders, reviewers and admins',
  },
  CONSOLE_ORIGIN_REFUSED: {
    status: [403],
    meaning: "A console request that changes something came from another site, or without an Origin header naming the service's own (PUBLIC_URL)",
  },
  API_KEY_NOT_FOUND: { status: [400], meaning: 'No active API key with this id in the organization (unknown, revoked already, or of another organization)' },
  REVIEW_NOT_FOUND: {
    status: [404],
    meaning: "Nothing waiting in the organization's review queue goes by this code: unknown, another organization's, or decided already",
  },
  CONSOLE_SIGN_IN_INVALID: {
    status: [401],
    meaning:
      'The sign-in link, code or passkey is wrong, used already, or expired (a passkey: unknown, or its challenge used or expired): start the sign-in again',
  },
  CONSOLE_SECOND_FACTOR_OVER: {
    status: [401],
    meaning:
      "The sign-in waiting for the authenticator app's code is over (5 minutes passed, or 5 wrong codes were typed), or there is none: start the sign-in again",
  },
  CONSOLE_TOTP_ALREADY_ON: {
    status: [409],
    meaning: "The user's TOTP second factor is on already: an admin resets it (admin user totp-reset) before a new enrolment",
  },
  CONSOLE_TOTP_NOT_STARTED: { status: [409], meaning: 'No TOTP enrolment waits for its first code: start one (POST /console/api/totp/enrol)' },
  CONSOLE_TOTP_INVALID: {
    status: [400],
    meaning: "The code is not the authenticator app's current one (or was used already): type the code the app shows now",
  },
  CONSOLE_PASSKEY_INVALID: {
    status: [400],
    meaning: "The passkey's registration does not check out: its challenge is unknown, used or expired, or the authenticator's answer is not for this site",
  },
  CONSOLE_PASSKEY_NOT_FOUND: { status: [404], meaning: 'No passkey of the signed-in user has this id' },

  // Prebuilt processes and the SDK's fill flow
  PREBUILD_NOT_ENABLED: {
    status: [400],
    meaning: 'The template takes no prebuilt processes: its preBuild is false, or its preBuildData does not end with the e-mail question of who completes it',
  },
  PREFILLED_ANSWER_LOCKED: { status: [400], meaning: 'An answer changes one the integrator filled in beforehand (POST /document/prebuild): those are locked' },
  PREBUILT_COMPLETED: { status: [410], meaning: 'The prebuilt process was completed already: its process exists under the same code' },
  PREBUILT_CANCELLED: { status: [410], meaning: 'The prebuilt process was cancelled before anyone completed it' },
  PREBUILT_EXPIRED: { status: [410], meaning: 'The prebuilt process passed its expiredDate before anyone completed it' },
  FILL_SESSION_EXPIRED: { status: [410], meaning: 'The form the SDK opened is older than its lifetime (12 hours): the page opens it again' },
  FILL_SESSION_USED: { status: [410], meaning: 'The form the SDK opened made its process already: each opening makes one' },

  // Verification of final documents
  VERIFY_INPUT_REQUIRED: { status: [400], meaning: 'Send a PDF (application/pdf or a form upload) or a code to verify' },
  VERIFY_FILE_TOO_LARGE: { status: [413], meaning: 'The PDF to verify is larger than the service takes' },

  // WhatsApp
  WHATSAPP_WEBHOOK_NOT_CONFIGURED: {
    status: [404],
    meaning:
      'This instance takes no WhatsApp webhook: the handshake needs WHATSAPP_VERIFY_TOKEN, and deliveries need WHATSAPP_APP_SECRET when a provider is configured',
  },
  WHATSAPP_VERIFY_TOKEN_INVALID: {
    status: [403],
    meaning: 'The handshake is not a subscription with the verify token this instance was given (WHATSAPP_VERIFY_TOKEN)',
  },
  WHATSAPP_SIGNATURE_INVALID: {
    status: [401],
    meaning: 'The delivery is not signed by Meta: X-Hub-Signature-256 is missing, or is not the HMAC-SHA256 of the body with WHATSAPP_APP_SECRET',
  },
  PARTICIPANT_NOT_FOUND: { status: [404], meaning: 'No participant with this id in the organization' },
  LOCAL_CHAT_NUMBER_NOT_FOUND: {
    status: [404],
    meaning:
      "The local chat has no conversation with this number that the key's organization may read or write as (a number of another organization's open flow included)",
  },
  LOCAL_CHAT_MESSAGE_NOT_FOUND: { status: [404], meaning: 'No message with this id in this conversation of the local chat, or none that is a document' },
  LOCAL_CHAT_FILE_INVALID: { status: [400], meaning: 'The local chat sends JPEG or PNG photos only, as WhatsApp would carry them to the conversation' },

  // Webhooks
  WEBHOOK_ALREADY_EXISTS: { status: [400], meaning: 'A webhook of this name exists in the organization' },
  WEBHOOK_URL_NOT_ALLOWED: { status: [400], meaning: 'The webhook URL resolves to a private, loopback or link-local address' },
  WEBHOOK_DISABLED: { status: [400], meaning: 'The webhook is disabled' },
  DELIVERY_NOT_FOUND: { status: [400], meaning: 'No delivery with this id in the organization' },
  DELIVERY_PENDING: { status: [400], meaning: 'The delivery is still being tried' },

  // Company (PUT /company): the real service's own words, which its integrators compare
  'Falta el webhook default': { status: [400], meaning: 'The webhooks sent to PUT /company hold none with id "default"' },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The codes the catalogue answers at several statuses, each naming its situations. */
export type SituatedCode = { [C in ErrorCode]: (typeof ERROR_CATALOGUE)[C] extends { when: object } ? C : never }[ErrorCode];

/** The situations a code answered at several statuses tells apart. */
export type SituationOf<C extends SituatedCode> = keyof (typeof ERROR_CATALOGUE)[C]['when'] & string;

/** An answer's message: a catalogue code, alone or with a detail after a colon. */
export type CodeMessage = ErrorCode | `${ErrorCode}: ${string}`;

/** A validation message in Joi's words: it names the field in double quotes first. */
export type FieldMessage = `"${string}`;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, value);
}

/** The code a message starts with, or undefined for a validation message. */
export function codeOf(message: string): ErrorCode | undefined {
  const code = message.split(':', 1)[0] ?? '';
  return isErrorCode(code) ? code : undefined;
}

/**
 * A message built at run time (Joi's, or a rule's that quotes its field) checked to be one the
 * catalogue accounts for. Anything else is a programming error, answered as a 500 and logged.
 */
export function answerMessage(message: string): CodeMessage | FieldMessage {
  if (message.startsWith('"')) return message as FieldMessage;
  if (codeOf(message) !== undefined) return message as CodeMessage;
  throw new Error(`answer message outside the error catalogue: ${message}`);
}
