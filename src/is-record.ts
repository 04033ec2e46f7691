/** A non-null, non-array object whose properties can be read by name: parsed JSON, a worker's message. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
