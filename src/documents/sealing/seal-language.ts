import type { Language } from '../../organizations/settings.js';
import { spanishDate } from '../../text/spanish-dates.js';

/** Every text the seal writes into final documents, in one language. */
export interface SealLabels {
  htmlLang: string;
  certificateTitle: string;
  intro: (code: string, timeZone: string) => string;
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
  participantId: string;
  email: string;
  phone: string;
  role: string;
  signer: string;
  approver: string;
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
  faceSimilarity: string;
  signed: string;
  approved: string;
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
  finalPdfUnchanged: string;
  certificateFile: string;
  signedElectronically: string;
  approvedElectronically: string;
  signatures: string;
  verifyAt: string;
  page: string;
  of: string;
  sealReason: string;
}

const es: SealLabels = {
  htmlLang: 'es',
  certificateTitle: 'Certificado de evidencias',
  intro: (code, timeZone) =>
    `Proceso de firma electrónica ${code}: cada participante firmó o aprobó los documentos indicados, con las verificaciones y el registro de auditoría que guardó el servicio. Horas en la zona ${timeZone}; entre paréntesis, el instante exacto en UTC.`,
  process: 'Proceso',
  code: 'Código',
  name: 'Nombre',
  createdBy: 'Creado por',
  created: 'Creado',
  finished: 'Finalizado',
  documents: 'Documentos',
  documentColumns: ['#', 'Nombre', 'Tipo', 'SHA-256 del documento firmado'],
  templateType: 'Plantilla',
  pdfType: 'PDF',
  participants: 'Participantes',
  participantId: 'ID de participante',
  email: 'Correo electrónico',
  phone: 'Teléfono',
  role: 'Rol',
  signer: 'Firmante',
  approver: 'Aprobador',
  signerType: 'Tipo de firmante',
  identification: 'Documento de identidad',
  country: 'País',
  validationsRequested: 'Validaciones pedidas',
  noValidations: 'ninguna además del enlace personal',
  otpBy: (channel) => `código de un solo uso por ${channel === 'phone' ? 'teléfono' : 'correo electrónico'}`,
  identityFace: 'identidad: foto del rostro',
  identityDocument: 'identidad: rostro comparado con el documento de identidad',
  notifiedBy: 'Notificado por',
  notifiedByIntegrator: 'el integrador, que entregó el enlace personal',
  channel: (channel) => (channel === 'email' ? 'correo electrónico' : 'WhatsApp'),
  and: 'y',
  opened: 'Abrió el documento',
  codeVerification: 'Verificación del código',
  identityVerification: 'Verificación de identidad',
  faceSimilarity: 'Similitud facial',
  signed: 'Firmó',
  approved: 'Aprobó',
  notDone: 'no',
  notRequested: 'no pedida',
  notVerified: 'no verificada',
  verified: (at) => `verificada ${at}`,
  ipAddress: 'Dirección IP',
  browser: 'Navegador',
  signatureImage: 'Firma',
  auditTrail: 'Registro de auditoría',
  auditColumns: ['Hora', 'Acción', 'Participante', 'Plataforma', 'Por', 'Mensaje', 'Detalles'],
  finalFiles: 'Archivos finales',
  finalFilesElsewhere: 'El SHA-256 de cada archivo final, este incluido, figura en el certificado de evidencias guardado con el proceso (certificate.pdf).',
  finalFileColumns: ['#', 'Archivo', 'Contenido', 'SHA-256 del archivo final'],
  finalTemplate: 'Documento firmado con las firmas y este certificado, sellado digitalmente',
  finalPdf: 'Páginas del PDF original seguidas de este certificado, sellado digitalmente',
  finalPdfUnchanged: 'PDF original sin cambios: no se pudo abrir para añadir este certificado',
  certificateFile: 'Este certificado',
  signedElectronically: 'Firmado electrónicamente',
  approvedElectronically: 'Aprobado electrónicamente',
  signatures: 'Firmas electrónicas',
  verifyAt: 'Verifique este documento en',
  page: 'Página',
  of: 'de',
  sealReason: 'Documento final sellado por el servicio de firma',
};

const en: SealLabels = {
  htmlLang: 'en',
  certificateTitle: 'Evidence certificate',
  intro: (code, timeZone) =>
    `Electronic signature process ${code}: every participant below signed or approved the documents listed, with the verifications and the audit trail recorded by the service. Times are in ${timeZone}; in brackets, the exact instant in UTC.`,
  process: 'Process',
  code: 'Code',
  name: 'Name',
  createdBy: 'Created by',
  created: 'Created',
  finished: 'Finished',
  documents: 'Documents',
  documentColumns: ['#', 'Name', 'Type', 'SHA-256 of the document as signed'],
  templateType: 'Template',
  pdfType: 'PDF',
  participants: 'Participants',
  participantId: 'Participant ID',
  email: 'E-mail',
  phone: 'Phone',
  role: 'Role',
  signer: 'Signer',
  approver: 'Approver',
  signerType: 'Signer type',
  identification: 'Identification',
  country: 'Country',
  validationsRequested: 'Validations requested',
  noValidations: 'none beyond the personal link',
  otpBy: (channel) => `one-time code by ${channel === 'phone' ? 'phone' : 'e-mail'}`,
  identityFace: 'identity: face photo',
  identityDocument: 'identity: face compared with the identification document',
  notifiedBy: 'Notified by',
  notifiedByIntegrator: 'the integrator, who delivered the personal link',
  channel: (channel) => (channel === 'email' ? 'e-mail' : 'WhatsApp'),
  and: 'and',
  opened: 'Opened the document',
  codeVerification: 'Code verification',
  identityVerification: 'Identity verification',
  faceSimilarity: 'Face similarity',
  signed: 'Signed',
  approved: 'Approved',
  notDone: 'no',
  notRequested: 'not requested',
  notVerified: 'not verified',
  verified: (at) => `verified ${at}`,
  ipAddress: 'IP address',
  browser: 'Browser',
  signatureImage: 'Signature',
  auditTrail: 'Audit trail',
  auditColumns: ['Time', 'Action', 'Participant', 'Platform', 'By', 'Message', 'Details'],
  finalFiles: 'Final files',
  finalFilesElsewhere: 'The SHA-256 of each final file, this one included, is listed in the evidence certificate stored with the process (certificate.pdf).',
  finalFileColumns: ['#', 'File', 'Contents', 'SHA-256 of the final file'],
  finalTemplate: 'Signed document with signatures and this certificate, digitally sealed',
  finalPdf: 'Original PDF pages followed by this certificate, digitally sealed',
  finalPdfUnchanged: 'Original PDF unchanged: it could not be opened to add this certificate',
  certificateFile: 'This certificate',
  signedElectronically: 'Signed electronically',
  approvedElectronically: 'Approved electronically',
  signatures: 'Electronic signatures',
  verifyAt: 'Verify this document at',
  page: 'Page',
  of: 'of',
  sealReason: 'Final document sealed by the signature service',
};

/** How the seal writes texts and times for one organization. */
export interface SealLocale {
  language: Language;
  timeZone: string;
  labels: SealLabels;
  /** `5 de marzo de 2025, 09:03:22 GMT-5`, in the organization's time zone. */
  dateTime(iso: string): string;
  /** The readable time followed by the stored UTC instant. */
  dateTimeWithUtc(iso: string): string;
  /** The `signDate` text: `05 de marzo de 2025` (REFERENCE 2.5) or `5 March 2025`, of the day in the time zone. */
  signDate(iso: string): string;
}

function parseInstant(iso: string): Date | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Portuguese and French fall back to Spanish until their texts are written. */
export function sealLocale(language: Language, timeZone: string): SealLocale {
  const english = language === 'en';
  const labels = english ? en : es;
  const dateTimeFormat = new Intl.DateTimeFormat(english ? 'en-GB' : 'es', {
    timeZone,
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  });
  const dayParts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' });
  const englishDay = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: 'long', day: 'numeric' });
  const dateTime = (iso: string) => {
    const date = parseInstant(iso);
    return date ? dateTimeFormat.format(date) : iso;
  };
  return {
    language,
    timeZone,
    labels,
    dateTime,
    dateTimeWithUtc: (iso) => `${dateTime(iso)} (${iso})`,
    signDate(iso) {
      const date = parseInstant(iso);
      if (!date) return iso;
      if (english) return englishDay.format(date);
      const part = (type: string) => Number(dayParts.formatToParts(date).find((p) => p.type === type)?.value);
      // A formatted month is always one of the twelve, so the fallback is never written.
      return spanishDate({ year: part('year'), month: part('month'), day: part('day') }, { twoDigitDay: true }) ?? iso;
    },
  };
}
