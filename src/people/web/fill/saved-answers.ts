/**
 * The answers kept on the device as the person goes, under the link (a reload, a closed tab or a
 * lost connection loses nothing), with the key of a submission under way, so that sending again
 * after a lost answer makes no second process. Cleared once the process is made.
 */
export interface SavedFill {
  answers: Record<string, string>;
  submissionKey?: string;
}

function storageKey(token: string): string {
  return `fill:${token}`;
}

function isSaved(value: unknown): value is SavedFill {
  if (typeof value !== 'object' || value === null || !('answers' in value)) return false;
  const answers: unknown = value.answers;
  return typeof answers === 'object' && answers !== null && Object.values(answers).every((answer) => typeof answer === 'string');
}

export function loadFill(token: string): SavedFill {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(token)) ?? 'null');
    return isSaved(parsed) ? parsed : { answers: {} };
  } catch {
    return { answers: {} };
  }
}

/** Kept when the device lets it: a storage that is full or switched off only loses what a reload would. */
export function saveFill(token: string, saved: SavedFill): void {
  try {
    localStorage.setItem(storageKey(token), JSON.stringify(saved));
  } catch {
    // Images can exceed the storage's few megabytes: keep the rest without them.
    try {
      const small = Object.fromEntries(Object.entries(saved.answers).filter(([, value]) => !value.startsWith('data:')));
      localStorage.setItem(storageKey(token), JSON.stringify({ ...saved, answers: small }));
    } catch {
      // No storage at all: the answers live as long as the page.
    }
  }
}

export function clearFill(token: string): void {
  try {
    localStorage.removeItem(storageKey(token));
  } catch {
    // Nothing was kept.
  }
}

/** A key for one submission: 32 hex characters from the browser's random source. */
export function newSubmissionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
