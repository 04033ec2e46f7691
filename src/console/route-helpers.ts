import type { FastifyReply } from 'fastify';
import { type ConsoleCookie, setSessionCookie } from './cookie.js';
import type { NewSession, SignedIn } from './sign-in.js';

/** A sign-in's answer: the session's cookie set, the user said. */
export function signedInReply(cookie: ConsoleCookie, reply: FastifyReply, session: NewSession): SignedIn {
  reply.header('set-cookie', setSessionCookie(cookie, session.token, session.maxAgeSeconds));
  return session.user;
}
