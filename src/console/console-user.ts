import type { Transaction } from 'kysely';
import type { ServiceContext } from '../context.js';
import type { Database } from '../db/schema.js';
import { withTransaction } from '../db/transaction.js';
import { recordUserAction } from './audit.js';
import type { ConsoleAction } from './audit-contract.js';
import type { ConsoleUser } from './sessions.js';

/** The two fields these read of a route's input (RouteInput has them): the console's own modules stay below the route layer. */
interface ConsoleInput {
  readonly consoleUser: ConsoleUser | null;
  readonly request: { readonly ip: string };
}

/** The console's access hook let the request in with a session (src/auth/console-access.ts). */
export function userOf(input: Pick<ConsoleInput, 'consoleUser'>): ConsoleUser {
  if (input.consoleUser === null) throw new Error('a console route ran without its session');
  return input.consoleUser;
}

/**
 * A change made from the console, in the organization's console audit log with the user who made it,
 * right after it: the API's own operation (a template, a reference link, a resend) commits its own
 * transaction. A change the console makes itself is recorded with it: changeRecorded.
 */
export async function recordChange(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  input: ConsoleInput,
  action: ConsoleAction,
  detail: Record<string, string | number>,
): Promise<void> {
  await recordUserAction(ctx.db, ctx.clock, { user: userOf(input), action, detail, address: input.request.ip });
}

/** A change and its row of the console's audit log in one transaction: both are committed or neither is. */
export async function changeRecorded<T>(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'outbox'>,
  input: ConsoleInput,
  change: { action: ConsoleAction; make: (trx: Transaction<Database>) => Promise<T>; detail: (made: T) => Record<string, string | number> },
): Promise<T> {
  return withTransaction(ctx, async (trx) => {
    const made = await change.make(trx);
    await recordUserAction(trx, ctx.clock, { user: userOf(input), action: change.action, detail: change.detail(made), address: input.request.ip });
    return made;
  });
}
