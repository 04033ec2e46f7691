import Joi from 'joi';

/**
 * The headers a webhook's static header may not name: those the service sets on every delivery
 * (the Standard Webhooks signature, the body's type and length, the user agent), the target's
 * `host`, and the hop-by-hop ones that change how the request is framed. A header naming one would
 * forge the signature the receiver checks, or send the request somewhere else.
 */
export const RESERVED_HEADERS: readonly string[] = [
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'user-agent',
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
];

/** What GET /company and GET /webhooks show instead of a header's value: it is a secret, written once. */
export const MASKED_HEADER_VALUE = '********';

export interface StaticHeader {
  key: string;
  value: string;
}

/** RFC 9110's token: the characters a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII and Latin-1, spaces and tabs inside: no CR or LF, so no header can be smuggled in. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export const staticHeaderSchema = Joi.object<StaticHeader, true>({
  key: Joi.string()
    .max(100)
    .pattern(HEADER_NAME)
    .custom((value: string, helpers) => (RESERVED_HEADERS.includes(value.toLowerCase()) ? helpers.error('string.reservedHeader') : value))
    .messages({
      'string.pattern.base': "{{#label}} must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-)",
      'string.reservedHeader': `{{#label}} must not be one of the headers the service sets: ${RESERVED_HEADERS.join(', ')}`,
    })
    .required()
    .example('Authorization'),
  value: Joi.string()
    .max(2000)
    .pattern(HEADER_VALUE)
    .messages({ 'string.pattern.base': '{{#label}} must be visible characters and spaces, on one line' })
    .required()
    .example('Bearer 4f1c9a7e2b'),
});

/** The header as an answer shows it: its name, and the value masked. */
export function maskedHeader(key: string | null): { key: string; value: string } | undefined {
  return key === null ? undefined : { key, value: MASKED_HEADER_VALUE };
}
