/** Columns this service wrote from validated input parse back to what was validated. */
export function parseJson<T>(text: string | null): T | undefined {
  if (text === null) return undefined;
  const value: T = JSON.parse(text);
  return value;
}
