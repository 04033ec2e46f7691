import { fail } from '../domain-error.js';

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
 * Looks through parsed input once, without recursion: depth, the U+0000 character (PostgreSQL
 * refuses it in text and SQLite would keep it, so both stores answer the same 400 instead), lone
 * UTF-16 surrogates (no UTF-8 encodes them: PostgreSQL and SQLite would each store something else
 * in their place), and keys that would reach an object's prototype when code merges the input
 * into another object.
 */
export function checkInput(value: unknown, maxDepth: number = MAX_JSON_DEPTH): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') {
      checkText(item);
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= maxDepth) throw fail('BODY_TOO_DEEP', `objects and arrays may nest at most ${maxDepth} levels`);
    if (Array.isArray(item)) {
      for (const element of item) stack.push([element, depth + 1]);
      continue;
    }
    for (const [key, child] of Object.entries(item)) {
      if (FORBIDDEN_KEYS.has(key) || (key === 'constructor' && typeof child === 'object' && child !== null && 'prototype' in child)) {
        throw fail('BODY_FORBIDDEN_KEY', `the key "${key}" is not accepted`);
      }
      checkText(key);
      stack.push([child, depth + 1]);
    }
  }
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
  checkInput(value);
  return value;
}
