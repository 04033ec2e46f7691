import type { FastifyReply, FastifyRequest } from 'fastify';
import Joi from 'joi';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { fail } from '../domain-error.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import type { Language } from '../organizations/languages.js';
import { escapeHtml } from '../text/escape-html.js';
import type { PageAssets } from './assets.js';
import type { EmbeddingOrigins } from './embed.js';
import { htmlShell } from './html-shell.js';
import { pageLanguage } from './page-language.js';
import { linkLanguage } from './person-page-language.js';
import { WORDS } from './words.js';

export type PageMode = 'sign' | 'validation' | 'embed' | 'fill' | 'embedded-fill' | 'read';

/**
 * What a form's page (/r/, /f/ and the SDK's /e/) adds: the origins of its `request` questions'
 * endpoints, which the page asks from the browser as the real service's form does (and only
 * those). Its preview's inline styles need nothing: the page applies them through the CSSOM.
 */
export interface FillPagePolicy {
  endpoints: string[];
}

/**
 * What every page answer carries: scripts only from this origin (template HTML never runs here: it
 * is shown in a frame sandboxed without scripts), no referrer (the path holds the person's token),
 * no indexing, no caching of a page that shows a person's process.
 */
export function pageHeaders(config: Config, frameAncestors: string[], fill?: FillPagePolicy): Record<string, string> {
  const files = config.s3?.endpoint ? ` ${new URL(config.s3.endpoint).origin}` : config.s3 ? ' https://*.amazonaws.com' : '';
  const endpoints = fill && fill.endpoints.length > 0 ? ` ${fill.endpoints.join(' ')}` : '';
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    `connect-src 'self'${files}${endpoints}`,
    `frame-src 'self'${files}`,
    "worker-src 'self'",
    "font-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-robots-tag': 'noindex, nofollow',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'permissions-policy': 'camera=(self), microphone=(), geolocation=()',
  };
}

export function pageShell(assets: PageAssets, options: { mode: PageMode; language: Language }): string {
  const { language } = options;
  const words = WORDS[language];
  return htmlShell({
    language,
    title: words.title,
    style: assets.style,
    script: assets.script,
    main: `<main id="app" data-mode="${options.mode}" data-pdf="${assets.pdfModule}" data-pdf-worker="${assets.pdfWorker}" tabindex="-1">
<p>${escapeHtml(words.loading)}</p>
<noscript><p>${escapeHtml(words.noScript)}</p></noscript>
</main>`,
  });
}

/**
 * `stored` is the language of the link's person (issue 41): a page opens in it whatever the
 * browser asks, since their messages and final files speak it too. Without one (no link, or one
 * that opens nothing) the page follows Accept-Language; the picker changes either.
 */
export function sendPage(
  config: Config,
  assets: PageAssets,
  request: FastifyRequest,
  reply: FastifyReply,
  page: { mode: PageMode; frameAncestors: string[]; fill?: FillPagePolicy; stored?: Language | undefined },
): FastifyReply {
  const language = page.stored ?? pageLanguage(request.headers['accept-language']);
  return reply.headers(pageHeaders(config, page.frameAncestors, page.fill)).send(pageShell(assets, { mode: page.mode, language }));
}

/** The token of a page's path (`/s/:token`), empty when the path has none. */
export function tokenParam(request: FastifyRequest): string {
  const params = request.params;
  return typeof params === 'object' && params !== null && 'token' in params && typeof params.token === 'string' ? params.token : '';
}

async function sendLinkPage(
  db: Db,
  config: Config,
  assets: PageAssets,
  request: FastifyRequest,
  reply: FastifyReply,
  mode: 'sign' | 'read' | 'validation',
): Promise<FastifyReply> {
  return sendPage(config, assets, request, reply, { mode, frameAncestors: [], stored: await linkLanguage(db, mode, tokenParam(request)) });
}

const tag = "people's pages";

export const pageAnswer = {
  raw: { mediaTypes: ['text/html'], description: "the page's HTML shell; its script reads the rest from the people's API" },
} as const;

/** The SDK loads its frame as `?id=<timestamp>`. */
const sdkFrameQuery = Joi.object<{ id?: string }, true>({ id: Joi.string().max(100).example('2026-11-24T10-00-00.000Z') });

/**
 * The pages people open: a participant's link (/s/<token>), a reader's (/read/<token>), a face validation's link (/v/<token>),
 * and at the root the app the SDK embeds, which only the origins organizations allowed may frame.
 */
export function pageRoutes(config: Config, assets: PageAssets, origins: EmbeddingOrigins, db: Db): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/s/:token',
      access: 'public',
      tag,
      summary: "The participant's page (HTML); the token in the path is read by the page, never logged",
      body: noInput,
      query: noInput,
      response: pageAnswer,
      errors: [],
      handler: ({ request, reply }) => sendLinkPage(db, config, assets, request, reply, 'sign'),
    }),
    defineRoute({
      method: 'GET',
      url: '/read/:token',
      access: 'public',
      tag,
      summary: "A reader's page (HTML): the process read-only; the token in the path is read by the page, never logged",
      body: noInput,
      query: noInput,
      response: pageAnswer,
      errors: [],
      handler: ({ request, reply }) => sendLinkPage(db, config, assets, request, reply, 'read'),
    }),
    defineRoute({
      method: 'GET',
      url: '/v/:token',
      access: 'public',
      tag,
      summary: 'The face-validation page (HTML)',
      body: noInput,
      query: noInput,
      response: pageAnswer,
      errors: [],
      handler: ({ request, reply }) => sendLinkPage(db, config, assets, request, reply, 'validation'),
    }),
    defineRoute({
      method: 'GET',
      url: '/',
      access: 'public',
      tag,
      summary: 'The app the SDK (auco-sdk-integration with customOrigin) embeds; framed only by the origins organizations allow',
      body: noInput,
      query: sdkFrameQuery,
      response: pageAnswer,
      errors: [],
      handler: async ({ request, reply }) => sendPage(config, assets, request, reply, { mode: 'embed', frameAncestors: await origins.all() }),
    }),
    defineRoute({
      method: 'GET',
      url: '/assets/:file',
      access: 'public',
      tag,
      summary: "The pages' scripts and styles, named by their content",
      body: noInput,
      query: noInput,
      response: { raw: { mediaTypes: ['text/javascript', 'text/css'], description: 'the script or style, gzipped when accepted' } },
      errors: ['ROUTE_NOT_FOUND'],
      handler: ({ request, reply }) => {
        const found = assets.byPath.get(request.url.split('?')[0] ?? '');
        if (!found) throw fail('ROUTE_NOT_FOUND');
        const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
        return reply
          .headers({
            'content-type': found.contentType,
            'cache-control': 'public, max-age=31536000, immutable',
            'x-content-type-options': 'nosniff',
            vary: 'accept-encoding',
            ...(gzip ? { 'content-encoding': 'gzip' } : {}),
          })
          .send(gzip ? found.gzip : found.body);
      },
    }),
  ];
}
