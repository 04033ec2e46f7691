import type { SealReport } from '../pdf-signing/seal-report.js';
import { escapeHtml } from '../text/escape-html.js';
import type { PublicProcess, Verification } from './verify-document.js';

export type PageLanguage = 'es' | 'en';

/** Spanish unless the browser prefers English over Spanish (Accept-Language, in its order). */
export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  for (const range of (acceptLanguage ?? '').split(',')) {
    const tag = range.split(';')[0]?.trim().toLowerCase() ?? '';
    if (tag.startsWith('es')) return 'es';
    if (tag.startsWith('en')) return 'en';
  }
  return 'es';
}

const TEXT = {
  es: {
    title: 'Verificar un documento firmado',
    intro: 'Suba el PDF final de un proceso de firma, o escriba el código que lleva al pie de cada página.',
    fileLabel: 'Documento PDF',
    fileButton: 'Verificar el archivo',
    codeLabel: 'Código del proceso',
    codeButton: 'Buscar el código',
    unchanged: 'Documento auténtico y sin cambios: es, byte a byte, un documento final de este servicio.',
    changed: 'Este archivo NO es el documento final: nombra un proceso de este servicio, pero su contenido fue modificado.',
    found: 'Proceso de firma encontrado. Para comprobar que su copia no cambió, suba el PDF.',
    unknown: 'Ningún documento final de este servicio corresponde a lo enviado.',
    file: 'Archivo',
    process: 'Proceso',
    status: 'Estado',
    created: 'Creado',
    sealed: 'Sellado',
    documents: 'Documentos',
    participants: 'Participantes',
    signed: 'firmó',
    approved: 'aprobó',
    pending: 'sin firmar',
    statuses: { CREATED: 'en firma', EDITING: 'en edición', FINISH: 'finalizado', REJECTED: 'rechazado', EXPIRED: 'vencido', CANCELLED: 'cancelado' },
    error: 'No se pudo verificar',
    seal: 'Sello digital',
    level: 'Nivel PAdES',
    levels: {
      'B-B': 'B-B: firma digital',
      'B-T': 'B-T: firma con sello de tiempo',
      'B-LT': 'B-LT: firma con sello de tiempo y los datos para validarla a largo plazo',
      'B-LTA': 'B-LTA: como B-LT, más un sello de tiempo sobre todo el documento',
    },
    chain: 'Certificados',
    timestamps: 'Sellos de tiempo',
    timestampKinds: { signature: 'sobre la firma', document: 'sobre el documento' },
    noTimestamps: 'ninguno',
    revocationData: 'Datos de revocación incluidos',
    yes: 'sí',
    no: 'no',
  },
  en: {
    title: 'Verify a signed document',
    intro: 'Upload the final PDF of a signature process, or type the code printed at the foot of each page.',
    fileLabel: 'PDF document',
    fileButton: 'Verify the file',
    codeLabel: 'Process code',
    codeButton: 'Look up the code',
    unchanged: 'Genuine and unchanged: this file is, byte for byte, a final document of this service.',
    changed: 'This file is NOT the final document: it names a process of this service, but its content was changed.',
    found: 'Signature process found. To check that your copy is unchanged, upload the PDF.',
    unknown: 'No final document of this service matches what was sent.',
    file: 'File',
    process: 'Process',
    status: 'Status',
    created: 'Created',
    sealed: 'Sealed',
    documents: 'Documents',
    participants: 'Participants',
    signed: 'signed',
    approved: 'approved',
    pending: 'not signed',
    statuses: { CREATED: 'in signature', EDITING: 'being edited', FINISH: 'finished', REJECTED: 'rejected', EXPIRED: 'expired', CANCELLED: 'cancelled' },
    error: 'Could not verify',
    seal: 'Digital seal',
    level: 'PAdES level',
    levels: {
      'B-B': 'B-B: digital signature',
      'B-T': 'B-T: signature with a trusted timestamp',
      'B-LT': 'B-LT: timestamped signature with the data to validate it in the long term',
      'B-LTA': 'B-LTA: as B-LT, plus a timestamp over the whole document',
    },
    chain: 'Certificates',
    timestamps: 'Timestamps',
    timestampKinds: { signature: 'over the signature', document: 'over the document' },
    noTimestamps: 'none',
    revocationData: 'Revocation data embedded',
    yes: 'yes',
    no: 'no',
  },
} as const;

/** The page's headers: it loads nothing, runs nothing, and its forms post only to itself. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
} as const;

/** An instant as the organization reads it: its language, its time zone. */
function dateOf(process: PublicProcess, iso: string): string {
  const { language, timeZone } = process.dates;
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone }).format(new Date(iso));
}

function processDetails(process: PublicProcess, language: PageLanguage): string {
  const t = TEXT[language];
  const participants = process.participants
    .map((p) => {
      const acted = p.signedAt === null ? t.pending : `${p.role === 'APPROVER' ? t.approved : t.signed} ${dateOf(process, p.signedAt)}`;
      return `<li>${escapeHtml(p.name)}: ${escapeHtml(acted)}</li>`;
    })
    .join('');
  return [
    '<dl>',
    `<dt>${t.process}</dt><dd>${escapeHtml(process.name)} (${escapeHtml(process.code)})</dd>`,
    `<dt>${t.status}</dt><dd>${escapeHtml(t.statuses[process.status])}</dd>`,
    `<dt>${t.created}</dt><dd>${escapeHtml(dateOf(process, process.createdAt))}</dd>`,
    `<dt>${t.sealed}</dt><dd>${escapeHtml(dateOf(process, process.sealedAt))}</dd>`,
    `<dt>${t.documents}</dt><dd><ul>${process.documents.map((d) => `<li>${escapeHtml(d.name)}</li>`).join('')}</ul></dd>`,
    `<dt>${t.participants}</dt><dd><ul>${participants}</ul></dd>`,
    '</dl>',
  ].join('');
}

function sealDetails(seal: SealReport, process: PublicProcess, language: PageLanguage): string {
  const t = TEXT[language];
  const timestamps =
    seal.timestamps.length === 0
      ? escapeHtml(t.noTimestamps)
      : `<ul>${seal.timestamps.map((stamp) => `<li>${escapeHtml(`${dateOf(process, stamp.at)}, ${stamp.authority} (${t.timestampKinds[stamp.kind]})`)}</li>`).join('')}</ul>`;
  return [
    `<h2>${t.seal}</h2><dl>`,
    `<dt>${t.level}</dt><dd>${escapeHtml(t.levels[seal.level])}</dd>`,
    `<dt>${t.chain}</dt><dd>${escapeHtml(seal.chain.join(' → '))}</dd>`,
    `<dt>${t.timestamps}</dt><dd>${timestamps}</dd>`,
    `<dt>${t.revocationData}</dt><dd>${seal.revocationData ? t.yes : t.no}</dd>`,
    '</dl>',
  ].join('');
}

function outcome(verification: Verification, language: PageLanguage): string {
  const t = TEXT[language];
  const message = t[verification.result];
  const tone = verification.result === 'unchanged' || verification.result === 'found' ? '#e8f5e9' : '#ffebee';
  const file =
    verification.result === 'unchanged'
      ? `<p>${t.file}: ${escapeHtml(verification.file)} · SHA-256 <code class="hash">${escapeHtml(verification.sha256)}</code></p>`
      : '';
  const details = 'process' in verification ? processDetails(verification.process, language) : '';
  const seal = verification.result === 'unchanged' && verification.seal ? sealDetails(verification.seal, verification.process, language) : '';
  return `<section role="status" aria-live="polite" style="background:${tone};padding:12px;border-radius:4px"><p><strong>${escapeHtml(message)}</strong></p>${file}${details}${seal}</section>`;
}

/** The verification page: two forms (a file, a code) and, after a request, its outcome or error. */
export function verifyPage(options: { language: PageLanguage; code?: string; verification?: Verification; error?: string }): string {
  const t = TEXT[options.language];
  const result = options.verification ? outcome(options.verification, options.language) : '';
  const error =
    options.error === undefined
      ? ''
      : `<section role="alert" style="background:#ffebee;padding:12px"><p><strong>${t.error}</strong>: ${escapeHtml(options.error)}</p></section>`;
  return `<!DOCTYPE html>
<html lang="${options.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.title}</title>
<style>
body{font-family:system-ui,Arial,sans-serif;max-width:42rem;margin:1rem auto;padding:0 1rem;color:#1b1b1b;line-height:1.5;overflow-wrap:anywhere}
.hash{word-break:break-all}
input[type=file]{width:100%}
form{margin:1rem 0;padding:1rem;border:1px solid #c4c4c4;border-radius:4px}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{font:inherit;padding:.4rem;margin-bottom:.5rem;max-width:100%}
button{font:inherit;padding:.4rem 1rem;cursor:pointer}
:focus-visible{outline:3px solid #1a4fd6;outline-offset:2px}
dt{font-weight:600}dd{margin:0 0 .5rem 0}
</style>
</head>
<body>
<main>
<h1>${t.title}</h1>
${error}${result}
<p>${t.intro}</p>
<form method="post" action="/verify" enctype="multipart/form-data">
<label for="verify-file">${t.fileLabel}</label>
<input id="verify-file" name="file" type="file" accept="application/pdf,.pdf" required>
<button type="submit">${t.fileButton}</button>
</form>
<form method="get" action="/verify">
<label for="verify-code">${t.codeLabel}</label>
<input id="verify-code" name="code" type="text" autocomplete="off" spellcheck="false" maxlength="16" value="${escapeHtml(options.code ?? '')}" required>
<button type="submit">${t.codeButton}</button>
</form>
</main>
</body>
</html>
`;
}
