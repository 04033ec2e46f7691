import { parseJson } from '../../db/json-column.js';
import type { AttachmentRow, IdentityAttemptRow, ParticipantRow, ProcessDocumentRow, ProcessEventRow, ProcessRow } from '../../db/schema.js';
import { attemptFacts, identityHash, participantHashSubject } from '../../identity-attempts/attempt-view.js';
import type { PadesLevel } from '../../pdf-signing/pades-level.js';
import type { NumberCheck } from '../../veriface/document/number-check.js';
import type { EffectiveValidations } from '../identity-validations.js';
import { validationsOf } from '../notify-participants.js';
import type { SignatureImage } from './drawing/signature-image.js';
import type { SealLocale } from './seal-language.js';

/** What the evidence certificate states about a finished process. */
export interface SealEvidence {
  process: ProcessRow;
  /** When the last participant acted: the FINISH line of the audit trail. */
  finishedAt: string;
  /** Each document with the SHA-256 of the bytes the participants signed. */
  documents: { row: ProcessDocumentRow; sha256: string }[];
  participants: ParticipantRow[];
  /** The participants' identity checks (src/identity-attempts), oldest first. */
  attempts: IdentityAttemptRow[];
  /** The files asked of the participants; those given are listed with their SHA-256. */
  attachments: AttachmentRow[];
  events: ProcessEventRow[];
  /** The PNG each participant signed with, by participant id. */
  signaturePngs: ReadonlyMap<string, Buffer>;
  locale: SealLocale;
  /** How the final files are sealed: the organization's PAdES level and the seal's certificate chain (common names, its own first). */
  seal: { level: PadesLevel; chain: string[] };
}

/** A final file as the certificate lists it; the certificate cannot list itself, nor be listed in a file it is part of. */
export interface FinalFile {
  document: ProcessDocumentRow;
  /** The file name under the process's final folder. */
  file: string;
  sha256: string;
}

/** The certificate as layout-neutral blocks. */
export type CertificateBlock =
  | { kind: 'title'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'subheading'; text: string }
  | { kind: 'fields'; fields: [label: string, value: string][] }
  /** A participant's signature: their image when they sent one, their name otherwise. */
  | { kind: 'signature'; label: string; name: string; image: SignatureImage | undefined }
  /** `breakable` columns hold long unbroken values (hashes) that may wrap anywhere. */
  | { kind: 'table'; columns: string[]; rows: string[][]; breakable: number[] };

/**
 * The audit trail up to the process's FINISH line. Lines written after it (a participant opening
 * the finished process) are not part of the signing, and leaving them out makes every run over the
 * same finished process state the same evidence.
 */
export function signingTrail(events: ProcessEventRow[]): { events: ProcessEventRow[]; finish?: ProcessEventRow } {
  let last = -1;
  events.forEach((event, index) => {
    if (event.action === 'FINISH') last = index;
  });
  const finish = events[last];
  return finish ? { events: events.slice(0, last + 1), finish } : { events };
}

function detailObject(detail: string | null): Record<string, unknown> | undefined {
  const parsed = parseJson<unknown>(detail);
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? Object.fromEntries(Object.entries(parsed)) : undefined;
}

/** An audit line's detail (IP, user agent, similarity, ...) as `key: value` pairs, in the order it was recorded. */
function describeDetail(detail: string | null): string {
  const object = detailObject(detail);
  if (object === undefined) {
    const parsed = parseJson<unknown>(detail);
    return parsed === undefined ? '' : JSON.stringify(parsed);
  }
  return Object.entries(object)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('; ');
}

function describeValidations(validations: EffectiveValidations, locale: SealLocale): string {
  const { labels } = locale;
  const asked: string[] = [];
  if (validations.otpCode) asked.push(labels.otpBy(validations.options.otpCode === 'phone' ? 'phone' : 'email'));
  if (validations.camera) asked.push(validations.options.camera === 'identification' ? labels.identityDocument : labels.identityFace);
  return asked.length === 0 ? labels.noValidations : asked.join('; ');
}

/** The verification lines of a participant, for the stamp and the certificate. */
export function verificationSummary(participant: ParticipantRow, locale: SealLocale): { code: string; identity: string } {
  const { labels } = locale;
  const validations = validationsOf(participant);
  const code =
    participant.otp_verified_at !== null
      ? labels.verified(locale.dateTime(participant.otp_verified_at))
      : validations.otpCode
        ? labels.notVerified
        : labels.notRequested;
  const identity =
    participant.camera_verified_at !== null
      ? labels.verified(locale.dateTime(participant.camera_verified_at))
      : validations.camera
        ? labels.notVerified
        : labels.notRequested;
  return { code, identity };
}

/**
 * How the final documents name a participant: their number in the process. Never their id, which
 * every participant receiving the documents would otherwise read, and which with the process code
 * opens that participant's flow in the SDK.
 */
export function participantNumber(participant: Pick<ParticipantRow, 'position'>): string {
  return String(participant.position + 1);
}

/**
 * A process with no document only collected the participants' files (POST /package/upload): its
 * certificate says who gave files, not who signed, and lists no documents.
 */
function collectsFilesOnly(evidence: Pick<SealEvidence, 'documents'>): boolean {
  return evidence.documents.length === 0;
}

export function actedLabel(participant: Pick<ParticipantRow, 'role'>, locale: SealLocale): string {
  return participant.role === 'APPROVER' ? locale.labels.approvedElectronically : locale.labels.signedElectronically;
}

/** The IP address and browser the participant signed or approved from, as their audit line recorded them. */
export function signedFrom(participant: ParticipantRow, events: ProcessEventRow[]): { ip?: string; userAgent?: string } {
  const line = events
    .filter((event) => event.participant_id === participant.participant_id && (event.action === 'PARTICIPANT_SIGN' || event.action === 'PARTICIPANT_APPROVE'))
    .at(-1);
  const detail = line ? detailObject(line.detail) : undefined;
  return {
    ...(typeof detail?.ip === 'string' ? { ip: detail.ip } : {}),
    ...(typeof detail?.userAgent === 'string' ? { userAgent: detail.userAgent } : {}),
  };
}

/**
 * A phone or an identity number as the final files show it: its last four characters. Every
 * participant receives these files, and each other's numbers are not theirs to read; the last
 * digits still tell which number was used, and the organization's API keeps the whole of it.
 */
export function lastFour(value: string): string {
  return value.length <= 4 ? value : `••••${value.slice(-4)}`;
}

function participantFields(participant: ParticipantRow, evidence: SealEvidence): [string, string][] {
  const { locale } = evidence;
  const { labels } = locale;
  const validations = validationsOf(participant);
  const fields: [string, string][] = [
    [labels.participantNumber, participantNumber(participant)],
    [labels.name, participant.name],
    [labels.email, participant.email],
  ];
  if (participant.phone !== null) fields.push([labels.phone, lastFour(participant.phone)]);
  const filesOnly = collectsFilesOnly(evidence);
  fields.push([labels.role, participant.role === 'APPROVER' ? labels.approver : filesOnly ? labels.givesFiles : labels.signer]);
  if (participant.signer_type !== null) fields.push([labels.signerType, participant.signer_type]);
  if (participant.identification !== null || participant.identification_type !== null) {
    const number = [participant.identification_type, participant.identification === null ? null : lastFour(participant.identification)]
      .filter((part) => part !== null)
      .join(' ');
    fields.push([labels.identification, number]);
  }
  if (participant.country !== null) fields.push([labels.country, participant.country]);
  fields.push([labels.validationsRequested, describeValidations(validations, locale)]);
  const channels = validations.channels.map((channel) => labels.channel(channel)).join(` ${labels.and} `);
  fields.push([labels.notifiedBy, participant.notification === 1 ? channels : labels.notifiedByIntegrator]);
  if (participant.opened_at !== null) fields.push([labels.opened, locale.dateTimeWithUtc(participant.opened_at)]);
  const summary = verificationSummary(participant, locale);
  fields.push([labels.codeVerification, participant.otp_verified_at !== null ? locale.dateTimeWithUtc(participant.otp_verified_at) : summary.code]);
  fields.push([
    labels.identityVerification,
    participant.camera_verified_at !== null ? locale.dateTimeWithUtc(participant.camera_verified_at) : summary.identity,
  ]);
  const acted = participant.role === 'APPROVER' ? labels.approved : filesOnly ? labels.gaveFiles : labels.signed;
  fields.push([acted, participant.signed_at !== null ? locale.dateTimeWithUtc(participant.signed_at) : labels.notDone]);
  const from = signedFrom(participant, evidence.events);
  if (from.ip !== undefined) fields.push([labels.ipAddress, from.ip]);
  if (from.userAgent !== undefined) fields.push([labels.browser, from.userAgent]);
  return fields;
}

function describeNumberCheck(check: NumberCheck, locale: SealLocale): string {
  const { labels } = locale;
  if (check.result === 'UNREAD') return labels.numberUnread(check.reason);
  const source = labels.numberSources[check.readFrom];
  return check.result === 'MATCH' ? labels.numberMatches(source) : labels.numberDiffers(source);
}

/**
 * A participant's identity checks, as GET /document?image=true shows them but without photos or
 * what was read (every participant receives the final files): when, the outcome, the similarity,
 * the face photo's liveness score, how the document's number compared, the reasons; then the hash of them all.
 */
function attemptBlocks(participant: ParticipantRow, evidence: SealEvidence): CertificateBlock[] {
  const own = evidence.attempts.filter((attempt) => attempt.participant_row_id === participant.id);
  if (own.length === 0) return [];
  const { locale } = evidence;
  const { labels } = locale;
  const views = own.map(attemptFacts);
  return [
    {
      kind: 'table',
      columns: [...labels.attemptColumns],
      rows: views.map((view) => [
        locale.dateTimeWithUtc(view.date),
        view.successful ? labels.attemptSucceeded : labels.attemptFailed,
        view.similarity === undefined ? '' : view.similarity.toFixed(2),
        view.liveness === undefined ? '' : view.liveness.toFixed(2),
        describeNumberCheck(view.numberCheck, locale),
        view.errorMessages.map((message) => message.error).join(', '),
      ]),
      breakable: [],
    },
    { kind: 'table', columns: [labels.identityHash], rows: [[identityHash(participantHashSubject(evidence.process, participant), own)]], breakable: [0] },
  ];
}

/**
 * The files a participant attached, with the SHA-256 of each as received (the bytes GET
 * /attachments downloads) and the creator's review when there was one.
 */
function attachmentBlocks(participant: ParticipantRow, evidence: SealEvidence): CertificateBlock[] {
  const given = evidence.attachments.filter((file) => file.participant_row_id === participant.id && file.sha256 !== null);
  if (given.length === 0) return [];
  return [
    {
      kind: 'table',
      columns: [...evidence.locale.labels.attachmentColumns],
      rows: given.map((file) => [
        file.name,
        file.content_type ?? '',
        file.sha256 ?? '',
        file.review === null ? '' : evidence.locale.labels.attachmentReview[file.review],
      ]),
      breakable: [2],
    },
  ];
}

/**
 * The certificate's last section. A final document's copy says where the final files' hashes are;
 * the stand-alone certificate lists them (`finalFiles`), since they exist only once the documents
 * are sealed.
 */
export function finalFilesSection(locale: SealLocale, finalFiles?: FinalFile[]): CertificateBlock[] {
  const { labels } = locale;
  const heading: CertificateBlock = { kind: 'heading', text: labels.finalFiles };
  if (finalFiles === undefined) return [heading, { kind: 'paragraph', text: labels.finalFilesElsewhere }];
  return [
    heading,
    {
      kind: 'table',
      columns: [...labels.finalFileColumns],
      rows: finalFiles.map((file) => [
        String(file.document.position + 1),
        file.file,
        file.document.source === 'template' ? labels.finalTemplate : labels.finalPdf,
        file.sha256,
      ]),
      breakable: [3],
    },
  ];
}

/**
 * The certificate's content up to its last section (`finalFilesSection`), the same in each final
 * document and in the stand-alone certificate. `images` are the signature images ready to draw.
 */
export function certificateBlocks(evidence: SealEvidence, options: { images: ReadonlyMap<string, SignatureImage> }): CertificateBlock[] {
  const { process, locale } = evidence;
  const { labels } = locale;
  const byId = new Map(evidence.participants.map((p) => [p.participant_id, p]));
  const filesOnly = collectsFilesOnly(evidence);
  const blocks: CertificateBlock[] = [
    { kind: 'title', text: labels.certificateTitle },
    { kind: 'paragraph', text: (filesOnly ? labels.introFilesOnly : labels.intro)(process.code, locale.timeZone) },
    { kind: 'heading', text: labels.process },
    {
      kind: 'fields',
      fields: [
        [labels.code, process.code],
        [labels.name, process.name],
        [labels.createdBy, process.creator_email],
        [labels.created, locale.dateTimeWithUtc(process.created_at)],
        [labels.finished, locale.dateTimeWithUtc(evidence.finishedAt)],
      ],
    },
    ...(filesOnly
      ? []
      : ([
          { kind: 'heading', text: labels.documents },
          {
            kind: 'table',
            columns: [...labels.documentColumns],
            rows: evidence.documents.map(({ row, sha256 }) => [
              String(row.position + 1),
              row.name,
              row.source === 'pdf' ? labels.pdfType : labels.templateType,
              sha256,
            ]),
            breakable: [3],
          },
        ] satisfies CertificateBlock[])),
    { kind: 'heading', text: labels.participants },
  ];
  for (const participant of evidence.participants) {
    blocks.push({ kind: 'subheading', text: `${participantNumber(participant)}. ${participant.name}` });
    blocks.push({ kind: 'fields', fields: participantFields(participant, evidence) });
    blocks.push(...attemptBlocks(participant, evidence));
    blocks.push(...attachmentBlocks(participant, evidence));
    if (participant.signed_at !== null && !filesOnly) {
      blocks.push({
        kind: 'signature',
        label: labels.signatureImage,
        name: participant.name,
        image: options.images.get(participant.participant_id),
      });
    }
  }
  blocks.push(
    { kind: 'heading', text: labels.sealSection },
    {
      kind: 'fields',
      fields: [
        [labels.sealLevel, labels.sealLevels[evidence.seal.level]],
        [labels.sealChain, evidence.seal.chain.join(' → ')],
        [labels.sealTimestamps, labels.sealTimestampsOf[evidence.seal.level]],
        [labels.sealRevocation, evidence.seal.level === 'B-LT' || evidence.seal.level === 'B-LTA' ? labels.yes : labels.no],
      ],
    },
  );
  blocks.push({ kind: 'heading', text: labels.auditTrail });
  blocks.push({
    kind: 'table',
    columns: [...labels.auditColumns],
    rows: evidence.events.map((event) => {
      const who = event.participant_id === null ? undefined : byId.get(event.participant_id);
      const participant = who === undefined ? '' : `${participantNumber(who)}. ${who.name}`;
      return [
        locale.dateTimeWithUtc(event.at),
        event.action,
        participant,
        event.platform ?? '',
        event.actor ?? '',
        event.message ?? '',
        describeDetail(event.detail),
      ];
    }),
    breakable: [],
  });
  return blocks;
}
