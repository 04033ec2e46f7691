/** A template shaped like the contract's examples: a clausula driving a conditional question, two signers. */
export function sampleTemplate(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Purchase agreement',
    description: 'Sale of goods between two parties',
    config: [
      { name: 'buyer_name', type: 'name', description: 'Buyer full name' },
      { name: 'buyer_email', type: 'email', description: 'Buyer e-mail' },
      { name: 'buyer_phone', type: 'phone', description: 'Buyer phone' },
      { name: 'seller_name', type: 'name', description: 'Seller full name' },
      { name: 'seller_email', type: 'email', description: 'Seller e-mail' },
      { name: 'price', type: 'number', description: 'Price' },
      {
        name: 'payment',
        type: 'clausula',
        description: 'Payment method',
        value: 'cash',
        options: [
          { name: 'Cash', value: 'cash' },
          { name: 'Instalments', value: 'instalments' },
        ],
      },
      { name: 'instalments', type: 'number', description: 'Number of instalments', prereq: [{ k: 'payment', v: 'instalments' }] },
    ],
    sign: ['buyer_name', 'buyer_email', 'seller_name', 'seller_email', 'price'],
    signatureProfile: [
      { type: 'buyer', name: 'buyer_name', email: 'buyer_email', phone: 'buyer_phone' },
      { type: 'seller', name: 'seller_name', email: 'seller_email' },
    ],
    preBuild: false,
    ...overrides,
  };
}

/** A Complete HTML for sampleTemplate: answers, a clausula's option spans and both signers' places. */
export const COMPLETE_HTML = `<!doctype html>
<html><head><meta charset="UTF-8"><style>p { margin: 0 }</style></head>
<body>
<p>Buyer: <span name="buyer_name">buyer</span>, price <span name="price">0</span></p>
<p><span name="payment_cash">Paid in cash.</span><span name="payment_instalments" hidden>Paid in instalments.</span></p>
<div class="sign-margin" id="buyer"></div><div class="sign-margin" id="seller"></div>
</body></html>`;

export const ANSWERS = [
  { key: 'buyer_name', value: 'Ana Gómez' },
  { key: 'buyer_email', value: 'ana@buyer.test' },
  { key: 'buyer_phone', value: '+573001234567' },
  { key: 'seller_name', value: 'Luis Pérez' },
  { key: 'seller_email', value: 'luis@seller.test' },
  { key: 'price', value: '50000' },
];

/** A body for POST /veriface as the contract's table shows it; fields given replace the defaults. */
export function verifaceBody(email: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    email,
    platform: 'whatsapp',
    name: 'Juan Pérez',
    phone: '+573001234567',
    country: 'CO',
    type: 'CC',
    identification: '1001001010',
    ...overrides,
  };
}
