import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUESTION_TYPES } from '../src/templates/schemas.js';
import { sampleTemplate } from './support/fixtures.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';

type Body = Record<string, unknown>;
type Question = Record<string, unknown>;

function withQuestions(...extra: Question[]): Body {
  const base = sampleTemplate();
  return { ...base, config: [...(base.config as Question[]), ...extra] };
}

const invalid: [rule: string, body: Body, message: string | RegExp][] = [
  ['question names are unique', withQuestions({ name: 'buyer_name', type: 'text', description: 'Again' }), '"config[8]" contains a duplicate value'],
  [
    'type is one of the known list',
    withQuestions({ name: 'x', type: 'colour', description: 'Colour' }),
    /^"config\[8\]\.type" must be one of \[text, name, email, phone, number, currency, date, nit, /,
  ],
  ['a question needs a type', withQuestions({ name: 'x', description: 'X' }), '"config[8].type" is required'],
  ['a question needs a description', withQuestions({ name: 'x', type: 'text' }), '"config[8].description" is required'],
  ['a question description is not empty', withQuestions({ name: 'x', type: 'text', description: '' }), '"config[8].description" is not allowed to be empty'],
  ['unknown question attributes are refused', withQuestions({ name: 'x', type: 'text', description: 'X', colour: 1 }), '"config[8].colour" is not allowed'],
  ['unknown root fields are refused', sampleTemplate({ colour: 'red' }), '"colour" is not allowed'],
  ['sign must name existing questions', sampleTemplate({ sign: ['buyer_name', 'ghost'] }), /^"sign\[1\]" must be one of \[buyer_name, buyer_email, /],
  ['sign has no repeats', sampleTemplate({ sign: ['price', 'price'] }), '"sign[1]" contains a duplicate value'],
  [
    'prereq.k must name an existing clausula question',
    withQuestions({ name: 'x', type: 'text', description: 'X', prereq: [{ k: 'ghost', v: 'cash' }] }),
    '"config[8].prereq[0].k" must be [payment]',
  ],
  [
    'prereq.k cannot name a question that is not a clausula',
    withQuestions({ name: 'x', type: 'text', description: 'X', prereq: [{ k: 'price', v: '1' }] }),
    '"config[8].prereq[0].k" must be [payment]',
  ],
  [
    'prereq.v must be a value of that clausula',
    withQuestions({ name: 'x', type: 'text', description: 'X', prereq: [{ k: 'payment', v: 'barter' }] }),
    '"config[8].prereq[0].v" must be one of [cash, instalments]',
  ],
  [
    'prereq entries are {k, v}',
    withQuestions({ name: 'x', type: 'text', description: 'X', prereq: [{ k: 'payment' }] }),
    '"config[8].prereq[0].v" is required',
  ],
  ['a clausula needs options', withQuestions({ name: 'c', type: 'clausula', description: 'C' }), '"config[8].options" is required'],
  [
    'options are {name, value}',
    withQuestions({ name: 'c', type: 'clausula', description: 'C', options: [{ name: 'Yes' }] }),
    '"config[8].options[0].value" is required',
  ],
  [
    'option values are unique',
    withQuestions({
      name: 'c',
      type: 'clausula',
      description: 'C',
      options: [
        { name: 'Yes', value: 'y' },
        { name: 'Also yes', value: 'y' },
      ],
    }),
    '"config[8].options[1]" contains a duplicate value',
  ],
  [
    'a clausula default value is one of its options',
    withQuestions({ name: 'c', type: 'clausula', description: 'C', value: 'maybe', options: [{ name: 'Yes', value: 'y' }] }),
    '"config[8].value" must be [y]',
  ],
  ['a check question needs values', withQuestions({ name: 'c', type: 'check', description: 'C' }), '"config[8].values" is required'],
  [
    'a request question needs an https endpoint',
    withQuestions({ name: 'r', type: 'request', description: 'R', endpoint: 'http://example.test/x' }),
    '"config[8].endpoint" must be a valid uri with a scheme matching the https pattern',
  ],
  ['regex must compile', withQuestions({ name: 'r', type: 'text', description: 'R', regex: '([a-z' }), '"config[8].regex" must be a valid regular expression'],
  ...(
    [
      ['a look-ahead', '^(?=.*\\d).+$'],
      ['a negative look-ahead', '^(?!0)\\d+$'],
      ['a look-behind', '(?<=CC )\\d+'],
      ['a negative look-behind', '(?<!-)\\d+'],
      ['a back-reference', '^(\\d)\\1+$'],
      ['a named back-reference', '^(?<d>\\d)\\k<d>$'],
    ] as const
  ).map(([what, regex]): [string, Body, string] => [
    `regex runs on RE2, so ${what} is refused`,
    withQuestions({ name: 'r', type: 'text', description: 'R', regex }),
    '"config[8].regex" must be a valid regular expression without look-around or back-references',
  ]),
  ...(
    [
      ['a repeat count over 1000', '^\\d{1001}$'],
      ['repeats expanding beyond 2500 steps', '^(?:\\d+-){900}$'],
    ] as const
  ).map(([what, regex]): [string, Body, string] => [
    `regex runs on RE2, so ${what} is refused`,
    withQuestions({ name: 'r', type: 'text', description: 'R', regex }),
    '"config[8].regex" must be a smaller regular expression: its repeats expand it beyond 2500 steps',
  ]),
  [
    'signatureProfile types are unique',
    sampleTemplate({ signatureProfile: [{ type: 'buyer' }, { type: 'buyer' }] }),
    '"signatureProfile[1]" contains a duplicate value',
  ],
  [
    'signatureProfile email points to an email question',
    sampleTemplate({ signatureProfile: [{ type: 'buyer', email: 'buyer_name' }] }),
    '"signatureProfile[0].email" must be one of [buyer_email, seller_email]',
  ],
  [
    'signatureProfile phone points to a phone question',
    sampleTemplate({ signatureProfile: [{ type: 'buyer', phone: 'buyer_email' }] }),
    '"signatureProfile[0].phone" must be [buyer_phone]',
  ],
  [
    'signatureProfile name points to a question',
    sampleTemplate({ signatureProfile: [{ type: 'buyer', name: 'ghost' }] }),
    /^"signatureProfile\[0\]\.name" must be one of \[buyer_name, /,
  ],
  [
    'signatureProfile role is SIGNER or APPROVER',
    sampleTemplate({ signatureProfile: [{ type: 'buyer', role: 'READER' }] }),
    '"signatureProfile[0].role" must be one of [SIGNER, APPROVER]',
  ],
  ['preBuild is a boolean', sampleTemplate({ preBuild: 'yes' }), '"preBuild" must be a boolean'],
  ['config is an array', sampleTemplate({ config: {} }), '"config" must be an array'],
];

describe.each(dialects)('templates are validated as an integrator needs (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  for (const [rule, body, message] of invalid) {
    it(`${rule}: 400 in Joi wording, on create and on update, and nothing is stored`, async () => {
      const created = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body });
      expect(created.statusCode).toBe(400);
      const text: unknown = created.json().message;
      if (typeof message === 'string') expect(text).toBe(message);
      else expect(text).toMatch(message);
      expect(Object.keys(created.json())).toEqual(['message']);

      const valid = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() });
      const id: string = valid.json().id;
      const before = (await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgA.privateKey })).json();
      const { name: _name, description: _description, ...fields } = body;
      const updated = await call(svc.app, 'PUT', '/template', { key: svc.orgA.privateKey, body: { id, ...fields } });
      expect(updated.statusCode).toBe(400);
      const after = (await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgA.privateKey })).json();
      expect({ ...after, urls: null }).toEqual({ ...before, urls: null });
    });
  }

  it('every known question type is accepted with its required attributes', async () => {
    const extra: Record<string, Question> = {
      select: { options: [{ name: 'A', label: 'A', value: 'a' }] },
      searchlist: { options: [{ name: 'A', label: 'A', value: 'a' }] },
      clausula: { options: [{ name: 'A', value: 'a' }] },
      check: { values: ['a', 'b'] },
      request: { endpoint: 'https://example.test/check' },
      signature: { allow: ['draw', 'font'] },
    };
    const questions = QUESTION_TYPES.map((type) => ({ name: `q_${type}`, type, description: type, ...extra[type] }));
    const res = await call(svc.app, 'POST', '/template', {
      key: svc.orgA.privateKey,
      body: sampleTemplate({ config: questions, sign: [], signatureProfile: [{ type: 'signer', name: 'q_name', signature: 'q_signature' }] }),
    });
    expect(res.statusCode).toBe(200);
  });

  it('an identification may list alternative questions joined by |, and profiles may point to preFill entries', async () => {
    const res = await call(svc.app, 'POST', '/template', {
      key: svc.orgA.privateKey,
      body: sampleTemplate({
        config: [
          { name: 'cc', type: 'identification', description: 'CC' },
          { name: 'passport', type: 'identification', description: 'Passport' },
        ],
        sign: [],
        preFill: [{ name: 'company', value: 'Acme' }],
        signatureProfile: [{ type: 'signer', identification: 'cc|passport', name: 'company' }],
      }),
    });
    expect(res.statusCode).toBe(200);
  });
});
