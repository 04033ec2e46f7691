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

/** The longest name a download is given, in characters: what any file system keeps. */
const NAME_LIMIT = 150;

/**
 * A name people gave (a process's, a document's) made fit to save a file under: no control
 * characters, no path separators or quotes, spaces collapsed, no longer than NAME_LIMIT. The
 * extension of the key it names is kept at its end.
 */
export function downloadName(name: string, extension: string): string {
  const base = [...name]
    .map((char) => (char < ' ' || char === '\u007f' || '/\\"'.includes(char) ? ' ' : char))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  const suffix = `.${extension}`;
  return `${[...(base === '' ? 'document' : base)]
    .slice(0, NAME_LIMIT - suffix.length)
    .join('')
    .trim()}${suffix}`;
}

/**
 * The Content-Disposition of a download of `key`: named as the key's last part, or saved as `name`
 * (RFC 6266): `filename` in plain ASCII for old clients (accents dropped, anything else `_`), and
 * `filename*` with the whole name in UTF-8 (RFC 8187), which every current browser prefers.
 */
export function contentDisposition(disposition: 'inline' | 'attachment', key: string, name?: string): string {
  if (name === undefined) return `${disposition}; filename="${fileNameOf(key)}"`;
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Headers every download of a stored file carries: its type, no sniffing, its name (`name` when
 * the URL gave one, else the key's), and for HTML the sandbox.
 */
export function downloadHeaders(key: string, name?: string): Record<string, string> {
  return {
    'content-type': contentTypeOf(key),
    'x-content-type-options': 'nosniff',
    'content-disposition': contentDisposition('inline', key, name),
    ...(isHtmlKey(key) ? { 'content-security-policy': STORED_HTML_POLICY } : {}),
  };
}
