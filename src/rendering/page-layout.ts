import { isRecord } from '../is-record.js';

/** Points in a millimetre: PDF and the layout below measure in points. */
export const POINTS_PER_MM = 72 / 25.4;

/** A4 as Chromium prints it (`format: 'A4'`), in points, as pdfinfo reads its pages. */
export const A4_POINTS = { width: 595.92, height: 842.88 } as const;

/** What a header or footer shows: on the first page, the last, and every other (`default`). HTML. */
export interface BandContents {
  first?: string;
  default?: string;
  last?: string;
}

/** A header or a footer: its height in points and its contents. */
export interface Band {
  height: number;
  contents: BandContents;
}

/**
 * How a document's pages are laid out: `border`, the distance in points from each edge of the
 * paper to the header, the footer or the text; the header and footer bands, on every page, between
 * the border and the text. The text's margins are the border plus the band on that side.
 */
export interface PageLayout {
  border: { top: number; right: number; bottom: number; left: number };
  header?: Band;
  footer?: Band;
}

/**
 * The service's own layout: 15 mm around the text, and 22 mm at the bottom, kept free for the
 * verification mark the seal draws there (code, QR code, page number), so a document's preview
 * and its final copy break their pages alike.
 */
export const SERVICE_LAYOUT: PageLayout = {
  border: { top: 15 * POINTS_PER_MM, right: 15 * POINTS_PER_MM, bottom: 22 * POINTS_PER_MM, left: 15 * POINTS_PER_MM },
};

/** The margins of the text, in points. */
export function textMargins(layout: PageLayout): PageLayout['border'] {
  const { border, header, footer } = layout;
  return { ...border, top: border.top + (header?.height ?? 0), bottom: border.bottom + (footer?.height ?? 0) };
}

/**
 * The band's HTML on page `page` of `pages`: `first` on the first page and `last` on the last when
 * they say something (an empty one falls back, docs/real-service.md §2.2), `default` otherwise;
 * `{{page}}` and `{{pages}}` become the numbers.
 */
export function bandHtml(contents: BandContents, page: number, pages: number): string {
  const chosen = (page === 1 && contents.first) || (page === pages && contents.last) || contents.default || '';
  return chosen.replaceAll('{{page}}', String(page)).replaceAll('{{pages}}', String(pages));
}

/**
 * One A4 page per page of the document, each holding only its header and footer, where the
 * document's margins leave room for them; nothing else, so drawn over the document's page it adds
 * the bands alone. The contents are the template author's HTML, printed by the same confined
 * renderer as the document (no script, no request).
 */
export function bandsDocument(layout: PageLayout, pages: number): string {
  const { border, header, footer } = layout;
  // Placed from the top, and each sheet a point shorter than the paper: one exactly as tall may
  // spill a blank page after it, and the sheets must be the document's pages one for one.
  const band = (top: number, of: Band, page: number) =>
    `<div class="band" style="top:${top}pt;height:${of.height}pt">${bandHtml(of.contents, page, pages)}</div>`;
  const footerTop = A4_POINTS.height - border.bottom - (footer?.height ?? 0);
  const sheets: string[] = [];
  for (let page = 1; page <= pages; page++) {
    sheets.push(`<div class="sheet">${header ? band(border.top, header, page) : ''}${footer ? band(footerTop, footer, page) : ''}</div>`);
  }
  return (
    '<!DOCTYPE html><html><head><meta charset="utf-8"><style>' +
    'html,body{margin:0;padding:0;background:transparent}' +
    `.sheet{position:relative;width:${A4_POINTS.width}pt;height:${A4_POINTS.height - 1}pt;overflow:hidden;break-after:page}` +
    `.band{position:absolute;left:${border.left}pt;right:${border.right}pt;overflow:hidden;` +
    "font-family:Arial,Helvetica,'Open Sans',sans-serif;font-size:9pt;color:#222222}" +
    `</style></head><body>${sheets.join('')}</body></html>`
  );
}

function isBand(value: unknown): value is Band {
  return (
    isRecord(value) &&
    typeof value.height === 'number' &&
    isRecord(value.contents) &&
    ['first', 'default', 'last'].every((key) => isRecord(value.contents) && (value.contents[key] === undefined || typeof value.contents[key] === 'string'))
  );
}

/** A layout received from another thread, checked. */
export function isPageLayout(value: unknown): value is PageLayout {
  if (!isRecord(value) || !isRecord(value.border)) return false;
  const { border } = value;
  return (
    ['top', 'right', 'bottom', 'left'].every((side) => typeof border[side] === 'number') &&
    (value.header === undefined || isBand(value.header)) &&
    (value.footer === undefined || isBand(value.footer))
  );
}
