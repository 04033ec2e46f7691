import type { BlobStore } from '../../files/blob-store.js';
import { DOCUMENT_URL_LIFETIME_SECONDS } from '../../files/document-url-lifetime.js';
import { isRecord } from '../../is-record.js';

/**
 * A stored file a webhook body points to: its download URL is signed when each attempt is sent, so
 * it lasts its 5 minutes from the attempt, as every file URL of the service does. A URL signed when
 * the event happened would be dead before the later retries (they span over a day).
 */
export interface FileLink {
  /** Where the URL goes in the body sent, e.g. `['data', 'url']` or `['documents', 0, 'url']`. */
  path: (string | number)[];
  key: string;
  /** The name the download is saved as. */
  name?: string;
}

/** What a body builder puts where a URL goes; `emitEvent` takes it out and keeps it as a FileLink. */
export interface FileLinkSlot {
  $fileLink: { key: string; name?: string };
}

export function fileLink(key: string, name?: string): FileLinkSlot {
  return { $fileLink: { key, ...(name === undefined ? {} : { name }) } };
}

function isSlot(value: unknown): value is FileLinkSlot {
  return isRecord(value) && isRecord(value.$fileLink) && typeof value.$fileLink.key === 'string';
}

/** The body without its slots (their keys left out), and where each slot was. */
export function takeFileLinks<T>(body: T, prefix: (string | number)[] = []): { body: T; links: FileLink[] } {
  const links: FileLink[] = [];
  const walk = (value: unknown, path: (string | number)[]): unknown => {
    if (Array.isArray(value)) return value.map((item, index) => walk(item, [...path, index]));
    if (!isRecord(value)) return value;
    const kept: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (isSlot(item)) {
        const { key: fileKey, name } = item.$fileLink;
        links.push({ path: [...path, key], key: fileKey, ...(name === undefined ? {} : { name }) });
      } else {
        kept[key] = walk(item, [...path, key]);
      }
    }
    return kept;
  };
  // The walk rebuilds the same shape, minus the slots: it is still a T to its callers.
  return { body: walk(body, prefix) as T, links };
}

function child(container: unknown, step: string | number): unknown {
  if (Array.isArray(container) && typeof step === 'number') return container[step];
  return isRecord(container) && typeof step === 'string' ? container[step] : undefined;
}

function put(container: unknown, step: string | number, value: string): void {
  if (Array.isArray(container) && typeof step === 'number') container[step] = value;
  else if (isRecord(container) && typeof step === 'string') container[step] = value;
}

/** A link's download URL, lasting as long as the service's other file URLs. */
function signLink(blobs: Pick<BlobStore, 'presign'>, { key, name }: FileLink): Promise<string> {
  return blobs.presign(key, { method: 'GET', expiresInSeconds: DOCUMENT_URL_LIFETIME_SECONDS, ...(name === undefined ? {} : { downloadName: name }) });
}

/** The body with a freshly signed URL at each link's place; places that no longer exist are skipped. */
export async function withFileLinks<T>(body: T, links: readonly FileLink[], blobs: Pick<BlobStore, 'presign'>): Promise<T> {
  if (links.length === 0) return body;
  const copy = structuredClone(body);
  const signed = await Promise.all(links.map(async (link) => ({ path: link.path, url: await signLink(blobs, link) })));
  for (const { path, url } of signed) {
    const last = path.at(-1);
    if (last !== undefined) put(path.slice(0, -1).reduce<unknown>(child, copy), last, url);
  }
  return copy;
}
