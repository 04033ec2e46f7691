import bwipjs from 'bwip-js';
import sharp from 'sharp';
import { type Person, selfie } from './face-photos.js';

/** A portrait cut for a card, from the same sample photographs as the face tests. */
async function portrait(person: Person): Promise<Buffer> {
  return sharp(await selfie(person, { faceSide: 200, width: 240, height: 300 }))
    .png()
    .toBuffer();
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A made-up identity card, its number printed large and clear, its portrait from `person` (or none). */
export async function numberedCard(options: { number: string; person?: Person }): Promise<Buffer> {
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="630">
    <rect width="1000" height="630" rx="30" fill="#f3efe2"/>
    <rect width="1000" height="90" rx="30" fill="#c8a43c"/>
    <text x="40" y="62" font-family="DejaVu Sans" font-size="40" font-weight="bold" fill="#1d2a57">REPUBLICA DE COLOMBIA</text>
    <text x="320" y="170" font-family="DejaVu Sans" font-size="30" fill="#111">CEDULA DE CIUDADANIA</text>
    <text x="320" y="270" font-family="DejaVu Sans Mono" font-size="52" font-weight="bold" fill="#111">${escapeXml(options.number)}</text>
    <text x="320" y="360" font-family="DejaVu Sans" font-size="30" fill="#111">PEREZ GONZALEZ</text>
    <text x="320" y="410" font-family="DejaVu Sans" font-size="30" fill="#111">JUAN CARLOS</text>
  </svg>`);
  const card = sharp(svg);
  if (options.person) card.composite([{ input: await portrait(options.person), left: 40, top: 130 }]);
  return sharp(await card.png().toBuffer())
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The ICAO 9303 check digit: weights 7, 3, 1; digits as themselves, A to Z as 10 to 35, '<' as 0. */
export function checkDigit(field: string): string {
  let sum = 0;
  for (const [i, char] of [...field].entries()) {
    const value = char === '<' ? 0 : /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 55;
    sum += value * ([7, 3, 1][i % 3] ?? 0);
  }
  return String(sum % 10);
}

export interface PassportHolder {
  surname: string;
  givenNames: string;
  number: string;
  nationality: string;
  birth: string;
  sex: 'M' | 'F';
  expiry: string;
}

/** The two 44-character lines of a passport's machine-readable zone (TD3), check digits computed. */
export function td3Lines(holder: PassportHolder): [string, string] {
  const name = `${holder.surname}<<${holder.givenNames.replace(/ /g, '<')}`;
  const first = `P<${holder.nationality}${name}`.padEnd(44, '<');
  const number = holder.number.padEnd(9, '<');
  const personal = '<'.repeat(14);
  const body = `${number}${checkDigit(number)}${holder.nationality}${holder.birth}${checkDigit(holder.birth)}${holder.sex}${holder.expiry}${checkDigit(holder.expiry)}${personal}${checkDigit(personal)}`;
  const composite = `${number}${checkDigit(number)}${holder.birth}${checkDigit(holder.birth)}${holder.expiry}${checkDigit(holder.expiry)}${personal}${checkDigit(personal)}`;
  return [first, `${body}${checkDigit(composite)}`];
}

/**
 * The three 30-character lines of an identity card's zone (TD1), as on the new Colombian cédula's
 * back: the card's own number in the document number, the national number (NUIP) in the second
 * line's optional field.
 */
export function td1Lines(holder: {
  cardNumber: string;
  nuip: string;
  surnames: string;
  names: string;
  birth: string;
  sex: 'M' | 'F';
  expiry: string;
}): [string, string, string] {
  const number = holder.cardNumber.padEnd(9, '<');
  const first = `ICCOL${number}${checkDigit(number)}`.padEnd(30, '<');
  const head = `${holder.birth}${checkDigit(holder.birth)}${holder.sex}${holder.expiry}${checkDigit(holder.expiry)}COL${holder.nuip.padEnd(11, '<')}`;
  const composite = `${first.slice(5, 30)}${head.slice(0, 7)}${head.slice(8, 15)}${head.slice(18, 29)}`;
  const third = `${holder.surnames.replace(/ /g, '<')}<<${holder.names.replace(/ /g, '<')}`.padEnd(30, '<');
  return [first, `${head}${checkDigit(composite)}`, third];
}

/** A passport's data page: a portrait and the machine-readable zone in large monospace letters. */
export async function passportPage(holder: PassportHolder, person: Person): Promise<Buffer> {
  const [first, second] = td3Lines(holder);
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1300" height="800">
    <rect width="1300" height="800" fill="#e8eef4"/>
    <text x="40" y="70" font-family="DejaVu Sans" font-size="40" fill="#1d2a57">PASAPORTE PASSPORT</text>
    <text x="360" y="200" font-family="DejaVu Sans" font-size="32" fill="#111">${holder.surname}</text>
    <text x="360" y="260" font-family="DejaVu Sans" font-size="32" fill="#111">${holder.givenNames}</text>
    <text x="30" y="660" font-family="DejaVu Sans Mono" font-size="44" fill="#000">${escapeXml(first)}</text>
    <text x="30" y="740" font-family="DejaVu Sans Mono" font-size="44" fill="#000">${escapeXml(second)}</text>
  </svg>`);
  const page = await sharp(svg)
    .composite([{ input: await portrait(person), left: 40, top: 120 }])
    .png()
    .toBuffer();
  return sharp(page).jpeg({ quality: 92 }).toBuffer();
}

const padded = (text: string, length: number) => text.padEnd(length, '\0');

/**
 * The back of an older Colombian cédula: a PDF417 barcode holding the card's fixed-width record
 * (the layout src/veriface/document/barcode.ts reads), on a yellow card.
 */
export async function cedulaBack(holder: {
  number: string;
  surnames: [string, string];
  names: [string, string];
  sex: 'M' | 'F';
  birth: string;
}): Promise<Buffer> {
  const record = [
    padded('0375180918PUBDSK_1', 48),
    holder.number.padStart(10, '0'),
    ...[...holder.surnames, ...holder.names].map((part) => padded(part, 23)),
    `0${holder.sex}${holder.birth}051010O+`,
    '\0'.repeat(20),
  ].join('');
  const barcode = await bwipjs.toBuffer({ bcid: 'pdf417', text: record, scale: 2, height: 12, binarytext: true });
  return sharp({ create: { width: 1000, height: 630, channels: 3, background: '#f5e6a0' } })
    .composite([{ input: barcode, left: 60, top: 200 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}
