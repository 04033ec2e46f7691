/** What bench/run.ts and bench/server-child.ts say to each other over the fork IPC channel. */

/**
 * Services of their own, each on its own SQLite file. `service` runs as an operator would start it
 * and gives the main figures. `small` and `large` differ only in how many templates they hold, so
 * both sizes can be measured in turns; they keep no templates in memory (TEMPLATE_CACHE_MB=0), so
 * every read they answer goes to the database, which is what the scaling figures are about.
 */
export const STORES = ['service', 'small', 'large'] as const;
export type StoreName = (typeof STORES)[number];
export const SCALING_STORES = ['small', 'large'] as const;

/** The templates processes are created from: the test suite's 0.4 KB sample, and a 40 KB contract with 30 questions. */
export const PROCESS_TEMPLATES = ['sample', 'contract'] as const;
export type ProcessTemplate = (typeof PROCESS_TEMPLATES)[number];

export interface StoreAddress {
  url: string;
  privateKey: string;
  /** A registered user, to create processes as. */
  creatorEmail: string;
  /** Templates with their HTML uploaded, to create processes from. */
  processTemplates: Record<ProcessTemplate, string>;
}

export interface SeedCommand {
  type: 'seed';
  store: StoreName;
  count: number;
}

/** Answered once the store's outbox has nothing due: the work one slice left behind is done before the next. */
export interface DrainCommand {
  type: 'drain';
  store: StoreName;
}

export type ChildMessage =
  /** `stores` holds the stores asked for (all of them unless argv[3] names some). */
  | { type: 'ready'; bareUrl: string; stores: Partial<Record<StoreName, StoreAddress>> }
  | { type: 'seeded'; ids: string[]; stored: number }
  /** `delivered`: messages (not jobs) the store's outbox has delivered since it started. */
  | { type: 'drained'; delivered: number }
  | { type: 'error'; message: string };

function hasType(value: unknown): value is { type: unknown } {
  return typeof value === 'object' && value !== null && 'type' in value;
}

function namesStore(value: { type: unknown }): value is { type: unknown; store: StoreName } {
  return 'store' in value && STORES.some((store) => store === value.store);
}

export function isSeedCommand(value: unknown): value is SeedCommand {
  return hasType(value) && value.type === 'seed' && namesStore(value) && 'count' in value && typeof value.count === 'number';
}

export function isDrainCommand(value: unknown): value is DrainCommand {
  return hasType(value) && value.type === 'drain' && namesStore(value);
}

/** The stores named in a comma-separated list, or all of them. */
export function storesNamed(list: string | undefined): StoreName[] {
  if (!list) return [...STORES];
  return STORES.filter((store) => list.split(',').includes(store));
}

export function isChildMessage(value: unknown): value is ChildMessage {
  return hasType(value) && (value.type === 'ready' || value.type === 'seeded' || value.type === 'drained' || value.type === 'error');
}

/**
 * The template both sides use (the test suite's sample): the parent POSTs it, the child inserts it
 * straight into the table. Realistic in size and valid, so PUT's cross-field check passes on it.
 */
export { ANSWERS, COMPLETE_HTML, sampleTemplate, verifaceBody } from '../test/support/fixtures.js';
