import type Joi from 'joi';

/*
 * The words a route declaration is made of, in a module of their own so that what reads a
 * declaration (openapi.ts) does not import route.ts, which imports it.
 */

/**
 * Who may call a route:
 * - `private-key`: the organization's private key (prk_) only, for every route that changes data;
 * - `any-key`: the private or the public key (puk_), for reads of one item; the public key sits in
 *   integrators' web pages, so the handler answers it only what the holder of the item's code may
 *   see (`publicKey` says what), and refuses it the rest with `PRIVATE_KEY_REQUIRED`;
 * - `signed-url`: no key; the URL carries the service's own signature and expiry (files);
 * - `link-token`: no key; the secret token of a person's link (a signer's or a face validation's)
 *   in the `X-Link-Token` header, so that it stays out of URLs, logs and Referer headers;
 * - `operator`: the operator at the service's own machine (a loopback connection to the operator's
 *   own listener on 127.0.0.1, see src/auth/operator-machine.ts), who sees every organization, or else an
 *   organization's private key, which sees that organization's only (the local WhatsApp chat);
 * - `console`: a user of the organization signed in to the operator console (src/console): the
 *   session's cookie, never a key or a link's token; a request that changes something must also come
 *   from the service's own origin (src/auth/console-access.ts); and the user's role holds the
 *   route's `permission` (src/organizations/user-roles.ts);
 * - `console-sign-in`: no session yet (the sign-in routes), but from the service's own origin;
 * - `public`: anyone (health).
 */
export type Access = 'private-key' | 'any-key' | 'operator' | 'signed-url' | 'link-token' | 'console' | 'console-sign-in' | 'public';

/** The console's accesses: authorised by its session cookie (or, signing in, by its origin), never by a key. */
export const CONSOLE_ACCESS: ReadonlySet<Access> = new Set(['console', 'console-sign-in']);

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A success answer that is not JSON (a file, an image, a page): its media types and what it holds. */
export interface RawResponse {
  readonly mediaTypes: readonly string[];
  readonly description: string;
}

/**
 * What a route answers on success, always said: JSON its Joi schema checks (the route security suite
 * checks every answer against it), a body of another media type, or both when the route answers by
 * the Accept header (a page to a browser, JSON to others).
 */
export type RouteResponse = { readonly json: Joi.Schema; readonly raw?: RawResponse } | { readonly raw: RawResponse };
