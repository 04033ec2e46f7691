import { parseJson } from '../../db/json-column.js';
import type { ParticipantRow, ProcessDocumentRow, ProcessEventRow, ProcessRow } from '../../db/schema.js';
import { spanishDate } from '../../text/spanish-dates.js';
import type { EffectiveValidations } from '../identity-validations.js';
import { validationsOf } from '../notify-participants.js';

/** What the evidence certificate states about a finished process. */
export interface SealEvidence {
  process: ProcessRow;
  /** When the last participant acted: the FINISH line of the audit trail. */
  finishedAt: string;
  /** Each document with the SHA-256 of the bytes the participants signed. */
  documents: { row: ProcessDocumentRow; sha256: string }[];
  participants: ParticipantRow[];
  events: ProcessEventRow[];
}

/** A final file as the certificate lists it; the certificate cannot list itself, nor be listed in a file it is part of. */
export interface FinalFile {
  document: ProcessDocumentRow;
  /** The file name under the process's final folder. */
  file: string;
  sha256: string;
  /** False for a PDF that could not be opened to add the certificate pages: the file is the original. */
  evidenceAppended: boolean;
}

/** The certificate as layout-neutral blocks, drawn as HTML or as PDF pages from the same content. */
export type CertificateBlock =
  | { kind: 'title'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'subheading'; text: string }
  | { kind: 'fields'; fields: [label: string, value: string][] }
  /** `breakable` columns hold long unbroken values (hashes) that may wrap anywhere. */
  | { kind: 'table'; columns: string[]; rows: string[][]; breakable: number[] };

const ENGLISH_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function parseInstant(iso: string): Date | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** `2025-03-05 14:03:22 UTC`, for stamps and tables. */
export function utcDateTime(iso: string): string {
  const date = parseInstant(iso);
  if (!date) return iso;
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} UTC`;
}

/** The stored ISO instant followed by a readable form: `2025-03-05T14:03:22.000Z (5 March 2025, 14:03:22 UTC)`. */
export function isoAndReadable(iso: string): string {
  const date = parseInstant(iso);
  if (!date) return iso;
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return `${iso} (${date.getUTCDate()} ${ENGLISH_MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}, ${time} UTC)`;
}

/**
 * The `signDate` text, `DD de <mes> de YYYY` (REFERENCE 2.5), of the UTC day: the service has no
 * time zone of its own, and UTC is what every other time of the evidence is written in.
 */
export function spanishSigningDate(iso: string): string {
  const date = parseInstant(iso);
  if (!date) return iso;
  const utcDay = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
  // A Date's month is always one of the twelve, so the fallback is never written.
  return spanishDate(utcDay, { twoDigitDay: true }) ?? iso;
}

/**
 * The audit trail up to the process's FINISH line. Lines written after it (a participant opening
 * the finished process) are not part of the signing, and leaving them out makes every run over the
 * same finished process write the same bytes, so concurrent or repeated runs cannot mix files.
 */
export function signingTrail(events: ProcessEventRow[]): { events: ProcessEventRow[]; finish?: ProcessEventRow } {
  let last = -1;
  events.forEach((event, index) => {
    if (event.action === 'FINISH') last = index;
  });
  const finish = events[last];
  return finish ? { events: events.slice(0, last + 1), finish } : { events };
}

/** An audit line's detail (IP, user agent, similarity, ...) as `key: value` pairs, in the order it was recorded. */
function describeDetail(detail: string | null): string {
  const parsed = parseJson<unknown>(detail);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return parsed === undefined ? '' : JSON.stringify(parsed);
  return Object.entries(parsed)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('; ');
}

function describeValidations(validations: EffectiveValidations): string {
  const asked: string[] = [];
  if (validations.otpCode) asked.push(`one-time code by ${validations.options.otpCode === 'phone' ? 'phone' : 'e-mail'}`);
  if (validations.camera) {
    asked.push(validations.options.camera === 'identification' ? 'identity: face compared with the identification document' : 'identity: face photo');
  }
  return asked.length === 0 ? 'none beyond the personal link' : asked.join('; ');
}

/** The verification lines of a participant, for the stamp and the certificate. */
export function verificationSummary(participant: ParticipantRow): { code: string; identity: string } {
  const validations = validationsOf(participant);
  const code =
    participant.otp_verified_at !== null ? `verified ${utcDateTime(participant.otp_verified_at)}` : validations.otpCode ? 'not verified' : 'not requested';
  const similarity = participant.similarity === null ? '' : `, similarity ${participant.similarity}%`;
  const identity =
    participant.camera_verified_at !== null
      ? `verified ${utcDateTime(participant.camera_verified_at)}${similarity}`
      : validations.camera
        ? 'not verified'
        : 'not requested';
  return { code, identity };
}

export function actedLabel(participant: Pick<ParticipantRow, 'role'>): string {
  return participant.role === 'APPROVER' ? 'Approved electronically' : 'Signed electronically';
}

function participantFields(participant: ParticipantRow): [string, string][] {
  const validations = validationsOf(participant);
  const fields: [string, string][] = [
    ['Participant ID', participant.participant_id],
    ['Name', participant.name],
    ['E-mail', participant.email],
  ];
  if (participant.phone !== null) fields.push(['Phone', participant.phone]);
  fields.push(['Role', participant.role === 'APPROVER' ? 'Approver' : 'Signer']);
  if (participant.signer_type !== null) fields.push(['Signer type', participant.signer_type]);
  if (participant.identification !== null || participant.identification_type !== null) {
    const number = [participant.identification_type, participant.identification].filter((part) => part !== null).join(' ');
    fields.push(['Identification', number]);
  }
  if (participant.country !== null) fields.push(['Country', participant.country]);
  fields.push(['Validations requested', describeValidations(validations)]);
  const channels = validations.channels.map((channel) => (channel === 'email' ? 'e-mail' : 'WhatsApp')).join(' and ');
  fields.push(['Notified by', participant.notification === 1 ? channels : 'the integrator, who delivered the personal link']);
  const summary = verificationSummary(participant);
  fields.push(['Code verification', participant.otp_verified_at !== null ? isoAndReadable(participant.otp_verified_at) : summary.code]);
  fields.push(['Identity verification', participant.camera_verified_at !== null ? isoAndReadable(participant.camera_verified_at) : summary.identity]);
  if (participant.similarity !== null) fields.push(['Face similarity', `${participant.similarity}%`]);
  const acted = participant.role === 'APPROVER' ? 'Approved' : 'Signed';
  fields.push([acted, participant.signed_at !== null ? isoAndReadable(participant.signed_at) : `not ${acted.toLowerCase()}`]);
  return fields;
}

/**
 * The certificate's content. With `finalFiles` it is the stand-alone certificate; without, the copy
 * carried inside a final file, which points to the stand-alone one for the final files' hashes.
 */
export function certificateBlocks(evidence: SealEvidence, finalFiles?: FinalFile[]): CertificateBlock[] {
  const { process } = evidence;
  const names = new Map(evidence.participants.map((p) => [p.participant_id, p.name]));
  const blocks: CertificateBlock[] = [
    { kind: 'title', text: 'Evidence certificate' },
    {
      kind: 'paragraph',
      text: `Electronic signature process ${process.code}: every participant below signed or approved the documents listed, with the verifications and the audit trail recorded by the service. All times are UTC.`,
    },
    { kind: 'heading', text: 'Process' },
    {
      kind: 'fields',
      fields: [
        ['Code', process.code],
        ['Name', process.name],
        ['Created by', process.creator_email],
        ['Created', isoAndReadable(process.created_at)],
        ['Finished', isoAndReadable(evidence.finishedAt)],
      ],
    },
    { kind: 'heading', text: 'Documents' },
    {
      kind: 'table',
      columns: ['#', 'Name', 'Type', 'SHA-256 of the document as signed'],
      rows: evidence.documents.map(({ row, sha256 }) => [String(row.position + 1), row.name, row.source === 'pdf' ? 'PDF' : 'Template (HTML)', sha256]),
      breakable: [3],
    },
    { kind: 'heading', text: 'Participants' },
  ];
  for (const participant of evidence.participants) {
    blocks.push({ kind: 'subheading', text: `${participant.name} (${participant.participant_id})` });
    blocks.push({ kind: 'fields', fields: participantFields(participant) });
  }
  blocks.push({ kind: 'heading', text: 'Audit trail' });
  blocks.push({
    kind: 'table',
    columns: ['Time (UTC)', 'Action', 'Participant', 'Platform', 'By', 'Message', 'Details'],
    rows: evidence.events.map((event) => {
      const name = event.participant_id === null ? undefined : names.get(event.participant_id);
      const participant = event.participant_id === null ? '' : name === undefined ? event.participant_id : `${event.participant_id} ${name}`;
      return [event.at, event.action, participant, event.platform ?? '', event.actor ?? '', event.message ?? '', describeDetail(event.detail)];
    }),
    breakable: [],
  });
  blocks.push({ kind: 'heading', text: 'Final files' });
  if (finalFiles === undefined) {
    blocks.push({
      kind: 'paragraph',
      text: 'The SHA-256 of each final file, this one included, is listed in the evidence certificate stored with the process (certificate.html).',
    });
  } else {
    blocks.push({
      kind: 'table',
      columns: ['#', 'File', 'Contents', 'SHA-256 of the final file'],
      rows: finalFiles.map((file) => [
        String(file.document.position + 1),
        file.file,
        file.document.source === 'template'
          ? 'Signed document with signatures and this certificate'
          : file.evidenceAppended
            ? 'Original PDF pages followed by this certificate'
            : 'Original PDF unchanged: it could not be opened to add this certificate',
        file.sha256,
      ]),
      breakable: [3],
    });
  }
  return blocks;
}
