/** The base path of the external API v1.5. */
export const API_PREFIX = '/v1.5/ext';
