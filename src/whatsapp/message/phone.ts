/** A number as Meta writes it (digits only, with the country code): `+57 300 123-4567` → `573001234567`. */
export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}
