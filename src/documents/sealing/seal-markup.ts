import type { ParticipantRow } from '../../db/schema.js';
import { escapeHtml } from '../../text/escape-html.js';
import { actedLabel, participantNumber, verificationSummary } from './seal-evidence.js';
import type { SealLocale } from './seal-language.js';

/*
 * Markup the seal adds to template documents, rendered by Chromium. Styles are inline, so the added parts do
 * not depend on the template's own stylesheet; every text is escaped, and images are data: URIs
 * (the renderer loads nothing).
 */

const FONT = "font-family:Arial,Helvetica,'Open Sans',sans-serif;color:#222222";
/** A signature image (a PNG, given to the renderer as a data: URI), or the name in a handwriting-like style when the participant sent none. */
function signatureMark(name: string, png: Buffer | undefined): string {
  if (png !== undefined)
    return `<img src="data:image/png;base64,${png.toString('base64')}" alt="${escapeHtml(name)}" style="display:block;max-height:56px;max-width:220px">`;
  return `<div style="font-family:'Brush Script MT',cursive;font-style:italic;font-size:18px;line-height:1.2">${escapeHtml(name)}</div>`;
}

/** One participant's signature stamp: their signature, who, how, when, and what was verified. */
export function stampMarkup(participant: ParticipantRow, locale: SealLocale, png: Buffer | undefined): string {
  const summary = verificationSummary(participant, locale);
  const { labels } = locale;
  const lines = [
    signatureMark(participant.name, png),
    `<div style="font-size:11px;font-weight:bold;border-top:1px solid #1f4e79;margin-top:2px;padding-top:2px">${escapeHtml(participant.name)}</div>`,
    `<div>${escapeHtml(actedLabel(participant, locale))}</div>`,
    `<div>${escapeHtml(participant.signed_at === null ? '' : locale.dateTime(participant.signed_at))}</div>`,
    `<div>${escapeHtml(`${labels.participantNumber}: ${participantNumber(participant)}`)}</div>`,
    `<div>${escapeHtml(`${labels.codeVerification}: ${summary.code}`)}</div>`,
    `<div>${escapeHtml(`${labels.identityVerification}: ${summary.identity}`)}</div>`,
  ];
  return (
    `<div class="seal-stamp" data-participant="${participantNumber(participant)}" ` +
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
