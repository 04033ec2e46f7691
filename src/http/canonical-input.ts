import Joi from 'joi';
import { parsesAsUrl, WHATWG_URL_RULE } from '../fields/web-url.js';
import { isRecord } from '../is-record.js';

/**
 * A fast path in front of Joi. Joi walks its schema tree on every call, which on a whole template
 * costs more than the rest of the request together. Most input integrators send is already
 * canonical: exactly what Joi would hand back, needing no conversion. This module compiles a
 * schema's description once into a plain function that recognises such input and answers Joi's
 * value for it (the input itself, plus any defaults). Whatever it cannot vouch for, it leaves
 * undecided, and Joi decides as before, with its own messages.
 *
 * The one rule: a check answers a value only where Joi would accept the input and answer the same
 * value. Every feature is opt-in; a schema using anything not handled here compiles, in that
 * part, to "undecided", so new schema features cost speed, never correctness.
 */
export const UNDECIDED: unique symbol = Symbol('undecided');
type Undecided = typeof UNDECIDED;

/** The value Joi would answer, or UNDECIDED. */
type Check = (value: unknown) => unknown;

const undecided: Check = () => UNDECIDED;

type Primitive = string | number | boolean | null;

interface Node {
  type: string;
  flags: Record<string, unknown>;
  rules: Rule[];
  allow: Primitive[] | undefined;
  invalid: Primitive[] | undefined;
  raw: Record<string, unknown>;
}

interface Rule {
  name: string;
  args: Record<string, unknown>;
}

/**
 * Parsed JSON, or a parsed query string: fast-querystring builds its objects on a bare prototype
 * (one without properties) so that no key can reach Object.prototype. Anything with a prototype
 * that carries something (a Date, a Buffer, a class) is left to Joi.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  for (let prototype: unknown = Object.getPrototypeOf(value); prototype !== null && prototype !== Object.prototype; ) {
    if (typeof prototype !== 'object' || Reflect.ownKeys(prototype).length > 0) return false;
    prototype = Object.getPrototypeOf(prototype);
  }
  return true;
}

function isPrimitive(value: unknown): value is Primitive {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Joi's marker that a list replaces, rather than extends, one inherited through concat. */
function isOverride(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).length === 1 && value.override === true;
}

function primitives(value: unknown): Primitive[] | undefined | Undecided {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return UNDECIDED;
  const listed = value.filter((entry) => !isOverride(entry));
  return listed.every(isPrimitive) ? listed : UNDECIDED;
}

function parseNode(description: unknown): Node | Undecided {
  if (!isRecord(description) || typeof description.type !== 'string') return UNDECIDED;
  const flags = description.flags ?? {};
  const rules = description.rules ?? [];
  if (!isRecord(flags) || !Array.isArray(rules)) return UNDECIDED;
  const parsedRules: Rule[] = [];
  for (const rule of rules) {
    if (!isRecord(rule) || typeof rule.name !== 'string') return UNDECIDED;
    const args = rule.args ?? {};
    if (!isRecord(args)) return UNDECIDED;
    parsedRules.push({ name: rule.name, args });
  }
  const allow = primitives(description.allow);
  const invalid = primitives(description.invalid);
  if (allow === UNDECIDED || invalid === UNDECIDED) return UNDECIDED;
  return { type: description.type, flags, rules: parsedRules, allow, invalid, raw: description };
}

/** Description parts that only document or word errors: they never change what is accepted. */
const DOCUMENTATION = new Set(['type', 'flags', 'rules', 'allow', 'invalid', 'messages', 'metas', 'notes', 'tags', 'examples']);
const DOCUMENTATION_FLAGS = new Set(['description', 'label', 'error', 'id', 'presence', 'default', 'only']);

const SHAPE: Record<string, { parts: string[]; flags: string[] }> = {
  any: { parts: [], flags: [] },
  string: { parts: [], flags: [] },
  number: { parts: [], flags: [] },
  boolean: { parts: [], flags: [] },
  object: { parts: ['keys', 'patterns', 'dependencies'], flags: ['unknown'] },
  array: { parts: ['items'], flags: ['sparse', 'single'] },
  alternatives: { parts: ['matches'], flags: [] },
};

/** `.messages()` is kept as a preference; any other preference (convert, presence...) changes validation. */
function onlyWordsErrors(preferences: unknown): boolean {
  return preferences === undefined || (isRecord(preferences) && Object.keys(preferences).every((key) => key === 'messages'));
}

function hasOnlyKnownParts(node: Node): boolean {
  const shape = SHAPE[node.type];
  if (!shape || !onlyWordsErrors(node.raw.preferences)) return false;
  const partsKnown = Object.keys(node.raw).every((part) => DOCUMENTATION.has(part) || part === 'preferences' || shape.parts.includes(part));
  const flagsKnown = Object.keys(node.flags).every((flag) => DOCUMENTATION_FLAGS.has(flag) || shape.flags.includes(flag));
  return partsKnown && flagsKnown;
}

function numberArg(rule: Rule, name: string): number | undefined {
  const value = rule.args[name];
  return typeof value === 'number' ? value : undefined;
}

function stringRule(rule: Rule): ((value: string) => boolean) | undefined {
  const limit = numberArg(rule, 'limit');
  const counted = rule.args.encoding === undefined;
  switch (rule.name) {
    case 'min':
      return limit === undefined || !counted ? undefined : (value) => value.length >= limit;
    case 'max':
      return limit === undefined || !counted ? undefined : (value) => value.length <= limit;
    case 'length':
      return limit === undefined || !counted ? undefined : (value) => value.length === limit;
    case 'pattern':
      return patternTest(rule);
    case 'hex': {
      const options = rule.args.options;
      if (!isRecord(options) || options.byteAligned !== false || options.prefix !== false) return undefined;
      return (value) => /^[0-9a-f]+$/i.test(value);
    }
    // The one custom rule known by its description; any other custom rule is Joi's to run.
    case 'custom':
      return rule.args.description === WHATWG_URL_RULE ? parsesAsUrl : undefined;
    // Both change the value when converting; canonical input is checked for them before anything else.
    case 'trim':
    case 'case':
      return () => true;
    default:
      return undefined;
  }
}

/**
 * Rules whose exact semantics live in Joi's dependencies (e-mail and URI grammars, top-level domain
 * lists): a string with them is checked by a schema holding only those rules, rebuilt from their
 * description, and taken when that schema accepts it unchanged. A few microseconds for one string,
 * where the whole schema's walk costs hundreds. Custom rules are not here: their functions are not
 * part of a description, so a rebuilt schema would lack them.
 */
const DELEGATED_STRING_RULES = new Set(['email', 'uri', 'domain', 'hostname', 'ip', 'guid', 'base64', 'dataUri', 'alphanum', 'token']);

function delegatedStringRules(rules: Rule[]): (value: string) => boolean {
  if (rules.length === 0) return () => true;
  const schema = Joi.build({ type: 'string', rules });
  return (value) => {
    const result = schema.validate(value);
    return result.error === undefined && result.value === value;
  };
}

function regexOf(source: unknown): RegExp | undefined {
  if (typeof source !== 'string') return undefined;
  const match = /^\/(.*)\/([a-z]*)$/s.exec(source);
  if (!match) return undefined;
  return new RegExp(match[1] ?? '', match[2]);
}

function patternTest(rule: Rule): ((value: string) => boolean) | undefined {
  const regex = regexOf(rule.args.regex);
  const options = rule.args.options ?? {};
  if (!regex || !isRecord(options) || Object.keys(options).some((key) => key !== 'name' && key !== 'invert')) return undefined;
  const invert = options.invert === true;
  return (value) => regex.test(value) !== invert;
}

function numberRule(rule: Rule): ((value: number) => boolean) | undefined {
  const limit = numberArg(rule, 'limit');
  switch (rule.name) {
    case 'integer':
      return (value) => Math.trunc(value) - value === 0;
    case 'min':
      return limit === undefined ? undefined : (value) => value >= limit;
    case 'max':
      return limit === undefined ? undefined : (value) => value <= limit;
    case 'greater':
      return limit === undefined ? undefined : (value) => value > limit;
    case 'less':
      return limit === undefined ? undefined : (value) => value < limit;
    default:
      return undefined;
  }
}

/** Joi converts strings for these types (and strings it trims or re-cases): such input is Joi's to judge. */
function convertedByJoi(node: Node): ((value: unknown) => boolean) | undefined {
  if (node.type === 'number' || node.type === 'boolean') return (value) => typeof value === 'string';
  if (node.type !== 'string') return () => false;
  const trim = node.rules.some((rule) => rule.name === 'trim' && rule.args.enabled === true);
  const casing = node.rules.find((rule) => rule.name === 'case')?.args.direction;
  if (casing !== undefined && casing !== 'lower' && casing !== 'upper') return undefined;
  return (value) =>
    typeof value === 'string' &&
    ((trim && value !== value.trim()) ||
      (casing === 'lower' && value !== value.toLocaleLowerCase()) ||
      (casing === 'upper' && value !== value.toLocaleUpperCase()));
}

function testsOf<T>(rules: Rule[], testOf: (rule: Rule) => ((value: T) => boolean) | undefined): ((value: T) => boolean)[] | undefined {
  const tests: ((value: T) => boolean)[] = [];
  for (const rule of rules) {
    const test = testOf(rule);
    if (!test) return undefined;
    tests.push(test);
  }
  return tests;
}

/** The type's own test and rules, for a present value that is not among the allowed ones. */
function typeCheck(node: Node): Check | undefined {
  switch (node.type) {
    case 'any':
      return (value) => value;
    case 'string': {
      const native = node.rules.filter((rule) => !DELEGATED_STRING_RULES.has(rule.name));
      const tests = testsOf(native, stringRule);
      if (!tests) return undefined;
      const delegated = delegatedStringRules(node.rules.filter((rule) => DELEGATED_STRING_RULES.has(rule.name)));
      return (value) => (typeof value === 'string' && value !== '' && tests.every((test) => test(value)) && delegated(value) ? value : UNDECIDED);
    }
    case 'number': {
      const tests = testsOf(node.rules, numberRule);
      if (!tests) return undefined;
      return (value) =>
        typeof value === 'number' &&
        Number.isFinite(value) &&
        !Object.is(value, -0) &&
        value <= Number.MAX_SAFE_INTEGER &&
        value >= Number.MIN_SAFE_INTEGER &&
        tests.every((test) => test(value))
          ? value
          : UNDECIDED;
    }
    case 'boolean':
      return node.rules.length === 0 ? (value) => (typeof value === 'boolean' ? value : UNDECIDED) : undefined;
    case 'object':
      return objectCheck(node);
    case 'array':
      return arrayCheck(node);
    case 'alternatives':
      return alternativesCheck(node);
    default:
      return undefined;
  }
}

/** The check of a present value: Joi's order of conversion, allowed values, denied values, then type and rules. */
function compileValue(description: unknown): Check {
  const node = parseNode(description);
  if (node === UNDECIDED || !hasOnlyKnownParts(node) || node.flags.presence === 'forbidden') return undecided;
  const converted = convertedByJoi(node);
  const type = typeCheck(node);
  if (!converted || !type) return undecided;
  const allowed = new Set<unknown>(node.allow);
  const denied = new Set<unknown>(node.invalid);
  const only = node.flags.only === true;
  return (value) => {
    if (value === undefined || converted(value)) return UNDECIDED;
    if (allowed.has(value)) return value;
    if (only || denied.has(value)) return UNDECIDED;
    return type(value);
  };
}

/**
 * The root's answer when there is no input at all: for a schema that is not required and defaults to
 * an empty object (`noInput`, every GET's and DELETE's body), Joi answers a copy of that default, not
 * checked against the keys; any other absent input is left to Joi, which decides presence.
 */
function compileAbsent(description: unknown): Check {
  const node = parseNode(description);
  if (node === UNDECIDED || (node.flags.presence !== undefined && node.flags.presence !== 'optional')) return undecided;
  const fallback = node.flags.default;
  // An empty object cannot be a described reference ({ref: ...}), which reads like a literal object.
  return isPlainObject(fallback) && Object.keys(fallback).length === 0 ? () => ({}) : undecided;
}

const compiled = new WeakMap<Joi.Schema, { present: Check; absent: Check }>();

/** Joi's value for canonical input, or UNDECIDED. Compiled on first use, once per schema. */
export function canonicalValue(schema: Joi.Schema, input: unknown): unknown {
  let checks = compiled.get(schema);
  if (!checks) {
    checks = compileOrLeaveToJoi(schema);
    compiled.set(schema, checks);
  }
  return input === undefined ? checks.absent(input) : checks.present(input);
}

/** A description this module cannot make sense of costs the fast path, never the request. */
function compileOrLeaveToJoi(schema: Joi.Schema): { present: Check; absent: Check } {
  try {
    const description = schema.describe();
    return { present: compileValue(description), absent: compileAbsent(description) };
  } catch {
    return { present: undecided, absent: undecided };
  }
}

interface KeyCheck {
  check: Check;
  required: boolean;
  /** The default's value when the key is absent; undefined when there is none. */
  fallback: Primitive | Primitive[] | undefined;
}

/**
 * A literal default: a primitive, or a list of them. Any other object is left to Joi: a described
 * reference ({ref: ...}) reads exactly like a literal object, and a function is not a value.
 */
function defaultOf(value: unknown): Primitive | Primitive[] | undefined | Undecided {
  if (value === undefined || isPrimitive(value)) return value;
  return Array.isArray(value) && value.every(isPrimitive) ? value : UNDECIDED;
}

function keyCheckOf(description: unknown): KeyCheck | Undecided {
  const node = parseNode(description);
  if (node === UNDECIDED) return UNDECIDED;
  const fallback = defaultOf(node.flags.default);
  if (fallback === UNDECIDED) return UNDECIDED;
  return { check: compileValue(description), required: node.flags.presence === 'required', fallback };
}

/** A key whose schema depends on a sibling through one `when`: the branch is chosen as Joi chooses it. */
interface ConditionalKey {
  sibling: string;
  matches: (sibling: unknown) => boolean;
  then: KeyCheck;
  otherwise: KeyCheck;
}

function conditionalKey(description: Record<string, unknown>): ConditionalKey | Undecided {
  const whens = description.whens;
  if (!Array.isArray(whens) || whens.length !== 1) return UNDECIDED;
  const when: unknown = whens[0];
  if (!isRecord(when) || Object.keys(when).some((part) => !['ref', 'is', 'then', 'otherwise'].includes(part))) return UNDECIDED;
  const ref = when.ref;
  if (!isRecord(ref) || Object.keys(ref).length !== 1 || !Array.isArray(ref.path) || ref.path.length !== 1) return UNDECIDED;
  const sibling: unknown = ref.path[0];
  const is = parseNode(when.is);
  if (typeof sibling !== 'string' || is === UNDECIDED || is.type !== 'any' || is.flags.only !== true || is.rules.length > 0) return UNDECIDED;
  if (Object.keys(is.raw).some((part) => !['type', 'flags', 'allow'].includes(part))) return UNDECIDED;
  if (Object.keys(is.flags).some((flag) => flag !== 'only' && flag !== 'presence')) return UNDECIDED;
  const values = new Set<unknown>(is.allow);
  const isRequired = is.flags.presence === 'required';
  // An optional condition matches an absent sibling, as Joi's does.
  const matches = (value: unknown) => (value === undefined ? !isRequired : values.has(value));

  const { whens: _conditions, ...unconditional } = description;
  const base = Joi.build(unconditional);
  const branch = (part: unknown) => (part === undefined ? base : base.concat(Joi.build(part)));
  const then = keyCheckOf(branch(when.then).describe());
  const otherwise = keyCheckOf(branch(when.otherwise).describe());
  if (then === UNDECIDED || otherwise === UNDECIDED) return UNDECIDED;
  return { sibling, matches, then, otherwise };
}

type Dependency = (value: Record<string, unknown>) => boolean;

function dependencyOf(description: unknown): Dependency | undefined {
  if (!isRecord(description) || !Array.isArray(description.peers) || !description.peers.every((p) => typeof p === 'string')) return undefined;
  const peers: string[] = description.peers;
  const key = description.key;
  if (Object.keys(description).some((part) => !['rel', 'peers', 'key'].includes(part))) return undefined;
  if ([...peers, key].some((name) => typeof name === 'string' && name.includes('.'))) return undefined;
  const count = (value: Record<string, unknown>) => peers.filter((peer) => value[peer] !== undefined).length;
  const keyPresent = (value: Record<string, unknown>) => typeof key === 'string' && value[key] !== undefined;
  switch (description.rel) {
    case 'and':
      return (value) => count(value) === 0 || count(value) === peers.length;
    case 'nand':
      return (value) => count(value) < peers.length;
    case 'or':
      return (value) => count(value) > 0;
    case 'xor':
      return (value) => count(value) === 1;
    case 'oxor':
      return (value) => count(value) <= 1;
    case 'with':
      return typeof key === 'string' ? (value) => !keyPresent(value) || count(value) === peers.length : undefined;
    case 'without':
      return typeof key === 'string' ? (value) => !keyPresent(value) || count(value) === 0 : undefined;
    default:
      return undefined;
  }
}

/** Unknown keys named by a pattern: the key must certainly match it, and its value is checked by the pattern's rule. */
function patternCheck(patterns: unknown): { key: (name: string) => boolean | Undecided; value: Check } | undefined | Undecided {
  if (patterns === undefined) return undefined;
  if (!Array.isArray(patterns) || patterns.length !== 1) return UNDECIDED;
  const pattern: unknown = patterns[0];
  if (!isRecord(pattern) || Object.keys(pattern).some((part) => !['schema', 'regex', 'rule'].includes(part))) return UNDECIDED;
  const value = compileValue(pattern.rule);
  if (pattern.regex !== undefined) {
    const regex = regexOf(pattern.regex);
    return regex ? { key: (name) => regex.test(name), value } : UNDECIDED;
  }
  // A key Joi might accept only after converting it is not vouched for either way.
  const keySchema = compileValue(pattern.schema);
  return { key: (name) => (keySchema(name) === name ? true : UNDECIDED), value };
}

/**
 * A copy of an object to answer with changes: a fresh object, copied key by key. A spread of a
 * parsed query string (fast-querystring's objects have no prototype, which V8 keeps as a
 * dictionary) is a dictionary too, and every later store into it a call into V8's runtime. Never
 * given an own `__proto__` key (objectCheck leaves those to Joi), which assigning would turn into a prototype.
 */
function copyOf(value: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(value)) copy[name] = value[name];
  return copy;
}

function objectCheck(node: Node): Check | undefined {
  if (node.rules.length > 0) return undefined;
  const described = node.raw.keys;
  if (described !== undefined && !isRecord(described)) return undefined;
  const keys = new Map<string, KeyCheck | ConditionalKey>();
  for (const [name, description] of Object.entries(described ?? {})) {
    const key = isRecord(description) && description.whens !== undefined ? conditionalKey(description) : keyCheckOf(description);
    if (key === UNDECIDED) return undefined;
    keys.set(name, key);
  }
  const pattern = patternCheck(node.raw.patterns);
  if (pattern === UNDECIDED) return undefined;
  const dependencies: Dependency[] = [];
  for (const description of Array.isArray(node.raw.dependencies) ? node.raw.dependencies : node.raw.dependencies === undefined ? [] : [null]) {
    const dependency = dependencyOf(description);
    if (!dependency) return undefined;
    dependencies.push(dependency);
  }
  // Joi.object() without keys or patterns takes any key; otherwise only with unknown(true).
  const anyKey = (described === undefined && pattern === undefined) || node.flags.unknown === true;

  // Only these can change the answer when absent: required keys, defaults, and conditions (which may
  // require). Any other key may simply be missing, so objects with many optional keys skip them.
  const mattersWhenAbsent = [...keys].filter(([, key]) => 'sibling' in key || key.required || key.fallback !== undefined);

  const resolve = (key: KeyCheck | ConditionalKey, value: Record<string, unknown>): KeyCheck | Undecided => {
    if (!('sibling' in key)) return key;
    const sibling = value[key.sibling];
    const siblingKey = keys.get(key.sibling);
    // An absent sibling with a default (or a condition of its own) reads differently depending on key order.
    if (sibling === undefined && siblingKey && ('sibling' in siblingKey || siblingKey.fallback !== undefined)) return UNDECIDED;
    return key.matches(sibling) ? key.then : key.otherwise;
  };

  return (value) => {
    if (!isPlainObject(value)) return UNDECIDED;
    let result: Record<string, unknown> | undefined;
    for (const name of Object.keys(value)) {
      // Joi's answer drops an own `__proto__` key (JSON.parse makes one): Joi's to judge.
      if (name === '__proto__') return UNDECIDED;
      const item = value[name];
      if (item === undefined) return UNDECIDED;
      const key = keys.get(name);
      let checked: unknown;
      if (key) {
        const resolved = resolve(key, value);
        if (resolved === UNDECIDED) return UNDECIDED;
        checked = resolved.check(item);
      } else if (pattern) {
        const matched = pattern.key(name);
        if (matched === UNDECIDED) return UNDECIDED;
        checked = matched ? pattern.value(item) : anyKey ? item : UNDECIDED;
      } else {
        checked = anyKey ? item : UNDECIDED;
      }
      if (checked === UNDECIDED) return UNDECIDED;
      if (checked !== item) (result ??= copyOf(value))[name] = checked;
    }
    for (const [name, key] of mattersWhenAbsent) {
      if (value[name] !== undefined) continue;
      const resolved = resolve(key, value);
      if (resolved === UNDECIDED || resolved.required) return UNDECIDED;
      // Joi hands each validation its own copy of a default list.
      const fallback = resolved.fallback;
      if (fallback !== undefined) (result ??= copyOf(value))[name] = Array.isArray(fallback) ? [...fallback] : fallback;
    }
    const answer = result ?? value;
    return dependencies.every((dependency) => dependency(answer)) ? answer : UNDECIDED;
  };
}

function uniqueTest(rule: Rule): ((items: unknown[]) => boolean) | undefined {
  const comparator = rule.args.comparator;
  const options = rule.args.options ?? {};
  if (!isRecord(options) || Object.keys(options).some((key) => key !== 'ignoreUndefined')) return undefined;
  if (comparator !== undefined && (typeof comparator !== 'string' || comparator.includes('.'))) return undefined;
  const ignoreUndefined = options.ignoreUndefined === true;
  return (items) => {
    const seen = new Set<unknown>();
    for (const item of items) {
      const compared = comparator === undefined ? item : isPlainObject(item) ? item[comparator] : UNDECIDED;
      // Joi compares objects deeply; that is left to it.
      if (compared === UNDECIDED || (typeof compared === 'object' && compared !== null)) return false;
      if (compared === undefined && ignoreUndefined) continue;
      if (seen.has(compared)) return false;
      seen.add(compared);
    }
    return true;
  };
}

function arrayRule(rule: Rule): ((items: unknown[]) => boolean) | undefined {
  const limit = numberArg(rule, 'limit');
  switch (rule.name) {
    case 'min':
      return limit === undefined ? undefined : (items) => items.length >= limit;
    case 'max':
      return limit === undefined ? undefined : (items) => items.length <= limit;
    case 'length':
      return limit === undefined ? undefined : (items) => items.length === limit;
    case 'unique':
      return uniqueTest(rule);
    default:
      return undefined;
  }
}

function arrayCheck(node: Node): Check | undefined {
  const tests = testsOf(node.rules, arrayRule);
  if (!tests) return undefined;
  const items = node.raw.items ?? [];
  if (!Array.isArray(items) || items.length > 1) return undefined;
  const described: unknown = items[0];
  const itemNode = described === undefined ? undefined : parseNode(described);
  // A required or forbidden item schema means "must contain" or "must not contain": Joi's to judge.
  if (itemNode === UNDECIDED || (itemNode && itemNode.flags.presence !== undefined)) return undefined;
  const item = described === undefined ? undefined : compileValue(described);
  return (value) => {
    if (!Array.isArray(value)) return UNDECIDED;
    let result: unknown[] | undefined;
    if (item) {
      for (let i = 0; i < value.length; i++) {
        const entry: unknown = value[i];
        const checked = item(entry);
        if (checked === UNDECIDED) return UNDECIDED;
        if (checked !== entry) (result ??= [...value])[i] = checked;
      }
    }
    const answer = result ?? value;
    return tests.every((test) => test(answer)) ? answer : UNDECIDED;
  };
}

/** Joi tries alternatives in order and answers the first match; only the first one is vouched for. */
function alternativesCheck(node: Node): Check | undefined {
  const matches = node.raw.matches;
  if (node.rules.length > 0 || !Array.isArray(matches) || matches.length === 0) return undefined;
  const first: unknown = matches[0];
  if (!isRecord(first) || Object.keys(first).length !== 1 || first.schema === undefined) return undefined;
  return compileValue(first.schema);
}
