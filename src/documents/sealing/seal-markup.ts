import type { ParticipantRow } from '../../db/schema.js';
import { escapeHtml } from '../../text/escape-html.js';
import { actedLabel, type CertificateBlock, utcDateTime, verificationSummary } from './seal-evidence.js';

/*
 * Markup the seal adds to documents. Styles are inline and use only block, inline-block and tables,
 * because the documents are made for a PhantomJS-era renderer (REFERENCE 2.5) and the added parts
 * must not depend on the template's own stylesheet.
 */

const FONT = 'font-family:Arial,Helvetica,sans-serif;color:#222222';
const CELL = 'border:1px solid #bbbbbb;padding:3px 5px;text-align:left;vertical-align:top';
const TABLE = 'border-collapse:collapse;width:100%;margin:0 0 8px 0;font-size:10px';
const BREAK_ANYWHERE = 'word-break:break-all;font-family:Courier New,Courier,monospace';

function cell(tag: 'td' | 'th', text: string, extraStyle = ''): string {
  return `<${tag} style="${CELL}${extraStyle}">${escapeHtml(text)}</${tag}>`;
}

function renderBlock(block: CertificateBlock): string {
  switch (block.kind) {
    case 'title':
      return `<h2 style="font-size:18px;margin:0 0 8px 0">${escapeHtml(block.text)}</h2>`;
    case 'paragraph':
      return `<p style="font-size:11px;margin:0 0 8px 0">${escapeHtml(block.text)}</p>`;
    case 'heading':
      return `<h3 style="font-size:14px;margin:16px 0 6px 0;border-bottom:1px solid #999999">${escapeHtml(block.text)}</h3>`;
    case 'subheading':
      return `<h4 style="font-size:12px;margin:10px 0 4px 0">${escapeHtml(block.text)}</h4>`;
    case 'fields':
      return `<table style="${TABLE}">${block.fields
        .map(([label, value]) => `<tr>${cell('th', label, ';width:30%;background:#f2f2f2')}${cell('td', value)}</tr>`)
        .join('')}</table>`;
    case 'table': {
      const head = `<tr>${block.columns.map((column) => cell('th', column, ';background:#f2f2f2')).join('')}</tr>`;
      const rows = block.rows
        .map((row) => `<tr>${row.map((value, index) => cell('td', value, block.breakable.includes(index) ? `;${BREAK_ANYWHERE}` : '')).join('')}</tr>`)
        .join('');
      return `<table style="${TABLE}">${head}${rows}</table>`;
    }
  }
}

/** The certificate as a section; inside a signed document it starts on a page of its own. */
export function certificateSection(blocks: CertificateBlock[], options: { embedded: boolean }): string {
  const pageBreak = options.embedded ? 'page-break-before:always;margin-top:24px;' : '';
  return `<div class="seal-certificate" style="${pageBreak}${FONT};font-size:11px;line-height:1.4">${blocks.map(renderBlock).join('')}</div>`;
}

/** The stand-alone certificate: one self-contained HTML file, nothing loaded from elsewhere. */
export function certificateDocument(blocks: CertificateBlock[], processCode: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="UTF-8">',
    `<title>${escapeHtml(`Evidence certificate ${processCode}`)}</title>`,
    '</head>',
    '<body style="margin:24px">',
    certificateSection(blocks, { embedded: false }),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** One participant's signature stamp: who, how, when, and what was verified. */
export function stampMarkup(participant: ParticipantRow): string {
  const summary = verificationSummary(participant);
  const lines = [
    `<div style="font-size:12px;font-weight:bold">${escapeHtml(participant.name)}</div>`,
    `<div>${escapeHtml(actedLabel(participant))}</div>`,
    `<div>${escapeHtml(participant.signed_at === null ? '' : utcDateTime(participant.signed_at))}</div>`,
    `<div>${escapeHtml(`Participant ID: ${participant.participant_id}`)}</div>`,
    `<div>${escapeHtml(`Code: ${summary.code}`)}</div>`,
    `<div>${escapeHtml(`Identity: ${summary.identity}`)}</div>`,
  ];
  return (
    `<div class="seal-stamp" data-participant="${escapeHtml(participant.participant_id)}" ` +
    `style="display:inline-block;border:1px solid #1f4e79;padding:4px 8px;margin:4px 4px 4px 0;${FONT};font-size:10px;line-height:1.3;text-align:left">` +
    `${lines.join('')}</div>`
  );
}

/** Where the stamps that have no placeholder in the document go, at the end of its body. */
export function signaturesSection(stamps: string[]): string {
  return (
    `<div class="seal-signatures" style="margin-top:24px;${FONT}">` +
    `<h3 style="font-size:14px;margin:0 0 6px 0">Electronic signatures</h3>${stamps.join('')}</div>`
  );
}
