import Joi from 'joi';
import type { Config } from '../../config.js';
import type { ServiceContext } from '../../context.js';
import { DomainError } from '../../domain-error.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { pageLanguage } from '../../people/page-language.js';
import { pageHeaders } from '../../people/pages.js';
import { consoleCookie, oidcBindingCookie, sessionTokenOf, setOidcBindingCookie, setSessionCookie } from '../cookie.js';
import { signInBody } from '../schemas.js';
import { finishOidcSignIn, OIDC_MINUTES, startOidcSignIn } from './oidc.js';
import { onwardPage } from './onward-page.js';

const tag = 'console';
const OIDC_REQUESTS = { max: 20, windowMs: 15 * 60_000 };

/** What an identity provider's redirect back carries; providers add parameters of their own, which are let through. */
interface CallbackQuery {
  code?: string;
  state?: string;
}

const callbackQuery = Joi.object<CallbackQuery, true>({
  code: Joi.string().max(4096),
  state: Joi.string().max(512),
})
  .unknown(true)
  .description("the identity provider's authorization response");

const oidcStartResponse = Joi.object({
  url: Joi.string()
    .uri()
    .allow(null)
    .required()
    .description("the identity provider's sign-in page to go to, or null when no organization of the e-mail has single sign-on")
    .example('https://idp.acme.example/authorize?client_id=acme-console&response_type=code&state=af0ifjsldkj'),
});

/** Single sign-on through an organization's OpenID Connect provider (admin org update --oidc-issuer …). */
export function oidcRoutes(ctx: ServiceContext, options: { config: Config }): ApiRoute[] {
  const cookie = consoleCookie(options.config.publicUrl);
  const bindingCookie = oidcBindingCookie(cookie);
  return [
    defineRoute({
      method: 'POST',
      url: '/console/api/sign-in/oidc',
      access: 'console-sign-in',
      tag,
      summary: "Sign in with your organization: the identity provider's page, when the e-mail's organization has single sign-on",
      description:
        'Sets a short-lived cookie that ties the sign-in to this browser. Answers `{url: null}` when no organization of the e-mail has an OpenID Connect provider (which tells that much about the e-mail, as every "sign in with your organization" does).',
      body: signInBody,
      query: noInput,
      response: { json: oidcStartResponse },
      errors: [],
      rateLimit: OIDC_REQUESTS,
      handler: async ({ body, request, reply }) => {
        const started = await startOidcSignIn(ctx, { email: body.email, address: request.ip });
        if (started.binding !== undefined) reply.header('set-cookie', setOidcBindingCookie(bindingCookie, started.binding, OIDC_MINUTES * 60));
        return { url: started.url };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/sign-in/oidc/callback',
      access: 'console-sign-in',
      tag,
      summary: "The identity provider's redirect back (the redirect URI to register there): opens the session and goes to /console",
      description:
        'Goes on to /console signed in, to /console#second-factor when the user has TOTP on, or to /console#sign-in-refused when the state, the browser, the code, the ID token or its verified e-mail does not check out (an e-mail of no user of the organization included: nobody is made a user by signing in).',
      body: noInput,
      query: callbackQuery,
      response: { raw: { mediaTypes: ['text/html'], description: 'a page that goes on to the console at once (meta refresh, no script)' } },
      errors: [],
      rateLimit: OIDC_REQUESTS,
      handler: async ({ request, reply }) => {
        const session = await finishOidcSignIn(ctx, {
          callbackUrl: new URL(request.url, options.config.publicUrl),
          binding: sessionTokenOf(bindingCookie, request.headers.cookie),
          address: request.ip,
        }).catch((error: unknown) => {
          if (error instanceof DomainError) return undefined;
          throw error;
        });
        const cookies = [setOidcBindingCookie(bindingCookie, '', 0)];
        if (session) cookies.push(setSessionCookie(cookie, session.token, session.maxAgeSeconds));
        const to = session === undefined ? '/console#sign-in-refused' : session.user.secondFactor ? '/console#second-factor' : '/console';
        // A page rather than a redirect: the address bar drops the code and state at once, and the
        // console's own request that follows is same-site, so the Strict session cookie goes with it.
        return reply
          .headers(pageHeaders(options.config, []))
          .header('set-cookie', cookies)
          .type('text/html; charset=utf-8')
          .send(onwardPage(to, pageLanguage(request.headers['accept-language'])));
      },
    }),
  ];
}
