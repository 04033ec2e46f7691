import type Joi from 'joi';
import { isRecord } from '../is-record.js';

/**
 * An example value of a Joi schema, built from the schema's own examples: the schema's `.example()`
 * when it has one, else its only allowed value or its default, else (objects, arrays, alternatives)
 * assembled from its parts. Undefined when a required part has none. The OpenAPI operations show it,
 * and the tests check it is valid against the same schema, so examples cannot drift from the rules.
 */
export function exampleOf(schema: Joi.Schema): unknown {
  return exampleOfDescription(schema.describe());
}

function exampleOfDescription(described: unknown): unknown {
  if (!isRecord(described)) return undefined;
  const flags = isRecord(described.flags) ? described.flags : {};
  if (Array.isArray(described.examples) && described.examples.length > 0) return described.examples[0];
  if (flags.only === true && Array.isArray(described.allow)) {
    // Joi marks `.valid()` lists that replace earlier ones with {override: true} in the description.
    const allowed = described.allow.find((value) => !(isRecord(value) && value.override === true));
    if (allowed !== undefined) return allowed;
  }
  if (flags.default !== undefined) return flags.default;
  switch (described.type) {
    case 'object':
      return objectExample(described);
    case 'array':
      return arrayExample(described);
    case 'alternatives':
      return Array.isArray(described.matches)
        ? described.matches.map((match) => (isRecord(match) ? exampleOfDescription(match.schema) : undefined)).find((value) => value !== undefined)
        : undefined;
    default:
      return undefined;
  }
}

function isRequired(described: unknown): boolean {
  return isRecord(described) && isRecord(described.flags) && described.flags.presence === 'required';
}

/** Keys with an example; an optional key whose example is empty says nothing and is left out. */
function objectExample(described: Record<string, unknown>): Record<string, unknown> | undefined {
  const example: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(isRecord(described.keys) ? described.keys : {})) {
    const value = exampleOfDescription(child);
    if (value === undefined) {
      if (isRequired(child)) return undefined;
      continue;
    }
    if (!isRequired(child) && isEmpty(value)) continue;
    example[key] = value;
  }
  return example;
}

function isEmpty(value: unknown): boolean {
  return (Array.isArray(value) && value.length === 0) || (isRecord(value) && Object.keys(value).length === 0);
}

/** One item, repeated as often as the array's minimum asks. */
function arrayExample(described: Record<string, unknown>): unknown[] | undefined {
  const item = Array.isArray(described.items) ? exampleOfDescription(described.items[0]) : undefined;
  const rules = Array.isArray(described.rules) ? described.rules : [];
  const min = rules
    .map((rule) => (isRecord(rule) && rule.name === 'min' && isRecord(rule.args) ? Number(rule.args.limit) : 0))
    .reduce((a, b) => Math.max(a, b), 0);
  if (item === undefined) return min > 0 ? undefined : [];
  return Array.from({ length: Math.max(1, min) }, () => item);
}
