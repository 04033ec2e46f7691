/** The length of the DER value at the start of `bytes` (a CMS is zero-padded to fill its placeholder). */
function derLength(bytes: Buffer): number {
  const first = bytes[1] ?? 0;
  if (first < 0x80) return 2 + first;
  const octets = first & 0x7f;
  let length = 0;
  for (let index = 0; index < octets; index++) length = length * 256 + (bytes[2 + index] ?? 0);
  return 2 + octets + length;
}

/** One signature of a PDF as its bytes hold it. */
export interface SignatureBytes {
  /** The decoded /Contents string whole, padding included: what a DSS's VRI key is the SHA-1 of. */
  contents: Buffer;
  /** The CMS (or timestamp token) at its start. */
  cms: Buffer;
  /** The bytes its ByteRange covers. */
  content: Buffer;
}

/** Every signature of a PDF, from the first revision's to the last, read through their ByteRanges. */
export function signaturesOf(pdf: Buffer): SignatureBytes[] {
  const text = pdf.toString('latin1');
  return [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((range) => {
    const [start, length, next, rest] = range.slice(1).map(Number) as [number, number, number, number];
    const contents = Buffer.from(text.slice(start + length + 1, next - 1), 'hex');
    return {
      contents,
      cms: contents.subarray(0, derLength(contents)),
      content: Buffer.concat([pdf.subarray(start, start + length), pdf.subarray(next, next + rest)]),
    };
  });
}

/** The last signature of a PDF. */
export function lastSignatureOf(pdf: Buffer): SignatureBytes {
  const last = signaturesOf(pdf).at(-1);
  if (!last) throw new Error('the PDF carries no signature');
  return last;
}
