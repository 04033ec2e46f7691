import { invalid } from '../../domain-error.js';
import type { PositionInput } from '../schemas.js';

/** A page's MediaBox size, in points. */
export interface PageSize {
  width: number;
  height: number;
}

/** Where a signature goes: a box on a 1-based page, in points from the page's bottom-left corner. */
export interface PlacedBox {
  page: number;
  left: number;
  bottom: number;
  width: number;
  height: number;
}

/**
 * A box given by its bottom-right corner (fractions of the page, y from the top) and its size in
 * points, in the page's points from its bottom-left corner: right = x·W, bottom = H − y·H. Refused,
 * naming `field`, when the page is not in the PDF or the box does not fit on it.
 */
export function boxFromPosition(position: PositionInput, pages: PageSize[], field: string): PlacedBox {
  const size = pages[position.page - 1];
  if (!size) throw invalid(`"${field}.page" must be a page of the PDF, which has ${pages.length}`);
  const right = position.x * size.width;
  const bottom = size.height - position.y * size.height;
  const left = right - position.w;
  if (left < 0 || bottom + position.h > size.height) {
    throw invalid(
      `"${field}" must lie inside page ${position.page} (${size.width} × ${size.height} pt): its box of ${position.w} × ${position.h} pt does not fit at that corner`,
    );
  }
  return { page: position.page, left, bottom, width: position.w, height: position.h };
}
