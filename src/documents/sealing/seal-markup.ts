import type { ParticipantRow } from '../../db/schema.js';
import { escapeHtml } from '../../text/escape-html.js';
import { actedLabel, type CertificateBlock, verificationSummary } from './seal-evidence.js';
import type { SealLocale } from './seal-language.js';

/*
 * Markup the seal adds to documents, rendered by Chromium. Styles are inline, so the added parts do
 * not depend on the template's own stylesheet; every text is escaped, and images are data: URIs
 * (the renderer loads nothing).
 */

const FONT = "font-family:Arial,Helvetica,'Open Sans',sans-serif;color:#222222";
const CELL = 'border:1px solid #bbbbbb;padding:3px 5px;text-align:left;vertical-align:top';
const TABLE = 'border-collapse:collapse;width:100%;margin:0 0 8px 0;font-size:9px';
const BREAK_ANYWHERE = "word-break:break-all;font-family:'Courier New',Courier,monospace";

function cell(tag: 'td' | 'th', text: string, extraStyle = ''): string {
  return `<${tag} style="${CELL}${extraStyle}">${escapeHtml(text)}</${tag}>`;
}

/** A signature image, or the name in a handwriting-like style when the participant sent none. */
function signatureMark(name: string, image: string | undefined): string {
  if (image !== undefined) return `<img src="${escapeHtml(image)}" alt="${escapeHtml(name)}" style="display:block;max-height:56px;max-width:220px">`;
  return `<div style="font-family:'Brush Script MT',cursive;font-style:italic;font-size:18px;line-height:1.2">${escapeHtml(name)}</div>`;
}

function renderBlock(block: CertificateBlock): string {
  switch (block.kind) {
    case 'title':
      return `<h1 style="font-size:18px;margin:0 0 8px 0">${escapeHtml(block.text)}</h1>`;
    case 'paragraph':
      return `<p style="font-size:10px;margin:0 0 8px 0">${escapeHtml(block.text)}</p>`;
    case 'heading':
      return `<h2 style="font-size:14px;margin:16px 0 6px 0;border-bottom:1px solid #999999;break-after:avoid">${escapeHtml(block.text)}</h2>`;
    case 'subheading':
      return `<h3 style="font-size:12px;margin:10px 0 4px 0;break-after:avoid">${escapeHtml(block.text)}</h3>`;
    case 'fields':
      return `<table style="${TABLE}">${block.fields
        .map(([label, value]) => `<tr>${cell('th', label, ';width:30%;background:#f2f2f2')}${cell('td', value, ';overflow-wrap:anywhere')}</tr>`)
        .join('')}</table>`;
    case 'signature':
      return `<div style="margin:0 0 8px 0;font-size:9px;break-inside:avoid"><div style="color:#555555">${escapeHtml(block.label)}</div>${signatureMark(block.name, block.image)}</div>`;
    case 'table': {
      const head = `<thead><tr>${block.columns.map((column) => cell('th', column, ';background:#f2f2f2')).join('')}</tr></thead>`;
      const rows = block.rows
        .map(
          (row) =>
            `<tr style="break-inside:avoid">${row.map((value, index) => cell('td', value, block.breakable.includes(index) ? `;${BREAK_ANYWHERE}` : ';overflow-wrap:anywhere')).join('')}</tr>`,
        )
        .join('');
      return `<table style="${TABLE}">${head}<tbody>${rows}</tbody></table>`;
    }
  }
}

function certificateSection(blocks: CertificateBlock[]): string {
  return `<div class="seal-certificate" style="${FONT};font-size:10px;line-height:1.35">${blocks.map(renderBlock).join('')}</div>`;
}

/** A self-contained HTML page holding the certificate: nothing loaded from elsewhere. */
export function certificateDocument(blocks: CertificateBlock[], options: { title: string; locale: SealLocale }): string {
  return [
    '<!DOCTYPE html>',
    `<html lang="${escapeHtml(options.locale.labels.htmlLang)}">`,
    '<head>',
    '<meta charset="UTF-8">',
    `<title>${escapeHtml(options.title)}</title>`,
    '</head>',
    '<body style="margin:0">',
    certificateSection(blocks),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** One participant's signature stamp: their signature, who, how, when, and what was verified. */
export function stampMarkup(participant: ParticipantRow, locale: SealLocale, image: string | undefined): string {
  const summary = verificationSummary(participant, locale);
  const { labels } = locale;
  const lines = [
    signatureMark(participant.name, image),
    `<div style="font-size:11px;font-weight:bold;border-top:1px solid #1f4e79;margin-top:2px;padding-top:2px">${escapeHtml(participant.name)}</div>`,
    `<div>${escapeHtml(actedLabel(participant, locale))}</div>`,
    `<div>${escapeHtml(participant.signed_at === null ? '' : locale.dateTime(participant.signed_at))}</div>`,
    `<div>${escapeHtml(`${labels.participantId}: ${participant.participant_id}`)}</div>`,
    `<div>${escapeHtml(`${labels.codeVerification}: ${summary.code}`)}</div>`,
    `<div>${escapeHtml(`${labels.identityVerification}: ${summary.identity}`)}</div>`,
  ];
  return (
    `<div class="seal-stamp" data-participant="${escapeHtml(participant.participant_id)}" ` +
    `style="display:inline-block;border:1px solid #1f4e79;padding:4px 8px;margin:4px 4px 4px 0;${FONT};font-size:9px;line-height:1.3;text-align:left;break-inside:avoid">` +
    `${lines.join('')}</div>`
  );
}

/** Where the stamps that have no placeholder in the document go, at the end of its body. */
export function signaturesSection(stamps: string[], locale: SealLocale): string {
  return (
    `<div class="seal-signatures" style="margin-top:24px;${FONT}">` +
    `<h3 style="font-size:14px;margin:0 0 6px 0">${escapeHtml(locale.labels.signatures)}</h3>${stamps.join('')}</div>`
  );
}
