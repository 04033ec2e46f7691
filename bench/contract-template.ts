/**
 * A template the size of a real contract, for the bench's second creation figure: 30 questions of
 * the usual kinds (names, e-mails, amounts, dates, a clausula) and a Complete HTML of about 40 KB,
 * each answer's element placed among clauses of ordinary contract text. Built the same way on every
 * call, so both sides of an A/B run fill the very same document.
 */

const PARTIES = ['lessor', 'lessee', 'guarantor'] as const;
const CLAUSES = 54;
const CLAUSE_TEXT =
  'The parties agree that the obligations set out in this clause shall be performed in good faith, ' +
  'in the place and at the time agreed, and that any delay attributable to either party shall give ' +
  'the other the right to claim the damages it proves, without prejudice to the remedies the law ' +
  'grants and to the other clauses of this contract, which remain in force in everything not ' +
  'expressly modified here. Notices shall be given in writing to the addresses stated above. ';

interface BenchQuestion {
  name: string;
  type: string;
  description: string;
  value?: string;
  options?: { name: string; value: string }[];
}

function questions(): BenchQuestion[] {
  const list: BenchQuestion[] = [];
  for (const party of PARTIES) {
    list.push(
      { name: `${party}_name`, type: 'name', description: `Full name of the ${party}` },
      { name: `${party}_email`, type: 'email', description: `E-mail of the ${party}` },
      { name: `${party}_phone`, type: 'phone', description: `Phone of the ${party}` },
      { name: `${party}_id`, type: 'identification', description: `Identification of the ${party}` },
      { name: `${party}_address`, type: 'text', description: `Address of the ${party}` },
    );
  }
  list.push(
    { name: 'property_address', type: 'text', description: 'Address of the property' },
    { name: 'property_city', type: 'text', description: 'City' },
    { name: 'monthly_rent', type: 'currency', description: 'Monthly rent' },
    { name: 'deposit', type: 'currency', description: 'Deposit' },
    { name: 'start_date', type: 'date', description: 'Start date' },
    { name: 'end_date', type: 'date', description: 'End date' },
    { name: 'payment_day', type: 'number', description: 'Day of the month the rent is due' },
    { name: 'late_fee', type: 'number', description: 'Late fee, percent' },
    { name: 'parking_spaces', type: 'number', description: 'Parking spaces' },
    { name: 'storage_room', type: 'text', description: 'Storage room' },
    { name: 'pets', type: 'text', description: 'Pets allowed' },
    { name: 'utilities', type: 'text', description: 'Utilities paid by the lessee' },
    { name: 'notice_days', type: 'number', description: 'Days of notice to end the contract' },
    { name: 'renewal_terms', type: 'text', description: 'Renewal terms' },
    {
      name: 'payment',
      type: 'clausula',
      description: 'Payment method',
      value: 'transfer',
      options: [
        { name: 'Bank transfer', value: 'transfer' },
        { name: 'Cash', value: 'cash' },
      ],
    },
  );
  return list;
}

const ANSWER_OF: Record<string, string> = {
  name: 'María Fernanda Restrepo',
  email: 'party@contract.test',
  phone: '+573001234567',
  identification: 'CC 1020304050',
  text: 'Calle 100 # 15-20, apartamento 501',
  currency: '2500000',
  date: '2027-01-01',
  number: '5',
  clausula: 'transfer',
};

/** The template's definition, as POST /template takes it. */
export function contractTemplate(): Record<string, unknown> {
  return {
    name: 'Residential lease',
    description: 'A lease of 40 KB with 30 questions, three parties',
    config: questions(),
    sign: PARTIES.flatMap((party) => [`${party}_name`, `${party}_id`]),
    signatureProfile: PARTIES.map((party) => ({ type: party, name: `${party}_name`, email: `${party}_email` })),
    preBuild: false,
  };
}

/** An answer for every question. */
export function contractAnswers(): { key: string; value: string }[] {
  return questions().map((question) => ({
    key: question.name,
    value: question.type === 'email' ? question.name.replace('_email', '@contract.test') : (ANSWER_OF[question.type] ?? 'x'),
  }));
}

/** About 40 KB: clauses of text, each answer's element in one of them, the clausula's two options. */
export function contractHtml(): string {
  const names = questions()
    .filter((question) => question.type !== 'clausula')
    .map((question) => question.name);
  const clauses: string[] = [];
  for (let i = 0; i < CLAUSES; i++) {
    const name = names[i % names.length];
    const filled = i < names.length && name !== undefined ? ` Stated value: <span name="${name}">${name}</span>.` : '';
    clauses.push(`<h3>Clause ${i + 1}</h3>\n<p class="clause">${CLAUSE_TEXT}${CLAUSE_TEXT.slice(0, 200)}${filled}</p>`);
  }
  return `<!doctype html>
<html><head><meta charset="UTF-8"><title>Residential lease</title>
<style>body { font-family: serif; } .clause { text-align: justify; margin: 0 0 8px; } h3 { font-size: 12pt; }</style></head>
<body>
<h1>Residential lease contract</h1>
${clauses.join('\n')}
<p><span name="payment_transfer">Paid by bank transfer.</span><span name="payment_cash" hidden>Paid in cash.</span></p>
${PARTIES.map((party) => `<div class="sign-margin" id="${party}"></div>`).join('')}
</body></html>`;
}
