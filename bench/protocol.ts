/** What bench/run.ts and bench/server-child.ts say to each other over the fork IPC channel. */

/** Two stores, each a service of its own on its own SQLite file, so both sizes can be measured in turns. */
export const STORES = ['small', 'large'] as const;
export type StoreName = (typeof STORES)[number];

export interface StoreAddress {
  url: string;
  privateKey: string;
}

export interface SeedCommand {
  type: 'seed';
  store: StoreName;
  count: number;
}

export type ChildMessage =
  | { type: 'ready'; bareUrl: string; stores: Record<StoreName, StoreAddress> }
  | { type: 'seeded'; ids: string[]; stored: number }
  | { type: 'error'; message: string };

function hasType(value: unknown): value is { type: unknown } {
  return typeof value === 'object' && value !== null && 'type' in value;
}

export function isSeedCommand(value: unknown): value is SeedCommand {
  return (
    hasType(value) &&
    value.type === 'seed' &&
    'store' in value &&
    STORES.some((store) => store === value.store) &&
    'count' in value &&
    typeof value.count === 'number'
  );
}

export function isChildMessage(value: unknown): value is ChildMessage {
  return hasType(value) && (value.type === 'ready' || value.type === 'seeded' || value.type === 'error');
}

/**
 * The template both sides use: the parent POSTs it, the child inserts it straight into the table.
 * Realistic size (eight questions, a clausula driving a prereq, two signers) so a row and a response
 * weigh what a real one does, and valid so that PUT's cross-field check passes on the stored rows.
 */
export function sampleTemplate(): Record<string, unknown> {
  return {
    name: 'Purchase agreement',
    description: 'Sale of goods between two parties',
    config: [
      { name: 'buyer_name', type: 'name', description: 'Buyer full name' },
      { name: 'buyer_email', type: 'email', description: 'Buyer e-mail' },
      { name: 'buyer_phone', type: 'phone', description: 'Buyer phone' },
      { name: 'seller_name', type: 'name', description: 'Seller full name' },
      { name: 'seller_email', type: 'email', description: 'Seller e-mail' },
      { name: 'price', type: 'number', description: 'Price' },
      {
        name: 'payment',
        type: 'clausula',
        description: 'Payment method',
        value: 'cash',
        options: [
          { name: 'Cash', value: 'cash' },
          { name: 'Instalments', value: 'instalments' },
        ],
      },
      { name: 'instalments', type: 'number', description: 'Number of instalments', prereq: [{ k: 'payment', v: 'instalments' }] },
    ],
    sign: ['buyer_name', 'buyer_email', 'seller_name', 'seller_email', 'price'],
    signatureProfile: [
      { type: 'buyer', name: 'buyer_name', email: 'buyer_email', phone: 'buyer_phone' },
      { type: 'seller', name: 'seller_name', email: 'seller_email' },
    ],
    preBuild: false,
  };
}
