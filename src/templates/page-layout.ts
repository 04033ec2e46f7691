import Joi from 'joi';
import { A4_POINTS, type Band, type PageLayout, POINTS_PER_MM, SERVICE_LAYOUT } from '../rendering/page-layout.js';

/** A template's `custom` (docs/real-service.md §2.2): the header, footer and borders of its document's pages. */
export interface TemplateLayout {
  noShowHeader?: boolean;
  header?: TemplateBand;
  footer?: TemplateBand;
  border?: { top?: string; right?: string; bottom?: string; left?: string };
}

export interface TemplateBand {
  height: string;
  contents: { first?: string; default?: string; last?: string };
}

export const LAYOUT_LIMITS = {
  /** Characters of one header or footer contents. */
  contentsLength: 20_000,
  /** The most a border or a band's height may be. */
  lengthMm: 100,
  /** What the borders and bands must leave of the page for the text, each way. */
  textMm: 100,
} as const;

const POINTS_PER_UNIT = { mm: POINTS_PER_MM, cm: 10 * POINTS_PER_MM, in: 72, px: 0.75, pt: 1 } as const;
const LENGTH = /^(\d{1,4}(?:\.\d{1,3})?)(mm|cm|in|px|pt)$/;

/** A CSS length the schema accepted, in points. */
function points(length: string): number {
  const match = LENGTH.exec(length);
  const unit = match?.[2];
  if (!match?.[1] || !unit || !(unit in POINTS_PER_UNIT)) throw new Error(`not a length: ${length}`);
  return Number(match[1]) * POINTS_PER_UNIT[unit as keyof typeof POINTS_PER_UNIT];
}

const cssLength = Joi.string()
  .pattern(LENGTH)
  .custom((value: string, helpers) => (points(value) <= LAYOUT_LIMITS.lengthMm * POINTS_PER_MM ? value : helpers.error('string.lengthTooLarge')))
  .messages({
    'string.pattern.base': '{{#label}} must be a CSS length in mm, cm, in, px or pt, such as "10mm"',
    'string.lengthTooLarge': `{{#label}} must be at most ${LAYOUT_LIMITS.lengthMm}mm`,
  });

const contents = Joi.string().allow('').max(LAYOUT_LIMITS.contentsLength);

const band = Joi.object<TemplateBand, true>({
  height: cssLength.required(),
  contents: Joi.object({ first: contents, default: contents, last: contents }).min(1).required(),
});

/** The layout as the renderer takes it: lengths in points, the service's borders where the template gives none. */
export function pageLayoutOf(layout: TemplateLayout): PageLayout {
  const given = (side: 'top' | 'right' | 'bottom' | 'left') => {
    const length = layout.border?.[side];
    return length === undefined ? undefined : points(length);
  };
  const toBand = (of: TemplateBand): Band => ({ height: points(of.height), contents: of.contents });
  const fallback = SERVICE_LAYOUT.border;
  // Without a footer of its own, the bottom keeps room for the seal's verification mark.
  const bottom = layout.footer ? (given('bottom') ?? fallback.top) : Math.max(given('bottom') ?? 0, fallback.bottom);
  return {
    border: { top: given('top') ?? fallback.top, right: given('right') ?? fallback.right, bottom, left: given('left') ?? fallback.left },
    ...(layout.header ? { header: toBand(layout.header) } : {}),
    ...(layout.footer ? { footer: toBand(layout.footer) } : {}),
  };
}

/** The borders and bands must leave the text room on the page. */
const roomForText = (value: TemplateLayout, helpers: Joi.CustomHelpers) => {
  const { border, header, footer } = pageLayoutOf(value);
  const textHeight = A4_POINTS.height - border.top - border.bottom - (header?.height ?? 0) - (footer?.height ?? 0);
  const textWidth = A4_POINTS.width - border.left - border.right;
  return Math.min(textHeight, textWidth) >= LAYOUT_LIMITS.textMm * POINTS_PER_MM ? value : helpers.error('object.noRoomForText');
};

export const templateLayoutSchema = Joi.object<TemplateLayout, true>({
  noShowHeader: Joi.boolean(),
  header: band,
  footer: band,
  border: Joi.object({ top: cssLength, right: cssLength, bottom: cssLength, left: cssLength }),
})
  .custom(roomForText)
  .messages({
    'object.noRoomForText': `{{#label}} must leave the text at least ${LAYOUT_LIMITS.textMm}mm of the A4 page each way: its borders, header and footer take more`,
  })
  .description(
    'The PDF layout of the document: header and footer (`contents.first`, `default`, `last`, HTML with `{{page}}` and `{{pages}}`) and borders, CSS lengths',
  )
  .example({
    header: { height: '12mm', contents: { default: '<div style="text-align:right">Lease 2027</div>' } },
    footer: { height: '10mm', contents: { default: '<div style="text-align:center">Page {{page}} of {{pages}}</div>' } },
    border: { top: '10mm', bottom: '10mm' },
  });

/**
 * The layout a process keeps of its template when it is created: the template's `custom` when it
 * is one (a template stored before `custom` was checked may hold anything: it then has none).
 */
export function layoutToKeep(custom: unknown): TemplateLayout | undefined {
  if (custom === undefined) return undefined;
  const { error, value } = templateLayoutSchema.validate(custom);
  return error || (!value.header && !value.footer && !value.border) ? undefined : value;
}
