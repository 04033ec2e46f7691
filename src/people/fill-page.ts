import type { Config } from '../config.js';
import type { ServiceContext } from '../context.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { findFillSource } from '../references/fill/fill-source.js';
import type { PageAssets } from './assets.js';
import { type FillPagePolicy, pageAnswer, sendPage } from './pages.js';

/** Tokens are random bytes in base64url; anything else opens no form and is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The origins the page may ask: those of the form's `request` questions. An unknown form gets
 * none (its page only says so).
 */
async function policyOf(ctx: ServiceContext, token: string): Promise<FillPagePolicy> {
  const source = TOKEN.test(token) ? await findFillSource(ctx, token).catch(() => undefined) : undefined;
  if (!source) return { endpoints: [] };
  const endpoints = new Set<string>();
  for (const question of source.body.config) {
    if (question.type === 'request' && question.endpoint !== undefined) endpoints.add(new URL(question.endpoint).origin);
  }
  return { endpoints: [...endpoints] };
}

function fillPage(config: Config, assets: PageAssets, ctx: ServiceContext, options: { url: string; summary: string }): ApiRoute {
  return defineRoute({
    method: 'GET',
    url: options.url,
    access: 'public',
    tag: "people's pages",
    summary: options.summary,
    body: noInput,
    query: noInput,
    response: pageAnswer,
    errors: [],
    handler: async ({ request, reply }) => {
      const params = request.params;
      const token = typeof params === 'object' && params !== null && 'token' in params && typeof params.token === 'string' ? params.token : '';
      return sendPage(config, assets, request, reply, 'fill', [], await policyOf(ctx, token));
    },
  });
}

/**
 * The pages of the template questionnaire: a reference link's, which anyone holding it fills, and
 * a prebuilt process's, which the person it was e-mailed to completes (its prefilled answers shown
 * and locked). The same page; the token says which.
 */
export function fillPageRoutes(config: Config, assets: PageAssets, ctx: ServiceContext): ApiRoute[] {
  return [
    fillPage(config, assets, ctx, {
      url: '/r/:token',
      summary: "A reference link's questionnaire (HTML); the token in the path is read by the page, never logged",
    }),
    fillPage(config, assets, ctx, {
      url: '/f/:token',
      summary: "A prebuilt process's questionnaire (HTML), its prefilled answers locked; the token in the path is read by the page, never logged",
    }),
  ];
}
