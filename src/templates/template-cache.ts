import type { Clock } from '../clock.js';
import type { TemplateRow } from '../db/schema.js';

/**
 * How long a template read from the database is answered from memory. Writes made through this
 * process show at once (TemplateCache.written); this bounds how long a change made to the file from
 * outside the service (an operator's tool, a second instance started by mistake) can go unseen.
 */
export const TEMPLATE_CACHE_TTL_MS = 1000;
/** Charged for each entry beside its text, so that many small templates still fill the budget. */
const ENTRY_OVERHEAD_BYTES = 512;

interface Entry {
  row: Readonly<TemplateRow>;
  until: number;
  bytes: number;
}

/**
 * Templates read lately, kept in memory: on SQLite, where this process is the only writer of its
 * data folder, every integrator's read of a template would otherwise go to the file, and most of
 * them read the same few templates again and again. Bounded by the size of what it holds; the
 * oldest entries leave first. Only rows found are kept, so unknown ids never fill it.
 */
export class TemplateCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Template writes told so far: a load that a write overtook is answered but not kept. */
  private writes = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxBytes: number,
  ) {}

  /**
   * The template `id` of the organization, from memory when it was read less than a second ago
   * and not written since; otherwise from `load`. Ids are unique across organizations,
   * so an entry of another organization means this one has no such template.
   */
  async find(organizationId: string, id: string, load: () => Promise<TemplateRow | undefined>): Promise<Readonly<TemplateRow> | undefined> {
    const now = this.clock.now().getTime();
    const entry = this.entries.get(id);
    if (entry && entry.until > now) return entry.row.organization_id === organizationId ? entry.row : undefined;
    const writesBefore = this.writes;
    const row = await load();
    if (!row) return undefined;
    // A write during the load may have come after the database answered: what was read may be old.
    if (this.writes === writesBefore) this.keep(id, Object.freeze(row), now);
    return row;
  }

  /**
   * Told by every operation that changes or deletes a template, once its change is committed: the
   * template is read from the database again, and loads already under way are not kept.
   */
  written(id: string): void {
    this.writes++;
    this.drop(id);
  }

  /**
   * Adds what a caller keeps beside a row it was answered (a parse of the template's HTML) to the
   * row's entry, so the budget counts it; nothing when the row is no longer the one kept.
   */
  charge(row: Readonly<TemplateRow>, bytes: number): void {
    const entry = this.entries.get(row.id);
    if (entry?.row !== row) return;
    entry.bytes += bytes;
    this.bytes += bytes;
    this.evictOverBudget();
  }

  private keep(id: string, row: Readonly<TemplateRow>, now: number): void {
    const bytes = ENTRY_OVERHEAD_BYTES + row.body.length + row.name.length + (row.description?.length ?? 0);
    if (bytes > this.maxBytes) return;
    this.drop(id);
    this.entries.set(id, { row, until: now + TEMPLATE_CACHE_TTL_MS, bytes });
    this.bytes += bytes;
    this.evictOverBudget();
  }

  private evictOverBudget(): void {
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  private drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.bytes;
  }
}
