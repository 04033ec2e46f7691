import type { TemplateRow } from '../db/schema.js';
import type { BesideRows, TemplateCache } from './cache/template-cache.js';

/**
 * Values made from a row the template cache keeps (a parse of its HTML or body, the text of its
 * answer), kept beside it: one per row object, counted in the cache's budget with the row, and
 * forgotten when the cache drops the row. A row the cache does not keep (no cache, a row read in a
 * transaction, a load a write overtook) gets nothing kept: its caller makes the value for itself.
 * A row object is answered again only while the cache keeps it, and a write makes the cache load
 * a new one, so a value found here was made from the template as it is now.
 */
export class KeptBesideRows<V> implements BesideRows {
  private readonly values = new WeakMap<Readonly<TemplateRow>, V>();

  find(row: Readonly<TemplateRow>): V | undefined {
    return this.values.get(row);
  }

  /**
   * Keeps `value` beside `row` while `cache` keeps the row, its `bytes` counted with the row's
   * entry (more can be added later with `cache.charge`); answers whether it was kept.
   */
  keep(cache: TemplateCache, row: Readonly<TemplateRow>, value: V, bytes = 0): boolean {
    // Set first: counting the bytes may push the row itself out of the budget, which forgets it.
    this.values.set(row, value);
    if (cache.keepBeside(this, row, bytes)) return true;
    this.values.delete(row);
    return false;
  }

  forget(row: Readonly<TemplateRow>): void {
    this.values.delete(row);
  }
}
