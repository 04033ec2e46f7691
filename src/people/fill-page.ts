import type { Config } from '../config.js';
import type { ServiceContext } from '../context.js';
import { parsedTemplateBody } from '../documents/creating/template-body.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { findReferenceLinkByToken } from '../references/queries.js';
import { findTemplate } from '../templates/read-templates.js';
import type { PageAssets } from './assets.js';
import { type FillPagePolicy, pageAnswer, sendPage } from './pages.js';

/** Tokens are 24 random bytes in base64url; anything else opens no link and is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The origins the page may ask: those of the link's `request` questions. An unknown, switched-off
 * or expired link gets none (its page only says so).
 */
async function policyOf(ctx: ServiceContext, token: string): Promise<FillPagePolicy> {
  const link = TOKEN.test(token) ? await findReferenceLinkByToken(ctx.db, token) : undefined;
  const template = link ? await findTemplate(ctx, link.organization_id, link.template_id) : undefined;
  if (!template) return { endpoints: [] };
  const endpoints = new Set<string>();
  for (const question of parsedTemplateBody(ctx, template).config) {
    if (question.type === 'request' && question.endpoint !== undefined) endpoints.add(new URL(question.endpoint).origin);
  }
  return { endpoints: [...endpoints] };
}

/** The page of a reference link: anyone holding it fills the template's questionnaire. */
export function fillPageRoute(config: Config, assets: PageAssets, ctx: ServiceContext): ApiRoute {
  return defineRoute({
    method: 'GET',
    url: '/r/:token',
    access: 'public',
    tag: "people's pages",
    summary: "A reference link's questionnaire (HTML); the token in the path is read by the page, never logged",
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
