import Joi from 'joi';

/** The custom rule's description: the validation fast path knows the rule by it (canonical-input.ts). */
export const WHATWG_URL_RULE = 'a URL the WHATWG parser accepts';

export const parsesAsUrl = (value: string): boolean => URL.canParse(value);

/**
 * A URL field: Joi's URI grammar for the message integrators know, then the WHATWG parser that
 * every later use (`new URL`, fetch, the address guard) applies, so a URL Joi lets through but
 * those refuse (a port past 65535, say) is a 400 here instead of a 500 later.
 */
export function webUrl(schemes: string[]): Joi.StringSchema {
  return Joi.string()
    .uri({ scheme: schemes })
    .custom((value: string, helpers) => (parsesAsUrl(value) ? value : helpers.error('string.uri')), WHATWG_URL_RULE);
}
