import type { Config } from '../../config.js';
import type { ServiceContext } from '../../context.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { userOf } from '../console-user.js';
import { consoleCookie } from '../cookie.js';
import { signedInReply } from '../route-helpers.js';
import { signedInResponse } from '../schemas.js';
import { addPasskey, listPasskeys, passkeyRegistrationOptions, passkeySignInOptions, removePasskey, signInWithPasskey } from './passkeys.js';
import {
  creationOptionsResponse,
  passkeyAddBody,
  passkeyListResponse,
  passkeyOptionsBody,
  passkeyRemoveBody,
  passkeyRemovedResponse,
  passkeyResponse,
  passkeySignInBody,
  requestOptionsResponse,
} from './schemas.js';

const tag = 'console';
/** Passkey sign-ins one client address may start or try in a quarter of an hour. */
const PASSKEY_ATTEMPTS = { max: 30, windowMs: 15 * 60_000 };

/** The console's passkeys: each user's own, added and removed while signed in, and the sign-in with one. */
export function passkeyRoutes(ctx: ServiceContext, options: { config: Config }): ApiRoute[] {
  const cookie = consoleCookie(options.config.publicUrl);
  return [
    defineRoute({
      method: 'GET',
      url: '/console/api/passkeys',
      access: 'console',
      permission: 'account.self',
      tag,
      summary: "The signed-in user's passkeys",
      body: noInput,
      query: noInput,
      response: { json: passkeyListResponse },
      errors: [],
      handler: (input) => listPasskeys(ctx, userOf(input)),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/passkeys/options',
      access: 'console',
      permission: 'account.self',
      tag,
      summary: "Start adding a passkey: the options for the browser's navigator.credentials.create()",
      description: "A discoverable credential for PUBLIC_URL's host, unlocked by the user's PIN or biometrics; its challenge answers once, within 5 minutes.",
      body: noInput,
      query: noInput,
      response: { json: creationOptionsResponse },
      errors: [],
      handler: (input) => passkeyRegistrationOptions(ctx, userOf(input)),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/passkeys',
      access: 'console',
      permission: 'account.self',
      tag,
      summary: "Add the passkey the browser made for the options' challenge",
      body: passkeyAddBody,
      query: noInput,
      response: { json: passkeyResponse },
      errors: ['CONSOLE_PASSKEY_INVALID'],
      handler: (input) => addPasskey(ctx, userOf(input), { response: input.body.response, address: input.request.ip }),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/passkeys/remove',
      access: 'console',
      permission: 'account.self',
      tag,
      summary: 'Remove one of the signed-in user’s passkeys',
      body: passkeyRemoveBody,
      query: noInput,
      response: { json: passkeyRemovedResponse },
      errors: ['CONSOLE_PASSKEY_NOT_FOUND'],
      handler: (input) => removePasskey(ctx, userOf(input), { id: input.body.id, address: input.request.ip }),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/sign-in/passkey/options',
      access: 'console-sign-in',
      tag,
      summary: "Start a sign-in with a passkey: the options for the browser's navigator.credentials.get()",
      description:
        'Without an e-mail the browser offers the passkeys it holds for the site; with one, those of its users (an e-mail without passkeys gets options that look the same).',
      body: passkeyOptionsBody,
      query: noInput,
      response: { json: requestOptionsResponse },
      errors: [],
      rateLimit: PASSKEY_ATTEMPTS,
      handler: ({ body }) => passkeySignInOptions(ctx, body.email === undefined ? {} : { email: body.email }),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/sign-in/passkey',
      access: 'console-sign-in',
      tag,
      summary: "Sign in with the passkey's answer to the options' challenge: sets the session cookie",
      description:
        'The challenge answers once; a passkey whose signature counter went back is refused. A passkey sign-in asks for no TOTP code: the authenticator checked the user already.',
      body: passkeySignInBody,
      query: noInput,
      response: { json: signedInResponse },
      errors: ['CONSOLE_SIGN_IN_INVALID'],
      rateLimit: PASSKEY_ATTEMPTS,
      handler: async (input) => signedInReply(cookie, input.reply, await signInWithPasskey(ctx, { response: input.body.response, address: input.request.ip })),
    }),
  ];
}
