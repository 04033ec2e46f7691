import type { Config } from '../config.js';
import type { ServiceContext } from '../context.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import type { Language } from '../organizations/languages.js';
import { organizationLanguage } from '../organizations/settings.js';
import { findFillSource } from '../references/fill/fill-source.js';
import type { PageAssets } from './assets.js';
import { type FillPagePolicy, pageAnswer, sendPage, tokenParam } from './pages.js';

/** Tokens are random bytes in base64url; anything else opens no form and is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * What a form's page allows beyond every page's policy: the origins of its `request` questions,
 * which the page asks from the browser as the real service's form does (and only those); and,
 * for a form the SDK opened, the one origin it was opened from may frame it. An unknown form gets
 * neither (its page only says so).
 */
async function policyOf(ctx: ServiceContext, token: string): Promise<{ fill: FillPagePolicy; frameAncestors: string[]; language?: Language }> {
  const source = TOKEN.test(token) ? await findFillSource(ctx, token).catch(() => undefined) : undefined;
  if (!source) return { fill: { endpoints: [] }, frameAncestors: [] };
  const endpoints = new Set<string>();
  for (const question of source.body.config) {
    if (question.type === 'request' && question.endpoint !== undefined) endpoints.add(new URL(question.endpoint).origin);
  }
  return {
    fill: { endpoints: [...endpoints] },
    frameAncestors: source.session ? [source.session.origin] : [],
    // Whoever fills a form is nobody the organization named yet: the form speaks the organization's language.
    language: await organizationLanguage(ctx.db, source.organizationId),
  };
}

function fillPage(
  config: Config,
  assets: PageAssets,
  ctx: ServiceContext,
  options: { url: string; summary: string; mode: 'fill' | 'embedded-fill' },
): ApiRoute {
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
      const policy = await policyOf(ctx, tokenParam(request));
      // Only the SDK's form is framed, and only by the page that opened it; links' forms by nobody.
      const frameAncestors = options.mode === 'embedded-fill' ? policy.frameAncestors : [];
      return sendPage(config, assets, request, reply, { mode: options.mode, frameAncestors, fill: policy.fill, stored: policy.language });
    },
  });
}

/**
 * The pages of the template questionnaire: a reference link's, which anyone holding it fills, a
 * prebuilt process's, which the person it was e-mailed to completes (its prefilled answers shown
 * and locked), and the one the SDK's frame opened. The same page; the token says which.
 */
export function fillPageRoutes(config: Config, assets: PageAssets, ctx: ServiceContext): ApiRoute[] {
  return [
    fillPage(config, assets, ctx, {
      url: '/r/:token',
      mode: 'fill',
      summary: "A reference link's questionnaire (HTML); the token in the path is read by the page, never logged",
    }),
    fillPage(config, assets, ctx, {
      url: '/f/:token',
      mode: 'fill',
      summary: "A prebuilt process's questionnaire (HTML), its prefilled answers locked; the token in the path is read by the page, never logged",
    }),
    fillPage(config, assets, ctx, {
      url: '/e/:token',
      mode: 'embedded-fill',
      summary:
        "The questionnaire the SDK's fill flow opened (HTML), where the SDK's frame goes once the form is known: framed only by the origin it was opened from, and allowed to ask the form's `request` endpoints",
    }),
  ];
}
