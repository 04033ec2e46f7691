import type { Clock } from '../clock.js';
import type { TemplateRow } from '../db/schema.js';

/**
 * How long a template read from the database is answered from memory. Writes made through this
 * process show at once (templateWritten); this bounds how long a change made to the file from
 * outside the service (an operator's tool, a second instance started by mistake) can go unseen.
 */
export const TEMPLATE_CACHE_TTL_MS = 1000;
/** Charged for each entry beside its text, so that many small templates still fill the budget. */
const ENTRY_OVERHEAD_BYTES = 512;

/** Template writes this process made, numbered from 0; `writes` is the next number. */
let writes = 0;
/**
 * The ids of the latest writes, by number modulo its size: a cache forgets exactly those ids, or
 * everything when it fell further behind. Module-wide because a write often runs in a transaction,
 * which does not know which cache reads its store.
 */
export const WRITE_LOG_SIZE = 1024;
const writeLog: string[] = [];

/** Called by every statement that changes or deletes a template, once it has run. */
export function templateWritten(id: string): void {
  writeLog[writes % WRITE_LOG_SIZE] = id;
  writes++;
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
  private writesSeen = writes;

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
    this.forgetWritten();
    const entry = this.entries.get(id);
    if (entry && entry.until > now) return entry.row.organization_id === organizationId ? entry.row : undefined;
    const writesBefore = writes;
    const row = await load();
    if (!row) return undefined;
    // A write during the load may have come after the database answered: what was read may be old.
    if (writes === writesBefore) this.keep(id, Object.freeze(row), now);
    return row;
  }

  private forgetWritten(): void {
    if (this.writesSeen === writes) return;
    if (writes - this.writesSeen > WRITE_LOG_SIZE) {
      this.entries.clear();
      this.bytes = 0;
    } else {
      for (let write = this.writesSeen; write < writes; write++) this.drop(writeLog[write % WRITE_LOG_SIZE] ?? '');
    }
    this.writesSeen = writes;
  }

  private keep(id: string, row: Readonly<TemplateRow>, now: number): void {
    const bytes = ENTRY_OVERHEAD_BYTES + row.body.length + row.name.length + (row.description?.length ?? 0);
    if (bytes > this.maxBytes) return;
    this.drop(id);
    this.entries.set(id, { row, until: now + TEMPLATE_CACHE_TTL_MS, bytes });
    this.bytes += bytes;
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
