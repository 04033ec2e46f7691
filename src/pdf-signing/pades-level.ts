/**
 * The PAdES baseline levels (ETSI EN 319 142-1): B-B, a signature; B-T, with a trusted timestamp
 * proving it existed then; B-LT, with the certificates and revocation answers needed to check it
 * later kept in the file; B-LTA, with a document timestamp over all that, renewable before its
 * certificate expires.
 */
export const PADES_LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;
export type PadesLevel = (typeof PADES_LEVELS)[number];

export function isPadesLevel(value: unknown): value is PadesLevel {
  return typeof value === 'string' && (PADES_LEVELS as readonly string[]).includes(value);
}

/** Every level above B-B carries a timestamp. */
export function needsTimestamps(level: PadesLevel): boolean {
  return level !== 'B-B';
}
