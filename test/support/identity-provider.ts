import http from 'node:http';
import Provider, { type KoaContext } from 'oidc-provider';
import { closedPort } from './ports.js';

export interface IdentityProvider {
  issuer: string;
  /** Who signs in at the provider next: the e-mail its ID token says, and whether the provider verified it. */
  signInAs(account: { email: string; verified: boolean }): void;
  /** Follows the authorization URL through the provider (signing in as `signInAs` said) to the redirect back: the callback URL. */
  authorize(url: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider) on a loopback port, with one client per
 * organization. Its sign-in page is skipped: the interaction finishes at once as the account set
 * with signInAs, and every grant is given (no consent screen).
 */
export async function startIdentityProvider(clients: { clientId: string; clientSecret: string; redirectUri: string }[]): Promise<IdentityProvider> {
  const port = await closedPort();
  const issuer = `http://127.0.0.1:${port}`;
  let account = { email: '', verified: false };
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: [c.redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, email: account.email, email_verified: account.verified }),
    }),
    loadExistingGrant: async (ctx: KoaContext) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client?.clientId, accountId: ctx.oidc.session?.accountId });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
  });
  const handle = provider.callback();
  const server = http.createServer((request, response) => {
    if (request.url?.startsWith('/interaction/')) {
      provider.interactionFinished(request, response, { login: { accountId: account.email } }, { mergeWithLastSubmission: false }).catch(() => {
        response.statusCode = 500;
        response.end();
      });
      return;
    }
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    issuer,
    signInAs(next) {
      account = next;
    },
    async authorize(url) {
      const jar = new Map<string, string>();
      let next = new URL(url);
      for (let hop = 0; hop < 10; hop++) {
        if (next.origin !== issuer) return next;
        const res = await fetch(next, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const line of res.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const at = pair?.indexOf('=') ?? -1;
          if (pair && at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`the provider stopped at ${next.href}: ${res.status} ${await res.text()}`);
        next = new URL(location, next);
      }
      throw new Error('the provider redirected too many times');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
