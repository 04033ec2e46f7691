import { fail } from '../domain-error.js';
import { isRecord } from '../is-record.js';

/**
 * How deep a JSON body may nest objects and arrays. The deepest shape the API declares (a template
 * question's options) is five levels; free-form objects such as `custom` get the rest. Deeper
 * bodies are refused before anything walks them recursively (validation, storage, answers).
 */
export const MAX_JSON_DEPTH = 32;

const FORBIDDEN_KEYS = new Set(['__proto__']);

/**
 * With the `u` flag a pair of surrogates is one code point, so this finds only lone ones
 * (what `String.prototype.isWellFormed` answers, which the ES2022 library types here lack).
 */
const LONE_SURROGATE = /\p{Surrogate}/u;

function checkText(text: string): void {
  if (text.includes('\u0000')) throw fail('TEXT_HAS_NUL', 'text may not contain the character U+0000');
  if (LONE_SURROGATE.test(text)) throw fail('TEXT_NOT_WELL_FORMED', 'text may not contain a lone UTF-16 surrogate (U+D800 to U+DFFF)');
}

/**
 * Looks through parsed input once: depth, the U+0000 character (PostgreSQL refuses it in text and
 * SQLite would keep it, so both stores answer the same 400 instead), lone UTF-16 surrogates (no
 * UTF-8 encodes them: PostgreSQL and SQLite would each store something else in their place), and
 * keys that would reach an object's prototype when code merges the input into another object.
 * `texts: false` skips the two text checks, for input whose source text shows neither can occur.
 */
export function checkInput(value: unknown, maxDepth: number = MAX_JSON_DEPTH, texts = true): void {
  checkValue(value, 0, maxDepth, texts);
}

// Recursive, but never deeper than maxDepth: the depth is refused before a level is entered.
function checkValue(item: unknown, depth: number, maxDepth: number, texts: boolean): void {
  if (typeof item === 'string') {
    if (texts) checkText(item);
    return;
  }
  if (typeof item !== 'object' || item === null) return;
  if (depth >= maxDepth) throw fail('BODY_TOO_DEEP', `objects and arrays may nest at most ${maxDepth} levels`);
  if (Array.isArray(item)) {
    for (const element of item) checkValue(element, depth + 1, maxDepth, texts);
    return;
  }
  if (!isRecord(item)) return;
  for (const key of Object.keys(item)) {
    const child = item[key];
    if (FORBIDDEN_KEYS.has(key) || (key === 'constructor' && typeof child === 'object' && child !== null && 'prototype' in child)) {
      throw fail('BODY_FORBIDDEN_KEY', `the key "${key}" is not accepted`);
    }
    if (texts) checkText(key);
    checkValue(child, depth + 1, maxDepth, texts);
  }
}

/** Any UTF-16 surrogate, paired or not: a quick look at a whole text before its strings are checked one by one. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Whether strings parsed from this JSON text may hold U+0000 or a lone surrogate. JSON.parse refuses
 * a raw U+0000 (a control character), so one only arrives as a \u escape; a lone surrogate arrives
 * as an escape or raw. Text with no \u escape and no surrogate at all (nearly every body) parses to
 * strings free of both, and its strings need no scan each.
 */
function mayHoldUnwantedText(text: string): boolean {
  return text.includes('\\u') || SURROGATE.test(text);
}

/** Parses a JSON body and checks it with checkInput; an empty body is no body (some clients label every request JSON). */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fail('BODY_NOT_JSON', 'the body is not valid JSON');
  }
  checkInput(value, MAX_JSON_DEPTH, mayHoldUnwantedText(text));
  return value;
}
