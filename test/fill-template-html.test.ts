import { describe, expect, it } from 'vitest';
import { fillTemplateHtml } from '../src/documents/creating/fill-template-html.js';
import { resolveAnswers } from '../src/documents/creating/template-answers.js';
import { createTemplateSchema, type Question, type QuestionType, type TemplateBody } from '../src/templates/schemas.js';
import { sampleTemplate } from './support/fixtures.js';

function question(name: string, type: QuestionType, extra: Partial<Question> = {}): Question {
  return { name, type, description: name, ...extra };
}

function template(config: Question[], extra: Partial<TemplateBody> = {}): TemplateBody {
  return { config, sign: [], signatureProfile: [], preBuild: false, ...extra };
}

/** A head that must come out byte for byte: its style even holds markup-like text. */
const HEAD = [
  '<!DOCTYPE html>',
  '<html lang="es">',
  '<head>',
  '<meta charset="UTF-8">',
  '<title>Contrato</title>',
  '<style>',
  '  span[name] { font-weight: bold; } /* <span name="price">x</span> */',
  '  .sign-margin { height: 80px; margin: 10px 0 }',
  '</style>',
  '</head>',
  '',
].join('\n');

/** A complete document around `body`, so every test checks the rest stays as it was. */
const page = (body: string) => `${HEAD}<body>\n${body}\n</body>\n</html>\n`;

const PNG = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]).toString('base64')}`;

const body = template(
  [
    question('text', 'text'),
    question('name', 'name'),
    question('email', 'email'),
    question('phone', 'phone'),
    question('number', 'number'),
    question('currency', 'currency'),
    question('words', 'number', { addText: true }),
    question('plain_currency', 'currency', { removeText: true }),
    question('date', 'date'),
    question('nit', 'nit'),
    question('id', 'identification'),
    question('department', 'department'),
    question('city', 'select', {
      options: [
        { name: 'Bogotá D.C.', value: 'bog', label: 'Bogotá, D.C.' },
        { name: 'Medellín', value: 'med' },
      ],
    }),
    question('bank', 'searchlist', { options: [{ name: 'Banco Uno', value: 'b1', label: 'Banco 1' }] }),
    question('extras', 'check', { values: ['wifi', 'parking'] }),
    question('photo', 'image'),
    question('signature', 'signature'),
    question('request', 'request', { endpoint: 'https://example.com/check' }),
    question('payment', 'clausula', {
      value: 'cash',
      options: [
        { name: 'Efectivo', value: 'cash' },
        { name: 'Cuotas', value: 'instalments', label: 'A cuotas' },
        { name: 'Ninguno', value: 'none' },
      ],
    }),
    question('signDate', 'text'),
  ],
  { preFill: [{ name: 'country', value: 'Colombia' }] },
);

const fill = (html: string, answers: Record<string, string>, template: TemplateBody = body) => fillTemplateHtml({ html, body: template, answers });

describe('every element with the name of an answered question gets the answer, all copies', () => {
  it.each([
    ['a span', '<p><span name="text">[text]</span></p>', '<p><span name="text">hola</span></p>'],
    ['a b and a div', '<b name="text"></b><div name="text">x</div>', '<b name="text">hola</b><div name="text">hola</div>'],
    [
      'several copies across the document',
      '<p>A <span name="text">1</span></p>\n<table><tr><td name="text">2</td></tr></table>\n<ul><li name="text">3</li></ul>',
      '<p>A <span name="text">hola</span></p>\n<table><tr><td name="text">hola</td></tr></table>\n<ul><li name="text">hola</li></ul>',
    ],
    ['the placeholder markup is thrown away', '<span name="text"><i>place</i>holder</span>', '<span name="text">hola</span>'],
    ['an unquoted name', '<span name=text>x</span>', '<span name=text>hola</span>'],
    ['a tag and attribute written in capitals', '<SPAN NAME="text">x</SPAN>', '<SPAN NAME="text">hola</SPAN>'],
    ['an element closed by the parser', '<p name="text">x<p>next', '<p name="text">hola<p>next'],
    ['a textarea', '<textarea name="text">x</textarea>', '<textarea name="text">hola</textarea>'],
  ])('%s', (_case, html, expected) => {
    expect(fill(page(html), { text: 'hola' })).toBe(page(expected));
  });

  it('a preFill entry fills its elements as is', () => {
    expect(fill(page('<span name="country">?</span>'), { country: 'Colombia' })).toBe(page('<span name="country">Colombia</span>'));
  });
});

describe('elements for unanswered questions are left as they are', () => {
  const html = page('<span name="text">[text]</span> <span name="name">[name]</span> <span name="payment_cash">C</span>');

  it.each<[string, Record<string, string>]>([
    ['no answers', {}],
    ['an answer that names no question or preFill entry', { ghost: 'x', '[text]': 'y' }],
  ])('%s', (_case, answers) => {
    expect(fill(html, answers)).toBe(html);
  });

  it('only the answered one changes', () => {
    expect(fill(html, { name: 'ana' })).toBe(page('<span name="text">[text]</span> <span name="name">ANA</span> <span name="payment_cash">C</span>'));
  });
});

describe('each type renders as docs/real-service.md §2.3 says', () => {
  it.each([
    ['text as is', 'text', 'Calle 1 # 2-3', 'Calle 1 # 2-3'],
    ['name in uppercase', 'name', 'juan pérez ñandú', 'JUAN PÉREZ ÑANDÚ'],
    ['email as is', 'email', 'juan@example.com', 'juan@example.com'],
    ['phone as is', 'phone', '+573001234567', '+573001234567'],
    ['number with thousands separated by .', 'number', '50000', '50.000'],
    ['number with a decimal comma', 'number', '1234.5', '1.234,5'],
    ['number under a thousand', 'number', '999', '999'],
    ['number of millions', 'number', '1234567890', '1.234.567.890'],
    ['number negative', 'number', '-1234.05', '-1.234,05'],
    ['number with leading zeros', 'number', '0050000', '50.000'],
    ['number zero', 'number', '0', '0'],
    ['number addText is ignored', 'words', '5000', '5.000'],
    ['currency with $', 'currency', '50000', '$50.000'],
    ['currency with decimals', 'currency', '1234.5', '$1.234,5'],
    ['currency negative', 'currency', '-50000', '-$50.000'],
    ['currency removeText is ignored', 'plain_currency', '50000', '$50.000'],
    ['date in Spanish', 'date', '2024-01-15', '15 de enero de 2024'],
    ['date without a leading zero on the day', 'date', '2023-09-05', '5 de septiembre de 2023'],
    ['date in December', 'date', '1999-12-31', '31 de diciembre de 1999'],
    ['nit with the check digit after a dash', 'nit', '9001234567', '900123456-7'],
    ['nit short', 'nit', '8301234', '830123-4'],
    ['identification as is', 'id', 'CC 1084340519', 'CC 1084340519'],
    ['department as is', 'department', 'Antioquia', 'Antioquia'],
    ['select as its option label', 'city', 'bog', 'Bogotá, D.C.'],
    ['select falls back to the option name', 'city', 'med', 'Medellín'],
    ['searchlist as its option label', 'bank', 'b1', 'Banco 1'],
    ['check as "a, b"', 'extras', 'wifi, parking', 'wifi, parking'],
    ['check normalized', 'extras', 'wifi,parking', 'wifi, parking'],
    ['request as is', 'request', 'ABC-123', 'ABC-123'],
    ['clausula as its option name', 'payment', 'cash', 'Efectivo'],
    ['clausula as its option label', 'payment', 'instalments', 'A cuotas'],
  ])('%s: %s %s → %s', (_case, name, value, rendered) => {
    expect(fill(page(`<span name="${name}">?</span>`), { [name]: value })).toBe(page(`<span name="${name}">${rendered}</span>`));
  });

  it.each([
    ['number', 'not a number'],
    ['currency', '1,5'],
    ['date', '2024-02-30'],
    ['nit', '900-1'],
    ['city', 'unknown option'],
  ])('a %s value it cannot format is written as is: %s', (name, value) => {
    expect(fill(page(`<span name="${name}">?</span>`), { [name]: value })).toBe(page(`<span name="${name}">${value}</span>`));
  });

  it('an empty answer empties the element', () => {
    expect(fill(page('<span name="number">?</span><span name="date">?</span>'), { number: '', date: '' })).toBe(
      page('<span name="number"></span><span name="date"></span>'),
    );
  });
});

describe('an image answer becomes <img src="data:..." class="object-contain">', () => {
  it('a PNG data URI', () => {
    expect(fill(page('<div name="photo">Foto</div>'), { photo: PNG })).toBe(page(`<div name="photo"><img src="${PNG}" class="object-contain"></div>`));
  });

  it.each([
    ['a URL', 'https://example.com/a.png'],
    ['javascript', 'javascript:alert(1)'],
    ['a data URI that breaks out of the attribute', 'data:image/png;base64,iVBORw0KGgo" onerror="alert(1)'],
  ])('a value that is not a PNG or JPEG data URI fills nothing: %s', (_case, value) => {
    expect(fill(page('<div name="photo">Foto</div>'), { photo: value })).toBe(page('<div name="photo">Foto</div>'));
  });
});

describe('clausula: the chosen option element loses hidden, the others get it, their content is left alone', () => {
  const html = page(
    [
      '<div name="payment_cash">Pago de <span name="text">[t]</span> en efectivo.</div>',
      '<div name="payment_instalments" hidden><p>Pago a <b>cuotas</b>.</p></div>',
      '<span hidden="" name="payment_none"></span>',
      '<span name="payment_cash">Otra copia</span>',
    ].join('\n'),
  );

  it.each([
    [
      'the default shown, the others hidden',
      'cash',
      [
        '<div name="payment_cash">Pago de <span name="text">[t]</span> en efectivo.</div>',
        '<div name="payment_instalments" hidden><p>Pago a <b>cuotas</b>.</p></div>',
        '<span hidden="" name="payment_none"></span>',
        '<span name="payment_cash">Otra copia</span>',
      ],
    ],
    [
      'another option chosen',
      'instalments',
      [
        '<div name="payment_cash" hidden>Pago de <span name="text">[t]</span> en efectivo.</div>',
        '<div name="payment_instalments"><p>Pago a <b>cuotas</b>.</p></div>',
        '<span hidden="" name="payment_none"></span>',
        '<span name="payment_cash" hidden>Otra copia</span>',
      ],
    ],
    [
      'hidden written first with a value',
      'none',
      [
        '<div name="payment_cash" hidden>Pago de <span name="text">[t]</span> en efectivo.</div>',
        '<div name="payment_instalments" hidden><p>Pago a <b>cuotas</b>.</p></div>',
        '<span name="payment_none"></span>',
        '<span name="payment_cash" hidden>Otra copia</span>',
      ],
    ],
    [
      'nothing chosen hides every option',
      '',
      [
        '<div name="payment_cash" hidden>Pago de <span name="text">[t]</span> en efectivo.</div>',
        '<div name="payment_instalments" hidden><p>Pago a <b>cuotas</b>.</p></div>',
        '<span hidden="" name="payment_none"></span>',
        '<span name="payment_cash" hidden>Otra copia</span>',
      ],
    ],
  ])('%s (%j)', (_case, payment, lines) => {
    expect(fill(html, { payment })).toBe(page(lines.join('\n')));
  });

  it('answers inside an option element are filled while it is toggled', () => {
    expect(fill(page('<div name="payment_cash" class="x">Pago de <span name="text">[t]</span></div>'), { payment: 'instalments', text: 'mil' })).toBe(
      page('<div name="payment_cash" class="x" hidden>Pago de <span name="text">mil</span></div>'),
    );
  });

  it.each([
    ['a self-closing style tag', '<span name="payment_none"/>', '<span name="payment_none" hidden/>'],
    ['a tag over several lines', '<span\n  name="payment_none"\n>x</span>', '<span\n  name="payment_none" hidden\n>x</span>'],
    ['hidden repeated', '<span name="payment_cash" hidden hidden>x</span>', '<span name="payment_cash">x</span>'],
    ['hidden in capitals', '<span name="payment_cash" HIDDEN>x</span>', '<span name="payment_cash">x</span>'],
    ['hidden on its own line', '<span name="payment_cash"\n  hidden\n>x</span>', '<span name="payment_cash"\n>x</span>'],
  ])('%s (cash chosen)', (_case, html, expected) => {
    expect(fill(page(html), { payment: 'cash' })).toBe(page(expected));
  });

  it('a clausula that is not answered leaves its option elements as they are', () => {
    const untouched = page('<div name="payment_cash">a</div><div name="payment_instalments">b</div>');
    expect(fill(untouched, { text: 'x' })).toBe(untouched);
  });
});

describe('the reserved names signDate and signComplete and the sign-margin placeholders are never touched', () => {
  it.each([
    ['signDate, even when a question has that name', '<span name="signDate">[fecha]</span>', { signDate: '2024-01-15' }],
    ['signComplete', '<div name="signComplete" hidden>Firmado</div>', { signComplete: 'x' }],
    ['a sign-margin placeholder named like a question', '<div class="sign-margin" name="text"></div>', { text: 'x' }],
    ['a sign-margin among other classes', '<div class="box sign-margin\tbig" name="text">firma</div>', { text: 'x' }],
    ['an element inside a placeholder', '<div class="sign-margin" id="buyer"><span name="text">n</span></div>', { text: 'x' }],
    ['a placeholder named like a clausula option', '<div class="sign-margin" name="payment_cash" hidden></div>', { payment: 'cash' }],
    ['a signature question (signed later)', '<div name="signature">firma</div>', { signature: PNG }],
  ])('%s', (_case, html, answers) => {
    expect(fill(page(html), answers)).toBe(page(html));
  });
});

describe('answer values can never inject markup', () => {
  it.each([
    ['a script tag', '<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['a closing tag', '</span><img src=x onerror=alert(1)>', '&lt;/span&gt;&lt;img src=x onerror=alert(1)&gt;'],
    ['an entity and quotes', `Tom & "Jerry" 'n' &amp;`, 'Tom &amp; &quot;Jerry&quot; &#39;n&#39; &amp;amp;'],
    ['a comment', '<!-- x -->', '&lt;!-- x --&gt;'],
  ])('%s', (_case, value, escaped) => {
    expect(fill(page('<span name="text">?</span>'), { text: value })).toBe(page(`<span name="text">${escaped}</span>`));
  });

  it('a name is escaped after it is uppercased', () => {
    expect(fill(page('<span name="name">?</span>'), { name: '<b>x</b>' })).toBe(page('<span name="name">&lt;B&gt;X&lt;/B&gt;</span>'));
  });

  it('an option label is escaped', () => {
    const labelled = template([question('pick', 'select', { options: [{ name: 'n', value: 'v', label: '<i>L</i>' }] })]);
    expect(fill(page('<span name="pick">?</span>'), { pick: 'v' }, labelled)).toBe(page('<span name="pick">&lt;i&gt;L&lt;/i&gt;</span>'));
  });

  it.each([
    ['a script', '<script name="text">var a = 1;</script>'],
    ['a style', '<style name="text">p {}</style>'],
    ['an iframe', '<iframe name="text"></iframe>'],
    ['a void element', '<input name="text" value="v"><img name="text" src="a.png">'],
    ['an element inside a template', '<template><span name="text">t</span></template>'],
    ['a self-closing SVG element', '<svg><text name="text"/>after</svg>'],
  ])('no answer goes into %s', (_case, html) => {
    expect(fill(page(html), { text: 'alert(1)' })).toBe(page(html));
  });

  it('an SVG element with content is filled with text', () => {
    expect(fill(page('<svg><text name="text">t</text></svg>'), { text: '<b>' })).toBe(page('<svg><text name="text">&lt;b&gt;</text></svg>'));
  });
});

describe('the rest of the document is kept byte for byte', () => {
  it('doctype, head and style are untouched', () => {
    const out = fill(page('<span name="text">?</span>'), { text: 'x' });
    expect(out.startsWith(HEAD)).toBe(true);
    expect(out).toContain('/* <span name="price">x</span> */');
  });

  it.each([
    ['a lowercase doctype and comments', '<!doctype html><!-- c --><html><body><!-- <span name="text">no</span> --><span name="text">?</span></body></html>'],
    ['entities and accents', '<html><body><p>&nbsp;&eacute; &amp; ñ</p><span name="text">?</span><p>&lt;b&gt;</p></body></html>'],
    ['CRLF line ends', '<!DOCTYPE html>\r\n<html>\r\n<body>\r\n<span name="text">?</span>\r\n</body>\r\n</html>\r\n'],
    ['a byte order mark', '\uFEFF<!DOCTYPE html><html><body><span name="text">?</span></body></html>'],
    ['a fragment without html, head or body', '<style>b{}</style><span name="text">?</span><br/><br>'],
    ['odd but valid attribute quoting', `<p class='a'  data-x=1 ><span  name = 'text' >?</span></p>`],
  ])('%s', (_case, html) => {
    const expected = html.replace(/(name ?= ?['"]?text['"]? ?>)\?/, '$1ok');
    expect(fill(html, { text: 'ok' })).toBe(expected);
  });

  it('misnested markup whose source is not the element content alone is left as it is', () => {
    const html = page('<b name="text">1<p>2</b>3</p>');
    expect(fill(html, { text: 'x' })).toBe(html);
  });

  it('a named element inside another filled one goes with its parent content', () => {
    expect(fill(page('<div name="text">a <span name="name">b</span></div>'), { text: 't', name: 'n' })).toBe(page('<div name="text">t</div>'));
  });
});

describe('fills the sample template from its resolved answers', () => {
  it('the Complete HTML of the sample with answers, defaults and the clausula in place', () => {
    const { value: sample, error } = createTemplateSchema.validate(sampleTemplate());
    if (error) throw error;
    const resolved = resolveAnswers(sample, [
      { key: 'buyer_name', value: 'juan pérez' },
      { key: 'buyer_email', value: 'Juan@Example.com' },
      { key: 'seller_name', value: 'ana gómez' },
      { key: 'seller_email', value: 'ana@example.com' },
      { key: 'price', value: '1500000' },
      { key: 'payment', value: 'instalments' },
      { key: 'instalments', value: '12' },
    ]);
    if (!resolved.ok) throw new Error(resolved.message);
    const html = page(
      [
        '<p>Yo, <span name="buyer_name">[comprador]</span> (<span name="buyer_email">[email]</span>), compro a <span name="seller_name">[vendedor]</span> por <span name="price">[precio]</span>.</p>',
        '<p name="payment_cash">De contado.</p>',
        '<p name="payment_instalments" hidden>En <span name="instalments">[n]</span> cuotas.</p>',
        '<p>Firmado el <span name="signDate"></span></p>',
        '<div class="sign-margin" name="buyer"></div><div class="sign-margin" name="seller"></div>',
      ].join('\n'),
    );
    const answers = { ...resolved.answers };
    expect(fillTemplateHtml({ html, body: sample, answers })).toBe(
      page(
        [
          '<p>Yo, <span name="buyer_name">JUAN PÉREZ</span> (<span name="buyer_email">juan@example.com</span>), compro a <span name="seller_name">ANA GÓMEZ</span> por <span name="price">1.500.000</span>.</p>',
          '<p name="payment_cash" hidden>De contado.</p>',
          '<p name="payment_instalments">En <span name="instalments">12</span> cuotas.</p>',
          '<p>Firmado el <span name="signDate"></span></p>',
          '<div class="sign-margin" name="buyer"></div><div class="sign-margin" name="seller"></div>',
        ].join('\n'),
      ),
    );
    expect(answers).toEqual(resolved.answers);
  });
});
