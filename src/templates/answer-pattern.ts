import { RE2JS, RE2JSSyntaxException } from 're2js';

/**
 * A question's `regex` is written in JavaScript syntax, as for the reference service, but runs on
 * RE2 (re2js): matching time grows linearly with the answer, so a pattern that backtracks
 * catastrophically in JavaScript (`^(a+)+$`) cannot hold the event loop. The save-time check and
 * the answer check both go through `compileAnswerPattern`, so they never disagree.
 */

/** RE2 instructions a pattern may compile to (`.{0,1000}` takes about 2000): the cost of each answer character grows with it. */
export const MAX_PATTERN_PROGRAM_SIZE = 2500;

/** Why a pattern cannot be a question's `regex`. */
export type PatternProblem = 'syntax' | 'unsupported' | 'too-large';

export interface AnswerPattern {
  /** The pattern as JavaScript prints it, e.g. `/^a\/b$/`, for error messages. */
  readonly text: string;
  /** Whether the pattern matches anywhere in the value, as `RegExp.prototype.test` does. */
  test(value: string): boolean;
  /** RE2 instructions: a test costs at most about this many steps per character of the value. */
  readonly size: number;
}

/**
 * Steps (answer characters times pattern instructions) one request's answers may cost in all: about
 * 0.2 s here, where ordinary templates need well under a thousandth of it. Each pattern is linear,
 * but 500 large patterns over 10,000-character answers would still hold the event loop for seconds.
 */
export const MAX_PATTERN_WORK = 50_000_000;

export type CompiledPattern = { ok: true; pattern: AnswerPattern } | { ok: false; problem: PatternProblem };

/** RE2's own words for a pattern that parses but is too big to run. */
const TOO_LARGE_ERRORS: ReadonlySet<string> = new Set(['invalid repeat count', 'expression too large']);

/**
 * Distinct patterns kept compiled, least recently used dropped first. Compiling costs 15 to 300 µs and
 * a cached test under 1.5 µs; but each compiled pattern keeps its DFA states, up to about 8 MB, so few are kept.
 */
const CACHE_SIZE = 32;
const cache = new Map<string, CompiledPattern>();

/**
 * `\k<name>` and `\1`..`\9` are back-references in JavaScript. RE2's translation of JavaScript
 * syntax would read some of them as plain letters or digits, silently changing what matches.
 */
function hasBackReference(source: string): boolean {
  for (let i = 0; i < source.length; i += 1) {
    if (source[i] !== '\\') continue;
    const next = source[i + 1] ?? '';
    if (next === 'k' || (next >= '1' && next <= '9')) return true;
    i += 1;
  }
  return false;
}

function compile(source: string): CompiledPattern {
  let javascript: RegExp;
  try {
    javascript = new RegExp(source);
  } catch {
    return { ok: false, problem: 'syntax' };
  }
  if (hasBackReference(source)) return { ok: false, problem: 'unsupported' };
  let re2: RE2JS;
  try {
    // translateRegExp turns JavaScript-only syntax (\uXXXX, \cX, [^], (?<name>...)) into RE2's.
    re2 = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (error) {
    if (error instanceof RE2JSSyntaxException && TOO_LARGE_ERRORS.has(error.error)) return { ok: false, problem: 'too-large' };
    return { ok: false, problem: 'unsupported' };
  }
  if (re2.programSize() > MAX_PATTERN_PROGRAM_SIZE) return { ok: false, problem: 'too-large' };
  return { ok: true, pattern: { text: String(javascript), test: (value) => re2.test(value), size: re2.programSize() } };
}

/** Compiles an integrator's pattern once and keeps it for the next answers. */
export function compileAnswerPattern(source: string): CompiledPattern {
  const cached = cache.get(source);
  if (cached) {
    cache.delete(source);
    cache.set(source, cached);
    return cached;
  }
  const compiled = compile(source);
  if (cache.size >= CACHE_SIZE) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(source, compiled);
  return compiled;
}
