import { contentTypeOf } from './blob-store.js';

/**
 * Stored HTML (template files, documents made from templates) is the integrators' own markup,
 * served from the service's origin, where people's pages live. The sandbox policy gives it an
 * opaque origin with no script, forms or plugins, while it still shows inline (the fill preview,
 * the document a person reads); images and fonts may come from data: or https: as designed,
 * nothing else loads.
 */
export const STORED_HTML_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; font-src data: https:";

/** The file's name for a download: the last part of its key, which keys keep to safe characters. */
export function fileNameOf(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

export function isHtmlKey(key: string): boolean {
  return contentTypeOf(key).startsWith('text/html');
}

/** Headers every download of a stored file carries: its type, no sniffing, its name, and for HTML the sandbox. */
export function downloadHeaders(key: string): Record<string, string> {
  return {
    'content-type': contentTypeOf(key),
    'x-content-type-options': 'nosniff',
    'content-disposition': `inline; filename="${fileNameOf(key)}"`,
    ...(isHtmlKey(key) ? { 'content-security-policy': STORED_HTML_POLICY } : {}),
  };
}
