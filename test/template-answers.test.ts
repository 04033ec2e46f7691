import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_LENGTH, resolveAnswers } from '../src/documents/creating/template-answers.js';
import type { Answer } from '../src/documents/schemas.js';
import { createTemplateSchema, type Question, type QuestionType, type TemplateBody } from '../src/templates/schemas.js';
import { sampleTemplate } from './support/fixtures.js';

function question(name: string, type: QuestionType, extra: Partial<Question> = {}): Question {
  return { name, type, description: name, ...extra };
}

function template(config: Question[], extra: Partial<TemplateBody> = {}): TemplateBody {
  return { config, sign: [], signatureProfile: [], preBuild: false, ...extra };
}

/** The fixture template as the service stores it, checked by the create schema (no cast). */
function sample(): TemplateBody {
  const { value, error } = createTemplateSchema.validate(sampleTemplate());
  if (error) throw error;
  return value;
}

const answers = (...pairs: [string, string][]): Answer[] => pairs.map(([key, value]) => ({ key, value }));

const options = (...values: string[]) => values.map((value) => ({ name: value.toUpperCase(), value }));

const PNG = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]).toString('base64')}`;
const JPEG = `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]).toString('base64')}`;

/** The sample's required answers, so a test can add or change one. */
const SAMPLE_REQUIRED: [string, string][] = [
  ['buyer_name', 'Juan Pérez'],
  ['buyer_email', 'juan@example.com'],
  ['seller_name', 'Ana Gómez'],
  ['seller_email', 'ana@example.com'],
  ['price', '50000'],
];

describe('the sample template resolves to the answers the document is filled with', () => {
  it('answers plus the clausula default', () => {
    expect(resolveAnswers(sample(), answers(...SAMPLE_REQUIRED, ['buyer_phone', '+573001234567']))).toEqual({
      ok: true,
      answers: {
        buyer_name: 'Juan Pérez',
        buyer_email: 'juan@example.com',
        buyer_phone: '+573001234567',
        seller_name: 'Ana Gómez',
        seller_email: 'ana@example.com',
        price: '50000',
        payment: 'cash',
      },
    });
  });

  it('choosing instalments asks the number of instalments', () => {
    const result = resolveAnswers(sample(), answers(...SAMPLE_REQUIRED, ['payment', 'instalments'], ['instalments', '3']));
    expect(result).toEqual({
      ok: true,
      answers: {
        buyer_name: 'Juan Pérez',
        buyer_email: 'juan@example.com',
        seller_name: 'Ana Gómez',
        seller_email: 'ana@example.com',
        price: '50000',
        payment: 'instalments',
        instalments: '3',
      },
    });
  });
});

describe('a key that names no question of config is refused', () => {
  const body = template([question('price', 'number'), question('notes', 'text')], {
    preFill: [{ name: 'country', value: 'CO' }],
  });

  it.each([
    ['an unknown key', 'ghost'],
    ['a key that differs only in case', 'Price'],
    ['a preFill entry (its value is fixed by the template)', 'country'],
    ['the reserved signDate', 'signDate'],
    ['an empty key', ''],
  ])('%s: %s', (_case, key) => {
    expect(resolveAnswers(body, answers([key, 'x']))).toEqual({ ok: false, message: `"${key}" is not a question of the template` });
  });

  it('even after valid answers', () => {
    expect(resolveAnswers(body, answers(['price', '5'], ['ghost', 'x']))).toEqual({
      ok: false,
      message: '"ghost" is not a question of the template',
    });
  });
});

describe('a key answered twice is refused', () => {
  const body = template([question('price', 'number'), question('notes', 'text')]);

  it.each([
    ['the same value twice', answers(['notes', 'a'], ['notes', 'a'])],
    ['two different values', answers(['notes', 'a'], ['price', '5'], ['notes', 'b'])],
    ['an empty answer then a value', answers(['notes', ''], ['notes', 'b'])],
  ])('%s', (_case, data) => {
    expect(resolveAnswers(body, data)).toEqual({ ok: false, message: '"data" contains a duplicate answer for "notes"' });
  });

  it('first failure wins: an unknown key before the duplicate is reported instead', () => {
    expect(resolveAnswers(body, answers(['ghost', 'x'], ['notes', 'a'], ['notes', 'b']))).toEqual({
      ok: false,
      message: '"ghost" is not a question of the template',
    });
  });
});

describe('answers start from preFill values, then clausula/select/searchlist defaults, then the given answers', () => {
  const body = template(
    [
      question('kind', 'clausula', { value: 'sale', options: options('sale', 'lease') }),
      question('city', 'select', { value: 'bog', options: options('bog', 'med') }),
      question('bank', 'searchlist', { value: 'b1', options: options('b1', 'b2') }),
      question('notes', 'text', { value: 'not a default for text' }),
      question('color', 'clausula', { options: options('red', 'blue') }),
    ],
    {
      preFill: [
        { name: 'country', value: 'CO' },
        { name: 'empty', value: '' },
      ],
    },
  );

  it.each<[string, Answer[], Record<string, string>]>([
    ['nothing answered: preFill and defaults', [], { country: 'CO', empty: '', kind: 'sale', city: 'bog', bank: 'b1' }],
    [
      'answers replace the defaults',
      answers(['kind', 'lease'], ['city', 'med'], ['bank', 'b2']),
      { country: 'CO', empty: '', kind: 'lease', city: 'med', bank: 'b2' },
    ],
    [
      'a clausula without default is absent until answered',
      answers(['color', 'blue']),
      { country: 'CO', empty: '', kind: 'sale', city: 'bog', bank: 'b1', color: 'blue' },
    ],
    [
      'an empty answer replaces the default (nothing chosen)',
      answers(['kind', ''], ['notes', '']),
      { country: 'CO', empty: '', kind: '', city: 'bog', bank: 'b1', notes: '' },
    ],
  ])('%s', (_case, data, expected) => {
    expect(resolveAnswers(body, data)).toEqual({ ok: true, answers: expected });
  });

  it('a question that is also a preFill entry starts from the preFill value and can be answered', () => {
    const both = template([question('country', 'text')], { preFill: [{ name: 'country', value: 'CO' }] });
    expect(resolveAnswers(both, [])).toEqual({ ok: true, answers: { country: 'CO' } });
    expect(resolveAnswers(both, answers(['country', 'MX']))).toEqual({ ok: true, answers: { country: 'MX' } });
  });
});

describe('a question applies only when EVERY {k, v} of its prereq matches (AND)', () => {
  const body = template([
    question('payment', 'clausula', { value: 'cash', options: options('cash', 'card') }),
    question('delivery', 'clausula', { value: 'pickup', options: options('pickup', 'home') }),
    question('card_home', 'text', {
      prereq: [
        { k: 'payment', v: 'card' },
        { k: 'delivery', v: 'home' },
      ],
    }),
  ]);

  it.each<[string, Answer[], boolean]>([
    ['both defaults: no match', [], false],
    ['only the first matches', answers(['payment', 'card']), false],
    ['only the second matches', answers(['delivery', 'home']), false],
    ['both match', answers(['payment', 'card'], ['delivery', 'home']), true],
  ])('%s → applies: %s', (_case, data, applies) => {
    const result = resolveAnswers(body, [...data, { key: 'card_home', value: 'x' }]);
    expect(result.ok && 'card_home' in result.answers).toBe(applies);
  });

  it('a default counts as the current value of the source', () => {
    const byDefault = template([
      question('payment', 'clausula', { value: 'card', options: options('cash', 'card') }),
      question('card_number', 'text', { prereq: [{ k: 'payment', v: 'card' }] }),
    ]);
    expect(resolveAnswers(byDefault, answers(['card_number', '4111']))).toEqual({
      ok: true,
      answers: { payment: 'card', card_number: '4111' },
    });
  });
});

describe('with prereqOptionals a question applies when ANY listed {q}_{v} matches (OR)', () => {
  const body = template([
    question('pay_method', 'clausula', { value: 'cash', options: options('cash', 'credit_card', 'bank_transfer') }),
    question('reference', 'text', {
      prereq: [{ k: 'pay_method', v: 'credit_card' }],
      prereqOptionals: ['pay_method_credit_card', 'pay_method_bank_transfer'],
    }),
  ]);

  it.each<[string, string | undefined, boolean]>([
    ['the default is not listed', undefined, false],
    ['the first listed value (names and values with underscores)', 'credit_card', true],
    ['the second listed value', 'bank_transfer', true],
    ['a value not listed', 'cash', false],
  ])('%s → applies: %s', (_case, method, applies) => {
    const data = method === undefined ? answers(['reference', 'R1']) : answers(['pay_method', method], ['reference', 'R1']);
    const result = resolveAnswers(body, data);
    expect(result.ok && result.answers.reference === 'R1').toBe(applies);
  });

  it('any of several clausulas can match', () => {
    const two = template([
      question('a', 'clausula', { value: 'no', options: options('yes', 'no') }),
      question('b', 'clausula', { value: 'no', options: options('yes', 'no') }),
      question('either', 'text', { prereq: [{ k: 'a', v: 'yes' }], prereqOptionals: ['a_yes', 'b_yes'] }),
    ]);
    expect(resolveAnswers(two, answers(['b', 'yes'], ['either', 'x']))).toEqual({
      ok: true,
      answers: { a: 'no', b: 'yes', either: 'x' },
    });
    expect(resolveAnswers(two, answers(['either', 'x']))).toEqual({ ok: true, answers: { a: 'no', b: 'no' } });
  });
});

describe('a question whose prereq source is itself not applicable counts as not applicable (chains)', () => {
  const body = template([
    question('has_guarantor', 'clausula', { value: 'no', options: options('yes', 'no') }),
    question('guarantor_kind', 'clausula', {
      value: 'person',
      options: options('person', 'company'),
      prereq: [{ k: 'has_guarantor', v: 'yes' }],
    }),
    question('guarantor_nit', 'nit', { prereq: [{ k: 'guarantor_kind', v: 'person' }] }),
    question('company_nit', 'nit', {
      prereq: [{ k: 'has_guarantor', v: 'no' }],
      prereqOptionals: ['guarantor_kind_company'],
    }),
  ]);

  it.each<[string, Answer[], Record<string, string>]>([
    ['the head of the chain says no: the middle default does not count, the tail is dropped', answers(['guarantor_nit', '900123']), { has_guarantor: 'no' }],
    [
      'the head says yes: the middle default applies and so does the tail',
      answers(['has_guarantor', 'yes'], ['guarantor_nit', '900123']),
      { has_guarantor: 'yes', guarantor_kind: 'person', guarantor_nit: '900123' },
    ],
    [
      'the middle answered company: the tail on person is dropped',
      answers(['has_guarantor', 'yes'], ['guarantor_kind', 'company'], ['guarantor_nit', '900123']),
      { has_guarantor: 'yes', guarantor_kind: 'company' },
    ],
    ['an OR source that is not applicable does not match', answers(['guarantor_kind', 'company'], ['company_nit', '800']), { has_guarantor: 'no' }],
    [
      'an OR source that applies matches',
      answers(['has_guarantor', 'yes'], ['guarantor_kind', 'company'], ['company_nit', '800']),
      { has_guarantor: 'yes', guarantor_kind: 'company', company_nit: '800' },
    ],
  ])('%s', (_case, data, expected) => {
    expect(resolveAnswers(body, data)).toEqual({ ok: true, answers: expected });
  });

  it('a source later in config is evaluated all the same', () => {
    const forward = template([
      question('detail', 'text', { prereq: [{ k: 'more', v: 'yes' }] }),
      question('more', 'clausula', { value: 'yes', options: options('yes', 'no') }),
    ]);
    expect(resolveAnswers(forward, answers(['detail', 'd']))).toEqual({ ok: true, answers: { detail: 'd', more: 'yes' } });
  });

  it('questions that depend on each other in a cycle never apply (and do not loop)', () => {
    const cycle = template([
      question('a', 'clausula', { value: 'x', options: options('x'), prereq: [{ k: 'b', v: 'x' }] }),
      question('b', 'clausula', { value: 'x', options: options('x'), prereq: [{ k: 'a', v: 'x' }] }),
      question('c', 'text'),
    ]);
    expect(resolveAnswers(cycle, answers(['a', 'x'], ['c', 'ok']))).toEqual({ ok: true, answers: { c: 'ok' } });
  });

  it('a source that is not a clausula never matches', () => {
    const notClausula = template([
      question('kind', 'select', { value: 'a', options: options('a', 'b') }),
      question('detail', 'text', { prereq: [{ k: 'kind', v: 'a' }] }),
      question('ghost_dependent', 'text', { prereq: [{ k: 'ghost', v: 'a' }] }),
    ]);
    expect(resolveAnswers(notClausula, answers(['detail', 'd'], ['ghost_dependent', 'g']))).toEqual({
      ok: true,
      answers: { kind: 'a' },
    });
  });
});

describe('answers given for questions that do not apply are dropped silently', () => {
  const body = template(
    [
      question('payment', 'clausula', { value: 'cash', options: options('cash', 'instalments') }),
      question('instalments', 'number', { prereq: [{ k: 'payment', v: 'instalments' }], max: 12 }),
      question('plan', 'select', { value: 'basic', options: options('basic'), prereq: [{ k: 'payment', v: 'instalments' }] }),
    ],
    { sign: ['instalments'] },
  );

  it.each<[string, string]>([
    ['a valid answer', '3'],
    ['an answer that would fail its type check', 'three'],
    ['an answer that would break its max', '99'],
    ['an empty answer to a required question', ''],
  ])('%s is not an error and is not kept', (_case, value) => {
    expect(resolveAnswers(body, answers(['instalments', value]))).toEqual({ ok: true, answers: { payment: 'cash' } });
  });

  it('the default of a question that does not apply is dropped too', () => {
    expect(resolveAnswers(body, [])).toEqual({ ok: true, answers: { payment: 'cash' } });
  });

  it('a required question that does not apply is not required', () => {
    expect(resolveAnswers(body, answers(['payment', 'cash']))).toEqual({ ok: true, answers: { payment: 'cash' } });
    expect(resolveAnswers(body, answers(['payment', 'instalments']))).toEqual({ ok: false, message: '"instalments" is required' });
  });
});

describe('every applicable question named in sign must have a non-empty value', () => {
  const body = template(
    [
      question('name', 'name'),
      question('kind', 'clausula', { value: 'a', options: options('a', 'b') }),
      question('color', 'clausula', { options: options('red') }),
      question('photo', 'image'),
      question('signature', 'signature'),
      question('optional', 'text'),
    ],
    { sign: ['name', 'kind', 'photo', 'signature'] },
  );

  it.each<[string, Answer[], string]>([
    ['never answered', [], '"name" is required'],
    ['answered with an empty string', answers(['name', '']), '"name" is required'],
    ['a clausula emptied by the answer', answers(['name', 'x'], ['kind', '']), '"kind" is required'],
  ])('%s → %s', (_case, data, message) => {
    expect(resolveAnswers(body, data)).toEqual({ ok: false, message });
  });

  it('a default satisfies it', () => {
    expect(resolveAnswers(body, answers(['name', 'x']))).toEqual({ ok: true, answers: { name: 'x', kind: 'a' } });
  });

  it('a clausula without default in sign must be answered', () => {
    const withColor = { ...body, sign: ['color'] };
    expect(resolveAnswers(withColor, [])).toEqual({ ok: false, message: '"color" is required' });
    expect(resolveAnswers(withColor, answers(['color', 'red']))).toEqual({ ok: true, answers: { kind: 'a', color: 'red' } });
  });

  it('signature and image questions are answered by the signer later, never required here', () => {
    expect(resolveAnswers(body, answers(['name', 'x'])).ok).toBe(true);
  });

  it('first failure wins in config order', () => {
    const two = template([question('first', 'text'), question('second', 'email')], { sign: ['first', 'second'] });
    expect(resolveAnswers(two, answers(['second', 'bad']))).toEqual({ ok: false, message: '"first" is required' });
    expect(resolveAnswers(two, answers(['first', 'x'], ['second', 'bad']))).toEqual({
      ok: false,
      message: '"second" must be a valid email',
    });
  });
});

describe('a signature answer is refused', () => {
  const body = template([question('signature', 'signature', { allow: ['draw'] }), question('photo', 'image')]);

  it.each([
    ['a drawn signature', PNG],
    ['a typed signature', 'Juan Pérez'],
    ['an empty value', ''],
  ])('%s', (_case, value) => {
    expect(resolveAnswers(body, answers(['signature', value]))).toEqual({
      ok: false,
      message: '"signature" is signed by the signer, not answered',
    });
  });
});

describe('an image answer must be a PNG or JPEG data URI of at most 8 MB of base64', () => {
  const body = template([question('photo', 'image')]);

  it.each([
    ['a PNG', PNG],
    ['a JPEG', JPEG],
    ['a PNG with the media type in capitals', PNG.replace('image/png', 'IMAGE/PNG')],
  ])('accepts %s', (_case, value) => {
    expect(resolveAnswers(body, answers(['photo', value]))).toEqual({ ok: true, answers: { photo: value } });
  });

  it.each([
    ['a GIF', `data:image/gif;base64,${Buffer.from('GIF89a').toString('base64')}`],
    ['a URL', 'https://example.com/a.png'],
    ['plain text', 'photo'],
    ['a PNG that is not base64', 'data:image/png;base64,not*base64!'],
    ['a PNG whose base64 is cut short', PNG.slice(0, -1)],
    ['a PNG declared but JPEG bytes', JPEG.replace('image/jpeg', 'image/png')],
    ['a JPEG declared but PNG bytes', PNG.replace('image/png', 'image/jpeg')],
    ['a data URI without base64', 'data:image/png,abc'],
    ['an SVG', `data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}`],
  ])('refuses %s', (_case, value) => {
    expect(resolveAnswers(body, answers(['photo', value]))).toEqual({ ok: false, message: '"photo" must be a PNG or JPEG data URI' });
  });

  it('an image is limited to 8 MB of base64, not to 10 000 characters', () => {
    const large = PNG + 'A'.repeat(20_000 - ((PNG.length - 22) % 4));
    expect(resolveAnswers(body, answers(['photo', large]))).toEqual({ ok: true, answers: { photo: large } });
    const tooLarge = PNG + 'A'.repeat(MAX_IMAGE_LENGTH);
    expect(resolveAnswers(body, answers(['photo', tooLarge]))).toEqual({
      ok: false,
      message: '"photo" length must be less than or equal to 8388608 characters long',
    });
  });
});

describe('clausula/select/searchlist: the value must be one of the options values', () => {
  const body = template([
    question('kind', 'clausula', { options: options('sale', 'lease', 'gift') }),
    question('city', 'select', { options: options('bog', 'med') }),
    question('bank', 'searchlist', { options: options('b1') }),
  ]);

  it.each([
    ['kind', 'rent', '"kind" must be one of [sale, lease, gift]'],
    ['kind', 'SALE', '"kind" must be one of [sale, lease, gift]'],
    ['city', 'BOG', '"city" must be one of [bog, med]'],
    ['bank', 'b2', '"bank" must be [b1]'],
  ])('%s = %s → %s', (key, value, message) => {
    expect(resolveAnswers(body, answers([key, value]))).toEqual({ ok: false, message });
  });

  it('an option value is accepted as is', () => {
    expect(resolveAnswers(body, answers(['kind', 'lease'], ['city', 'med'], ['bank', 'b1']))).toEqual({
      ok: true,
      answers: { kind: 'lease', city: 'med', bank: 'b1' },
    });
  });
});

describe('check: a comma-separated list of entries of values, stored as "a, b"', () => {
  const body = template([question('extras', 'check', { values: ['wifi', 'parking', 'pool'] })]);

  it.each([
    ['one entry', 'wifi', 'wifi'],
    ['entries without spaces', 'wifi,pool', 'wifi, pool'],
    ['entries with spaces around them', '  parking ,wifi  ', 'parking, wifi'],
    ['a repeated entry is kept once', 'wifi, wifi, pool', 'wifi, pool'],
  ])('%s: %s → %s', (_case, value, stored) => {
    expect(resolveAnswers(body, answers(['extras', value]))).toEqual({ ok: true, answers: { extras: stored } });
  });

  it.each([
    ['an entry not in values', 'wifi, gym'],
    ['an empty entry', 'wifi,,pool'],
    ['a trailing comma', 'wifi,'],
    ['a different case', 'WiFi'],
  ])('refuses %s', (_case, value) => {
    expect(resolveAnswers(body, answers(['extras', value]))).toEqual({
      ok: false,
      message: '"extras" must be one of [wifi, parking, pool]',
    });
  });
});

describe('email: must be a valid email, stored lowercase', () => {
  const body = template([question('email', 'email')]);

  it.each([
    ['juan@example.com', 'juan@example.com'],
    ['Juan.Perez@Example.CO', 'juan.perez@example.co'],
    ['ana+tag@sub.example.notarealtld', 'ana+tag@sub.example.notarealtld'],
  ])('%s → %s', (value, stored) => {
    expect(resolveAnswers(body, answers(['email', value]))).toEqual({ ok: true, answers: { email: stored } });
  });

  it.each(['juan', 'juan@', '@example.com', 'juan@example', 'juan @example.com', 'juan@example.com '])('refuses %j', (value) => {
    expect(resolveAnswers(body, answers(['email', value]))).toEqual({ ok: false, message: '"email" must be a valid email' });
  });
});

describe('phone: must be a valid phone number in the format +[country code][number]', () => {
  const body = template([question('phone', 'phone')]);

  it.each(['+573001234567', '+14155552671'])('accepts %s', (value) => {
    expect(resolveAnswers(body, answers(['phone', value]))).toEqual({ ok: true, answers: { phone: value } });
  });

  it.each(['3001234567', '+57 300 123 4567', '+573991234567', 'phone'])('refuses %s', (value) => {
    expect(resolveAnswers(body, answers(['phone', value]))).toEqual({
      ok: false,
      message: '"phone" must be a valid phone number in the format +[country code][number]',
    });
  });
});

describe('number and currency: digits with an optional decimal point, within min and max when numeric', () => {
  const body = template([
    question('amount', 'number', { min: 5, max: 9 }),
    question('price', 'currency', { min: '1000', max: '2000.5' }),
    question('free', 'number', { min: 'now', max: 'later' }),
    question('negative', 'number'),
  ]);

  it.each([
    ['amount', '5'],
    ['amount', '9'],
    ['amount', '7.25'],
    ['price', '1000'],
    ['price', '2000.5'],
    ['free', '123456789'],
    ['negative', '-3.5'],
  ])('%s = %s is accepted as is', (key, value) => {
    expect(resolveAnswers(body, answers([key, value]))).toEqual({ ok: true, answers: { [key]: value } });
  });

  it.each([
    ['amount', '1,5', '"amount" must be a number'],
    ['amount', '1.', '"amount" must be a number'],
    ['amount', '.5', '"amount" must be a number'],
    ['amount', '$7', '"amount" must be a number'],
    ['amount', '7 ', '"amount" must be a number'],
    ['amount', '1e3', '"amount" must be a number'],
    ['price', '1.500.000', '"price" must be a number'],
    ['amount', '4.99', '"amount" must be greater than or equal to 5'],
    ['amount', '-6', '"amount" must be greater than or equal to 5'],
    ['amount', '9.01', '"amount" must be less than or equal to 9'],
    ['price', '999', '"price" must be greater than or equal to 1000'],
    ['price', '2001', '"price" must be less than or equal to 2000.5'],
  ])('%s = %s → %s', (key, value, message) => {
    expect(resolveAnswers(body, answers([key, value]))).toEqual({ ok: false, message });
  });
});

describe('date: YYYY-MM-DD and a real calendar date', () => {
  const body = template([question('day', 'date')]);

  it.each(['2024-01-15', '2024-02-29', '2000-02-29', '1999-12-31'])('accepts %s', (value) => {
    expect(resolveAnswers(body, answers(['day', value]))).toEqual({ ok: true, answers: { day: value } });
  });

  it.each(['15/01/2024', '2024-1-15', '2024-13-01', '2024-00-10', '2024-04-31', '2023-02-29', '1900-02-29', '2024-01-15T00:00:00Z', 'today'])(
    'refuses %s',
    (value) => {
      expect(resolveAnswers(body, answers(['day', value]))).toEqual({ ok: false, message: '"day" must be in YYYY-MM-DD format' });
    },
  );
});

describe('nit: digits only', () => {
  const body = template([question('nit', 'nit')]);

  it('accepts digits', () => {
    expect(resolveAnswers(body, answers(['nit', '9001234567']))).toEqual({ ok: true, answers: { nit: '9001234567' } });
  });

  it.each(['900123456-7', '900.123.456', 'abc', ' 900'])('refuses %s', (value) => {
    expect(resolveAnswers(body, answers(['nit', value]))).toEqual({ ok: false, message: '"nit" must only contain digits' });
  });
});

describe('identification: "<TYPE> <number>"', () => {
  const body = template([question('id', 'identification')]);

  it.each(['CC 1084340519', 'PASSPORT AB123456', 'RUT 12345678-K'])('accepts %s', (value) => {
    expect(resolveAnswers(body, answers(['id', value]))).toEqual({ ok: true, answers: { id: value } });
  });

  it.each(['1084340519', 'CC', 'CC  1084340519', 'cc 1084340519', 'CC-1084340519', 'CC 108 434'])('refuses %j', (value) => {
    expect(resolveAnswers(body, answers(['id', value]))).toEqual({
      ok: false,
      message: '"id" must be a document type and a number, e.g. "CC 1084340519"',
    });
  });
});

describe('text-like types honour maxlength and regex', () => {
  const body = template([
    question('plate', 'text', { maxlength: 8, regex: '^[A-Z]{3}-\\d{3}$' }),
    question('short_name', 'name', { maxlength: 5 }),
    question('phone', 'phone', { maxlength: 12 }),
    question('path', 'text', { regex: '^a/b$' }),
    question('broken', 'text', { regex: '(' }),
    question('department', 'department', { regex: '^[A-Z]' }),
  ]);

  it.each<[string, string, string]>([
    ['plate', 'ABC-1234', '"plate" with value "ABC-1234" fails to match the required pattern: /^[A-Z]{3}-\\d{3}$/'],
    ['plate', 'ABC-12345', '"plate" length must be less than or equal to 8 characters long'],
    ['short_name', 'Juanito', '"short_name" length must be less than or equal to 5 characters long'],
    ['phone', '+573001234567', '"phone" length must be less than or equal to 12 characters long'],
    ['path', 'a-b', '"path" with value "a-b" fails to match the required pattern: /^a\\/b$/'],
    ['department', 'antioquia', '"department" with value "antioquia" fails to match the required pattern: /^[A-Z]/'],
  ])('%s = %s → %s', (key, value, message) => {
    expect(resolveAnswers(body, answers([key, value]))).toEqual({ ok: false, message });
  });

  it.each([
    ['plate', 'ABC-123'],
    ['short_name', 'Juan'],
    ['path', 'a/b'],
    ['broken', 'a regex that does not compile is not held against the answer'],
  ])('%s = %s is accepted', (key, value) => {
    expect(resolveAnswers(body, answers([key, value]))).toEqual({ ok: true, answers: { [key]: value } });
  });
});

describe('every value is limited to 10 000 characters', () => {
  const body = template([question('notes', 'text'), question('kind', 'select', { options: options('a') })]);

  it('10 000 characters are accepted', () => {
    const value = 'x'.repeat(10_000);
    expect(resolveAnswers(body, answers(['notes', value]))).toEqual({ ok: true, answers: { notes: value } });
  });

  it.each(['notes', 'kind'])('10 001 characters are refused (%s)', (key) => {
    expect(resolveAnswers(body, answers([key, 'x'.repeat(10_001)]))).toEqual({
      ok: false,
      message: `"${key}" length must be less than or equal to 10000 characters long`,
    });
  });
});

describe('the answers are a plain object and the inputs are never mutated', () => {
  it('same inputs before and after', () => {
    const body = sample();
    const data = answers(...SAMPLE_REQUIRED.filter(([key]) => key !== 'buyer_email'), ['buyer_email', 'JUAN@EXAMPLE.COM']);
    const bodyBefore = structuredClone(body);
    const dataBefore = structuredClone(data);
    const result = resolveAnswers(body, data);
    expect(result.ok && result.answers.buyer_email).toBe('juan@example.com');
    expect(body).toEqual(bodyBefore);
    expect(data).toEqual(dataBefore);
  });

  it('question names such as constructor are own keys of a plain object', () => {
    const body = template([question('constructor', 'text'), question('toString', 'text')]);
    const result = resolveAnswers(body, answers(['constructor', 'a'], ['toString', 'b']));
    expect(result).toEqual({ ok: true, answers: { constructor: 'a', toString: 'b' } });
    expect(result.ok && Object.getPrototypeOf(result.answers)).toBe(Object.prototype);
  });

  it.each<[string, TemplateBody, Answer[]]>([
    ['an empty template', template([]), []],
    ['a select without options', template([question('kind', 'select')]), answers(['kind', 'x'])],
    ['a check without values', template([question('extras', 'check')]), answers(['extras', 'x'])],
    ['a prereq that names nothing', template([question('a', 'text', { prereq: [{ k: 'ghost', v: 'x' }] })]), answers(['a', 'x'])],
    ['a question named __proto__', template([question('__proto__', 'text')]), answers(['__proto__', 'x'])],
  ])('does not throw for %s', (_case, body, data) => {
    expect(() => resolveAnswers(body, data)).not.toThrow();
  });
});
