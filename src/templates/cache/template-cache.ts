import type { Clock } from '../../clock.js';
import type { TemplateRow } from '../../db/schema.js';

/**
 * How long a template read from the database is answered from memory. Writes made through this
 * process show at once (TemplateCache.written); this bounds how long a change made to the file from
 * outside the service (an operator's tool, a second instance started by mistake) can go unseen.
 */
export const TEMPLATE_CACHE_TTL_MS = 1000;
/** Charged for each entry beside its text, so that many small templates still fill the budget. */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * A kind of value kept beside the cache's rows (a parse of a template's HTML or body, the text of an
 * answer): made from one row object, so it must go when the cache drops that row (a write, the
 * budget, a newer load). Registered with the cache by its first `keepBeside`, then told of every
 * row the cache drops.
 */
export interface BesideRows {
  forget(row: Readonly<TemplateRow>): void;
}

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
  /** Loads under way by organization and id, with the count of writes when each started. */
  private readonly loading = new Map<string, { writes: number; row: Promise<Readonly<TemplateRow> | undefined> }>();
  /** Every kind of value kept beside this cache's rows: each is told when a row leaves. */
  private readonly besides = new Set<BesideRows>();

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
    // Reads that miss together share one load, so they answer one row object: what is kept beside a
    // row (template-html.ts) is then made once, not once per request waiting for the same template.
    const key = `${organizationId}:${id}`;
    const shared = this.loading.get(key);
    if (shared && shared.writes === this.writes) return shared.row;
    const loading = { writes: this.writes, row: this.load(id, load, now) };
    this.loading.set(key, loading);
    try {
      return await loading.row;
    } finally {
      if (this.loading.get(key) === loading) this.loading.delete(key);
    }
  }

  private async load(id: string, load: () => Promise<TemplateRow | undefined>, now: number): Promise<Readonly<TemplateRow> | undefined> {
    const writesBefore = this.writes;
    const row = await load();
    if (!row) return undefined;
    const frozen = Object.freeze(row);
    // A write during the load may have come after the database answered: what was read may be old.
    if (this.writes === writesBefore) this.keep(id, frozen, now);
    return frozen;
  }

  /**
   * Told by `writeTemplate` (template-writes.ts), through which every write of a template goes, once
   * the write has settled: the template is read from the database again, and loads already under
   * way are not kept.
   */
  written(id: string): void {
    this.writes++;
    this.drop(id);
  }

  /** Whether `row` is the object the cache keeps for its template, so what is made from it may be kept beside it. */
  keeps(row: Readonly<TemplateRow>): boolean {
    return this.entries.get(row.id)?.row === row;
  }

  /**
   * Called by `beside` as it keeps a value made from `row`: answers false, and `beside` keeps
   * nothing, when the row is not the one kept; otherwise `beside` is told when the row leaves, and
   * `bytes` count in the budget with the row's entry.
   */
  keepBeside(beside: BesideRows, row: Readonly<TemplateRow>, bytes: number): boolean {
    if (!this.keeps(row)) return false;
    this.besides.add(beside);
    this.charge(row, bytes);
    return true;
  }

  /**
   * Adds the size of what is kept beside a row, known once it is made (a parse that was under way),
   * to the row's entry, so the budget counts it; nothing when the row is no longer the one kept.
   */
  charge(row: Readonly<TemplateRow>, bytes: number): void {
    const entry = this.entries.get(row.id);
    if (entry?.row !== row || bytes === 0) return;
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
    for (const beside of this.besides) beside.forget(entry.row);
  }
}
