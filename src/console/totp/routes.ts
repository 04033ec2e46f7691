import type { Config } from '../../config.js';
import type { ServiceContext } from '../../context.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { userOf } from '../console-user.js';
import { consoleCookie, sessionTokenOf } from '../cookie.js';
import { signedInReply } from '../route-helpers.js';
import { signedInResponse } from '../schemas.js';
import { totpCodeBody, totpEnabledResponse, totpEnrolResponse, totpStatusResponse } from './schemas.js';
import { confirmTotp, signInWithTotp, startTotp, totpStatus } from './totp.js';

const tag = 'console';
/** TOTP codes one client address may try in a quarter of an hour, whatever the session. */
const TOTP_ATTEMPTS = { max: 20, windowMs: 15 * 60_000 };

/** The console's optional TOTP second factor: the user's enrolment, and the code that completes a sign-in. */
export function totpRoutes(ctx: ServiceContext, options: { config: Config }): ApiRoute[] {
  const cookie = consoleCookie(options.config.publicUrl);
  return [
    defineRoute({
      method: 'GET',
      url: '/console/api/totp',
      access: 'console',
      permission: 'account.self',
      tag,
      summary: "Whether the signed-in user's sign-ins ask for a TOTP code",
      body: noInput,
      query: noInput,
      response: { json: totpStatusResponse },
      errors: [],
      handler: (input) => totpStatus(ctx, userOf(input)),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/totp/enrol',
      access: 'console',
      permission: 'account.self',
      tag,
      summary: "Start a TOTP enrolment: a new secret for the user's authenticator app, shown this once (text, otpauth URI, QR code)",
      description: 'Sign-in asks for nothing more until a first code confirms it (POST /console/api/totp/confirm). An enrolment not yet confirmed is replaced.',
      body: noInput,
      query: noInput,
      response: { json: totpEnrolResponse },
      errors: ['CONSOLE_TOTP_ALREADY_ON'],
      handler: (input) => startTotp(ctx, userOf(input)),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/totp/confirm',
      access: 'console',
      permission: 'account.self',
      tag,
      summary: "Confirm the enrolment with the app's first code: from now on sign-in asks for a TOTP code",
      description: 'Five wrong codes drop the enrolment.',
      body: totpCodeBody,
      query: noInput,
      response: { json: totpEnabledResponse },
      errors: ['CONSOLE_TOTP_NOT_STARTED', 'CONSOLE_TOTP_INVALID'],
      rateLimit: TOTP_ATTEMPTS,
      handler: (input) => confirmTotp(ctx, userOf(input), { code: input.body.code, address: input.request.ip }),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/sign-in/totp',
      access: 'console-sign-in',
      tag,
      summary: 'The second factor of a sign-in that answered `secondFactor: "totp"`: the code opens the session the cookie holds',
      description: 'A code opens one session once (no code of the same or an earlier time step opens another); five wrong codes end the waiting session.',
      body: totpCodeBody,
      query: noInput,
      response: { json: signedInResponse },
      errors: ['CONSOLE_TOTP_INVALID', 'CONSOLE_SECOND_FACTOR_OVER'],
      rateLimit: TOTP_ATTEMPTS,
      handler: async (input) =>
        signedInReply(
          cookie,
          input.reply,
          await signInWithTotp(ctx, { token: sessionTokenOf(cookie, input.request.headers.cookie), code: input.body.code, address: input.request.ip }),
        ),
    }),
  ];
}
