import type { DomainError } from '../domain-error.js';
import { type CatalogueEntry, codeOf, ERROR_CATALOGUE } from '../error-catalogue.js';

/** How a refusal is answered: `{message}` at its status, with the headers it comes with. */
export interface ErrorAnswer {
  status: number;
  message: string;
  headers: Record<string, string>;
}

/**
 * The one place a refusal becomes an HTTP answer: a code at the catalogue's status (the named
 * situation's, for a code answered at several), a validation message at 400. A message outside
 * the catalogue, or a situation it does not name, is a programming error: undefined, for a 500.
 */
export function errorAnswer(error: DomainError): ErrorAnswer | undefined {
  const status = statusOf(error);
  if (status === undefined) return undefined;
  const headers: Record<string, string> = error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) };
  return { status, message: error.message, headers };
}

function statusOf(error: DomainError): number | undefined {
  if (error.message.startsWith('"')) return 400;
  const code = codeOf(error.message);
  if (code === undefined) return undefined;
  const entry: CatalogueEntry = ERROR_CATALOGUE[code];
  if (entry.when === undefined) return error.situation === undefined ? entry.status[0] : undefined;
  return error.situation !== undefined && Object.hasOwn(entry.when, error.situation) ? entry.when[error.situation] : undefined;
}
