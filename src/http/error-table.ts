import { ERROR_CATALOGUE } from '../error-catalogue.js';

export const TABLE_START = '<!-- error-catalogue:start (written by npm run docs:errors) -->';
export const TABLE_END = '<!-- error-catalogue:end -->';

/** The table of every code in docs/api.md the API answers, from the catalogue. */
export function errorTable(): string {
  const rows = Object.entries(ERROR_CATALOGUE).map(([code, { status, meaning }]) => `| \`${code}\` | ${status.join(', ')} | ${meaning} |`);
  return ['| code | status | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** docs/api.md with its table replaced by the catalogue's; undefined when the markers are missing. */
export function withErrorTable(readme: string): string | undefined {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) return undefined;
  return `${readme.slice(0, start + TABLE_START.length)}\n${errorTable()}\n${readme.slice(end)}`;
}
