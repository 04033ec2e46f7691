/**
 * The console's session cookie. `__Host-` makes the browser refuse it unless it is `Secure`, set by
 * this very host (no `Domain`) for the whole site (`Path=/`): no other subdomain can plant or read
 * one. `HttpOnly` keeps it from scripts, `SameSite=Strict` off every request another site starts.
 *
 * The one exception is development on plain http at a loopback address (PUBLIC_URL
 * http://localhost:3000, the default): there is no TLS to require there, and a browser that keeps
 * `Secure` cookies of http://localhost (Chromium, Firefox) is not every browser (Safari). The cookie
 * then goes without `Secure` and therefore without the prefix, never leaving the machine. Any other
 * http PUBLIC_URL keeps `Secure`: a browser drops the cookie, and the console says to use https,
 * rather than send a session in clear text across a network.
 */
export interface ConsoleCookie {
  name: string;
  secure: boolean;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Plain http at a loopback address: development on the machine itself, where there is no TLS to require. */
export function isPlainLoopback(url: URL): boolean {
  return url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || url.hostname.endsWith('.localhost'));
}

export function consoleCookie(publicUrl: string): ConsoleCookie {
  return isPlainLoopback(new URL(publicUrl)) ? { name: 'console-session', secure: false } : { name: '__Host-console-session', secure: true };
}

/** The session's token as the request's Cookie header carries it, if it does (the first of several, as browsers send the most specific first). */
export function sessionTokenOf(cookie: ConsoleCookie, header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  let found: string | undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== cookie.name) continue;
    found ??= pair.slice(at + 1).trim();
  }
  return found;
}

function attributes(cookie: ConsoleCookie): string {
  return `Path=/; HttpOnly; SameSite=Strict${cookie.secure ? '; Secure' : ''}`;
}

/** Set-Cookie for a new session; it lasts no longer than the session's absolute end. */
export function setSessionCookie(cookie: ConsoleCookie, token: string, maxAgeSeconds: number): string {
  return `${cookie.name}=${token}; Max-Age=${maxAgeSeconds}; ${attributes(cookie)}`;
}

/** Set-Cookie that removes it (signed out, or a session that ended). */
export function clearSessionCookie(cookie: ConsoleCookie): string {
  return `${cookie.name}=; Max-Age=0; ${attributes(cookie)}`;
}

/**
 * The cookie that ties an OpenID Connect sign-in to the browser that started it, so nobody can hand
 * someone else the callback of their own sign-in. `SameSite=Lax`: the identity provider's redirect
 * back is another site's top-level navigation, which Strict would strip it from.
 */
export function oidcBindingCookie(cookie: ConsoleCookie): ConsoleCookie {
  return { name: cookie.secure ? '__Host-console-oidc' : 'console-oidc', secure: cookie.secure };
}

export function setOidcBindingCookie(cookie: ConsoleCookie, value: string, maxAgeSeconds: number): string {
  return `${cookie.name}=${value}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax${cookie.secure ? '; Secure' : ''}`;
}
