import type { Clock } from '../clock.js';
import type { Db } from '../db/schema.js';
import { recordAudits } from './audit.js';
import type { ConsoleUser } from './sessions.js';

/**
 * One view of a person's identity data in the console: whose (the process, or the face
 * validation, and the participant of a process, and their name), and what was seen: a photo, or a field (the ID
 * number, the phone). Each one is a row of the console's audit log (PHOTO_VIEWED,
 * IDENTITY_VIEWED), so the organization can tell who saw whose identity, when.
 */
export type IdentityView = {
  kind: 'signer' | 'validation';
  /** The process's code (a signer's), or the face validation's. */
  process: string;
  /** A signer's participant id. */
  participant?: string;
  /** The person's name, as the process or validation names them. */
  name: string;
} & ({ photo: 'documentFront' | 'documentBack' | 'face' } | { field: 'identification' | 'phone' });

/** Records each view as a row of the organization's audit log, with who viewed it and from where. */
export async function recordIdentityViews(
  db: Db,
  clock: Clock,
  options: { user: ConsoleUser; address: string; views: readonly IdentityView[] },
): Promise<void> {
  const { user } = options;
  await recordAudits(
    db,
    clock,
    options.views.map((view) => ({
      organizationId: user.organizationId,
      userId: user.userId,
      email: user.email,
      action: 'photo' in view ? 'PHOTO_VIEWED' : 'IDENTITY_VIEWED',
      detail: { ...view },
      address: options.address,
    })),
  );
}

/**
 * A phone (or an ID number) as the console shows it to whom it does not record a view of: the last
 * two digits only, enough to tell two participants apart or to confirm a number read out, not to
 * call or identify the person.
 */
export function maskedPhone(phone: string): string {
  return `${phone.slice(0, -2).replace(/[0-9]/g, '•')}${phone.slice(-2)}`;
}

/** The keys under which webhook bodies carry a phone or an ID number (a signer's, a validation's, a flat body's `documentName`). */
const IDENTITY_KEYS: ReadonlySet<string> = new Set(['phone', 'identification', 'documentNumber', 'documentName']);

/**
 * A webhook body with every phone and ID number masked (maskedPhone), however deep: the console
 * shows deliveries to find why one failed, not to read people's numbers, which it shows whole only
 * where each view is recorded (the process page, the review queue).
 */
export function withIdentityMasked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withIdentityMasked);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, IDENTITY_KEYS.has(key) && typeof item === 'string' ? maskedPhone(item) : withIdentityMasked(item)]),
  );
}
