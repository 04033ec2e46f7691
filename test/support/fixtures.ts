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
