/** What bench/run.ts and bench/server-child.ts say to each other over the fork IPC channel. */

/** Two stores, each a service of its own on its own SQLite file, so both sizes can be measured in turns. */
export const STORES = ['small', 'large'] as const;
export type StoreName = (typeof STORES)[number];

export interface StoreAddress {
  url: string;
  privateKey: string;
  /** A registered user, to create processes as. */
  creatorEmail: string;
  /** A template with its HTML uploaded, to create processes from. */
  processTemplate: string;
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
  | { type: 'ready'; bareUrl: string; stores: Record<StoreName, StoreAddress> }
  | { type: 'seeded'; ids: string[]; stored: number }
  | { type: 'drained' }
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

export function isChildMessage(value: unknown): value is ChildMessage {
  return hasType(value) && (value.type === 'ready' || value.type === 'seeded' || value.type === 'drained' || value.type === 'error');
}

/**
 * The template both sides use (the test suite's sample): the parent POSTs it, the child inserts it
 * straight into the table. Realistic in size and valid, so PUT's cross-field check passes on it.
 */
export { ANSWERS, COMPLETE_HTML, sampleTemplate } from '../test/support/fixtures.js';
