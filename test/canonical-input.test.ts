import Joi from 'joi';
import { describe, expect, it } from 'vitest';
import * as documentSchemas from '../src/documents/schemas.js';
import { canonicalValue, UNDECIDED } from '../src/http/canonical-input.js';
import { noInput } from '../src/http/route.js';
import { isRecord } from '../src/is-record.js';
import * as referenceSchemas from '../src/references/schemas.js';
import * as templateSchemas from '../src/templates/schemas.js';
import { createTemplateSchema, listTemplatesQuery, updateTemplateSchema } from '../src/templates/schemas.js';
import * as verifaceSchemas from '../src/veriface/schemas.js';
import * as webhookSchemas from '../src/webhooks/schemas.js';
import { sampleTemplate } from './support/fixtures.js';

const ID = '0123456789abcdef01234567';

describe('Canonical input is answered without Joi, with the value Joi answers', () => {
  it('a whole template as the contract shows it comes back as it was sent', () => {
    const input = sampleTemplate();
    const answer = canonicalValue(createTemplateSchema, input);
    expect(answer).not.toBe(UNDECIDED);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(createTemplateSchema.validate(input).value));
  });

  it('defaults are added where Joi adds them, after the keys that were sent', () => {
    const { preBuild: _omitted, ...input } = sampleTemplate();
    const answer = canonicalValue(createTemplateSchema, input);
    expect(answer).toMatchObject({ preBuild: false });
    expect(JSON.stringify(answer)).toBe(JSON.stringify(createTemplateSchema.validate(input).value));
    expect(canonicalValue(listTemplatesQuery, { id: ID })).toEqual({ id: ID, limit: 100 });
  });

  it('a query string as Fastify parses it, on a prototype without properties, is answered too', () => {
    const query: Record<string, unknown> = Object.create(Object.create(null));
    query.id = ID;
    expect(canonicalValue(listTemplatesQuery, query)).toEqual({ id: ID, limit: 100 });
    query.limit = '20';
    expect(canonicalValue(listTemplatesQuery, query)).toBe(UNDECIDED);
  });

  it('a key required only when a sibling has some value is required exactly then', () => {
    const select = { name: 'city', type: 'select', description: 'City' };
    expect(canonicalValue(createTemplateSchema, sampleTemplate({ config: [select], sign: [], signatureProfile: [] }))).toBe(UNDECIDED);
    const text = { name: 'city', type: 'text', description: 'City' };
    expect(canonicalValue(createTemplateSchema, sampleTemplate({ config: [text], sign: [], signatureProfile: [] }))).not.toBe(UNDECIDED);
  });
});

describe('Rules whose grammar lives in Joi are checked by Joi on that one string', () => {
  const schema = Joi.object({
    e: Joi.string()
      .email({ tlds: { allow: false } })
      .max(320),
    u: Joi.string().uri({ scheme: ['https'] }),
  });

  it('an e-mail and a URL the rules accept are answered as sent', () => {
    const input = { e: 'ana@buyer.test', u: 'https://example.test/hook' };
    expect(canonicalValue(schema, input)).toBe(input);
  });

  it('ones they refuse, or would change, are left to Joi', () => {
    expect(canonicalValue(schema, { e: 'ana@' })).toBe(UNDECIDED);
    expect(canonicalValue(schema, { u: 'http://example.test/hook' })).toBe(UNDECIDED);
    expect(canonicalValue(Joi.object({ d: Joi.string().isoDate() }), { d: '2026-11-21' })).toBe(UNDECIDED);
  });
});

describe('A default list is given to each answer as a copy of its own, as Joi does', () => {
  it('two answers never share the list', () => {
    const schema = Joi.object({ tags: Joi.array().items(Joi.string()).default([]) });
    const first = canonicalValue(schema, {});
    const second = canonicalValue(schema, {});
    expect(first).toEqual({ tags: [] });
    expect(isRecord(first) && isRecord(second) && first.tags !== second.tags).toBe(true);
  });
});

describe('No input at all is answered only where Joi answers an empty default', () => {
  it("a route that takes no body, sent none (every GET and DELETE), gets Joi's empty object, a new one each time", () => {
    const first = canonicalValue(noInput, undefined);
    expect(first).toEqual(noInput.validate(undefined).value);
    expect(canonicalValue(noInput, undefined)).not.toBe(first);
  });

  it('a required body, one without a default, or one defaulting to something else, is left to Joi', () => {
    expect(canonicalValue(updateTemplateSchema, undefined)).toBe(UNDECIDED);
    expect(canonicalValue(Joi.object({}).default({}).required(), undefined)).toBe(UNDECIDED);
    expect(canonicalValue(Joi.object({ a: Joi.string() }).default({ a: 'x' }), undefined)).toBe(UNDECIDED);
    expect(canonicalValue(Joi.object({}).default(Joi.ref('$now')), undefined)).toBe(UNDECIDED);
  });
});

describe('Input Joi would convert or refuse is left to Joi', () => {
  it('an own __proto__ key of parsed JSON (Joi drops it) is left to Joi', () => {
    const schema = Joi.object({ a: Joi.string().default('x') }).unknown(true);
    const input: unknown = JSON.parse('{"__proto__": {"polluted": true}, "b": "y"}');
    expect(canonicalValue(schema, input)).toBe(UNDECIDED);
    expect(canonicalValue(schema, { b: 'y' })).toEqual({ b: 'y', a: 'x' });
  });

  const cases: [string, unknown][] = [
    ['a name with spaces around it (Joi trims it)', { id: ID, name: ' Contract ' }],
    ['an id in capitals (Joi lowers it)', { id: ID.toUpperCase() }],
    ['a number sent as a string (Joi converts it)', { id: ID, preBuild: 'true' }],
    ['an empty description', { id: ID, description: '' }],
    ['a description over 500 characters', { id: ID, description: 'x'.repeat(501) }],
    ['an unknown field', { id: ID, colour: 'blue' }],
    ['a missing id', { description: 'New' }],
    [
      'two questions with one name',
      {
        id: ID,
        config: [
          { name: 'a', type: 'text', description: 'A' },
          { name: 'a', type: 'text', description: 'B' },
        ],
      },
    ],
    ['a question of an unknown type', { id: ID, config: [{ name: 'a', type: 'colour', description: 'A' }] }],
    ['a field explicitly undefined', { id: ID, description: undefined }],
    ['no body at all', undefined],
    ['an array instead of an object', [{ id: ID }]],
    [
      'an object built by a class',
      new (class Body {
        id = ID;
        describe() {
          return 'not data';
        }
      })(),
    ],
  ];
  for (const [what, input] of cases) {
    it(what, () => expect(canonicalValue(updateTemplateSchema, input)).toBe(UNDECIDED));
  }

  it('minus zero, which Joi turns into zero', () => {
    expect(canonicalValue(Joi.object({ n: Joi.number() }), { n: -0 })).toBe(UNDECIDED);
    expect(canonicalValue(Joi.object({ n: Joi.number() }), { n: 0 })).toEqual({ n: 0 });
  });
});

describe('Schema features the fast path does not know leave that part to Joi', () => {
  const unsupported: [string, Joi.Schema, unknown][] = [
    ['a custom rule', Joi.object({ r: Joi.string().custom((value: string) => value.toUpperCase()) }), { r: 'a' }],
    ['a credit-card rule', Joi.object({ c: Joi.string().creditCard() }), { c: '4111111111111111' }],
    ['a default object (its description reads like a reference)', Joi.object({ o: Joi.object().default({ k: 1 }) }), {}],
    ['a date', Joi.object({ d: Joi.date() }), { d: '2026-01-01' }],
    ['a strict preference', Joi.object({ s: Joi.string() }).prefs({ convert: false }), { s: 'a' }],
    ['a rename', Joi.object({ a: Joi.string() }).rename('b', 'a'), { a: 'x' }],
    ['two item types', Joi.array().items(Joi.number(), Joi.string()), ['1']],
    ['a default computed by a function', Joi.object({ a: Joi.string().default(() => 'x') }), {}],
  ];
  it('a schema whose description cannot be read: the request still gets Joi', () => {
    const schema = Joi.object({ a: Joi.string() });
    schema.describe = () => {
      throw new Error('unreadable');
    };
    expect(canonicalValue(schema, { a: 'x' })).toBe(UNDECIDED);
    expect(schema.validate({ a: 'x' }).value).toEqual({ a: 'x' });
  });

  for (const [what, schema, input] of unsupported) {
    it(what, () => {
      expect(schema.validate(input).error).toBeUndefined();
      expect(canonicalValue(schema, input)).toBe(UNDECIDED);
    });
  }
});

/** A small seeded generator, so a failure names an input that can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    upTo: (n: number) => Math.floor(next() * (n + 1)),
  };
}

type Random = ReturnType<typeof random>;

const STRINGS = [
  'a',
  'abc',
  'buyer_name',
  'A_b-1',
  '',
  ' padded ',
  'UPPER',
  ID,
  ID.toUpperCase(),
  'https://example.test/hook',
  'é',
  '5',
  'true',
  'x'.repeat(600),
  'cash',
  'SIGNER',
  '+573001234567',
  'ana@buyer.test',
  '2026-12-31',
];
// biome-ignore lint/correctness/noPrecisionLoss: 2^53 + 1 is here to be rounded, as JSON parsing would
const NUMBERS = [0, -0, 1, 2.5, -3, 1e20, 24, 500, 501, 9007199254740993];

function anyPrimitive(rng: Random): unknown {
  return rng.pick([rng.pick(STRINGS), rng.pick(NUMBERS), true, false, null]);
}

/** Values shaped by a schema's description: mostly plausible, sometimes wrong in the ways integrators are. */
function generate(description: unknown, rng: Random, depth: number): unknown {
  if (!isRecord(description) || depth > 6 || rng.chance(0.04)) return anyPrimitive(rng);
  const allow = Array.isArray(description.allow) ? description.allow : [];
  if (allow.length > 0 && rng.chance(0.7)) return rng.pick(allow);
  switch (description.type) {
    case 'string':
      return rng.pick(STRINGS);
    case 'number':
      return rng.chance(0.1) ? String(rng.pick(NUMBERS)) : rng.pick(NUMBERS);
    case 'boolean':
      return rng.chance(0.1) ? 'false' : rng.chance(0.5);
    case 'array': {
      const items = Array.isArray(description.items) ? description.items : [];
      const length = rng.upTo(3);
      const values = Array.from({ length }, () => generate(items.length > 0 ? rng.pick(items) : undefined, rng, depth + 1));
      if (values.length > 0 && rng.chance(0.1)) values.push(values[0]);
      return values;
    }
    case 'object': {
      const keys = isRecord(description.keys) ? description.keys : {};
      const value: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(keys)) {
        const required = isRecord(child) && isRecord(child.flags) && child.flags.presence === 'required';
        if (rng.chance(required ? 0.95 : 0.5)) value[name] = generate(child, rng, depth + 1);
      }
      if (rng.chance(0.05)) value[rng.pick(STRINGS)] = anyPrimitive(rng);
      return value;
    }
    case 'alternatives': {
      const matches = Array.isArray(description.matches) ? description.matches : [];
      const match: unknown = matches.length > 0 ? rng.pick(matches) : undefined;
      return generate(isRecord(match) ? match.schema : undefined, rng, depth + 1);
    }
    default:
      return anyPrimitive(rng);
  }
}

/** Whether the fast path answered; when it did, Joi must accept the input and answer the same value. */
function agreesWithJoi(schema: Joi.Schema, input: unknown): boolean {
  const answer = canonicalValue(schema, input);
  if (answer === UNDECIDED) return false;
  const joi = schema.validate(input);
  expect({ input, error: joi.error?.message }).toEqual({ input, error: undefined });
  expect({ input, value: JSON.stringify(answer) }).toEqual({ input, value: JSON.stringify(joi.value) });
  return true;
}

const ALL_SCHEMAS: [string, Joi.Schema][] = Object.entries({
  ...templateSchemas,
  ...referenceSchemas,
  ...webhookSchemas,
  ...verifaceSchemas,
  ...documentSchemas,
}).flatMap(([name, value]: [string, unknown]): [string, Joi.Schema][] => (Joi.isSchema(value) ? [[name, value]] : []));

describe('Whatever the fast path answers, Joi accepts and answers the same', () => {
  it('covers the schemas the routes validate with', () => {
    expect(ALL_SCHEMAS.length).toBeGreaterThan(15);
  });

  it('every one of them, on 3,000 inputs generated from its description', () => {
    let answered = 0;
    for (const [name, schema] of ALL_SCHEMAS) {
      const rng = random(name.length * 7919);
      const description = schema.describe();
      for (let i = 0; i < 3000; i++) if (agreesWithJoi(schema, generate(description, rng, 0))) answered++;
    }
    // Schemas with rules the fast path leaves to Joi answer nothing; the others must answer plenty.
    expect(answered).toBeGreaterThan(5000);
  });
});

/** Every place in a value that a mutation can touch: the value itself, and each key or item under it. */
function places(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => places(item, [...at, i]))];
  if (isRecord(value)) return [...here, ...Object.entries(value).flatMap(([key, item]) => places(item, [...at, key]))];
  return here;
}

/** One change an integrator could make by mistake (or on purpose) somewhere in a valid body. */
function mutate(value: unknown, rng: Random): unknown {
  const copy: unknown = structuredClone(value);
  const path = rng.pick(places(copy));
  if (path.length === 0) return copy;
  let holder: unknown = copy;
  for (const step of path.slice(0, -1)) holder = isRecord(holder) ? holder[step] : Array.isArray(holder) ? holder[Number(step)] : undefined;
  const last = path[path.length - 1] ?? '';
  const container = holder;
  const current: unknown = isRecord(container) ? container[last] : Array.isArray(container) ? container[Number(last)] : undefined;
  const replacement = rng.pick([
    () => undefined,
    () => anyPrimitive(rng),
    () => (typeof current === 'string' ? ` ${current}` : current),
    () => (typeof current === 'string' ? current.toUpperCase() : current),
    () => (typeof current === 'number' || typeof current === 'boolean' ? String(current) : current),
    () => (Array.isArray(current) ? [...current, ...current.slice(0, 1)] : current),
    () => (Array.isArray(current) ? [] : current),
    () => (isRecord(current) ? { ...current, extra: 'x' } : current),
    () => (typeof current === 'number' ? -current : current),
  ])();
  if (Array.isArray(container)) {
    if (replacement === undefined) container.splice(Number(last), 1);
    else container[Number(last)] = replacement;
  } else if (isRecord(container)) {
    if (replacement === undefined) delete container[last];
    else container[last] = replacement;
  }
  return copy;
}

describe('Near a valid template, whatever the fast path answers, Joi accepts and answers the same', () => {
  const select = {
    name: 'city',
    type: 'select',
    description: 'City',
    options: [
      { name: 'Bogotá', value: 'bog' },
      { name: 'Cali', value: 'cal' },
    ],
  };
  const check = { name: 'terms', type: 'check', description: 'Terms', values: ['read', 'agreed'], maxlength: 20, min: 1, max: 9 };
  const seeds: [string, Joi.Schema, unknown][] = [
    ['create', createTemplateSchema, sampleTemplate({ config: [...(sampleTemplate().config as unknown[]), select, check], help: { city: 'Where' } })],
    ['update', updateTemplateSchema, { id: ID, name: 'Renamed', description: 'New', preFill: [{ name: 'price', value: '' }], preBuildData: ['price'] }],
    ['read', listTemplatesQuery, { id: ID, limit: 20 }],
    [
      'process from a template',
      documentSchemas.saveFromTemplateSchema,
      {
        email: 'owner@acme.test',
        name: 'Purchase',
        document: ID,
        data: [
          { key: 'price', value: '50000' },
          { key: 'note', value: '' },
        ],
        tags: ['sales'],
        signProfile: [
          { name: 'Ana Gómez', email: 'ana@buyer.test', role: 'SIGNER', order: 1, camera: true, options: { camera: 'photo' } },
          { name: 'Luis Pérez', email: 'luis@seller.test', otpCode: true },
        ],
      },
    ],
    ['webhook', webhookSchemas.createWebhookSchema, { name: 'erp', url: 'https://erp.example.com/hooks', description: 'ERP', enabled: false }],
  ];
  for (const [name, schema, seed] of seeds) {
    it(`${name}: 3,000 bodies one to three changes away from a valid one`, () => {
      const rng = random(1234);
      expect(canonicalValue(schema, seed)).not.toBe(UNDECIDED);
      let answered = 0;
      for (let i = 0; i < 3000; i++) {
        let input = seed;
        for (let changes = 1 + rng.upTo(2); changes > 0; changes--) input = mutate(input, rng);
        if (agreesWithJoi(schema, input)) answered++;
      }
      // Most changes make the body one Joi converts or refuses; enough must remain for the comparison to mean something.
      expect(answered).toBeGreaterThan(300);
    });
  }
});
