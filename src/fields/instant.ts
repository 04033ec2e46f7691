import Joi from 'joi';

/**
 * The instants the service takes: ISO 8601 dates of the years 0000 to 9999 only. Their
 * `toISOString()` is then always 24 characters (`YYYY-MM-DDTHH:mm:ss.sssZ`), the shape every
 * stored date has: such texts sort as their instants do, and fit the columns (`varchar(24)`).
 * A year past 9999 (`+010000-…`) would sort before today's dates on SQLite and not fit on PostgreSQL.
 */
export const EARLIEST_INSTANT = new Date('0000-01-01T00:00:00.000Z');
export const LATEST_INSTANT = new Date('9999-12-31T23:59:59.999Z');

export const instantJoi = Joi.date().iso().min(EARLIEST_INSTANT).max(LATEST_INSTANT);

/** An instant as the service answers it, for the response schemas. */
export const instantAnswer = Joi.string().isoDate().example('2026-11-24T10:00:00.000Z');
