import type { ProcessDocumentRow } from '../db/schema.js';
import type { PageLayout } from '../rendering/page-layout.js';
import { layoutToKeep, pageLayoutOf } from '../templates/page-layout.js';

/**
 * How a template document's pages are laid out: its template's `custom` as the process kept it at
 * creation (a template edited later changes nothing here); undefined for the service's layout.
 */
export function documentLayout(document: Pick<ProcessDocumentRow, 'layout'>): PageLayout | undefined {
  if (document.layout === null) return undefined;
  const kept = layoutToKeep(JSON.parse(document.layout));
  return kept === undefined ? undefined : pageLayoutOf(kept);
}
