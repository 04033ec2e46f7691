import { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** pkijs works through WebCrypto: Node's, set once for the whole process. */
pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as Crypto }));

export { asn1js, pkijs };

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  sha256: '2.16.840.1.101.3.4.2.1',
  commonName: '2.5.4.3',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  extKeyUsage: '2.5.29.37',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
} as const;

export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/**
 * The value of a positive INTEGER in minimal DER made from random bytes (a serial number, a
 * nonce): the first byte between 0x40 and 0x7f. Clearing only the top bit left a first byte of
 * 0x00 followed by one below 0x80 one time in 256, a non-minimal INTEGER: NSS (pdfsig, Firefox,
 * LibreOffice) then cannot match a certificate with that serial to its signatures, and a strict
 * timestamp authority refuses the request.
 */
export function positiveInteger(random: Uint8Array): Uint8Array {
  const value = Uint8Array.from(random);
  value[0] = ((value[0] ?? 0) & 0x3f) | 0x40;
  return value;
}

export async function sha256Of(bytes: Uint8Array): Promise<ArrayBuffer> {
  return webcrypto.subtle.digest('SHA-256', bytes);
}

/** Parses DER into a pkijs object, refusing anything that does not decode whole. */
export function parseDer<T>(der: Uint8Array, make: (schema: asn1js.AsnType) => T): T {
  const asn1 = asn1js.fromBER(toArrayBuffer(der));
  if (asn1.offset === -1) throw new Error(`cannot decode DER: ${asn1.result.error}`);
  return make(asn1.result);
}

/**
 * The SHA-256 of each certificate's DER, kept for the life of the certificate object: pkijs encodes
 * a parsed certificate again by decoding its bytes, 3 ms a signature for the same answer each time.
 */
const certificateHashes = new WeakMap<pkijs.Certificate, Promise<ArrayBuffer>>();

function certificateHash(certificate: pkijs.Certificate): Promise<ArrayBuffer> {
  let hash = certificateHashes.get(certificate);
  if (!hash) {
    hash = sha256Of(new Uint8Array(certificate.toSchema().toBER(false)));
    certificateHashes.set(certificate, hash);
  }
  return hash;
}

/**
 * The ESS signing-certificate-v2 attribute (RFC 5035) PAdES B-B requires: the SHA-256 of the
 * signer's certificate with its issuer and serial number, binding the signature to that certificate.
 */
export async function signingCertificateV2(certificate: pkijs.Certificate): Promise<pkijs.Attribute> {
  const issuerSerial = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [certificate.issuer.toSchema()] })] }),
      certificate.serialNumber,
    ],
  });
  // The hash algorithm is left out: SHA-256 is its DEFAULT, and DER omits defaults.
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: await certificateHash(certificate) }), issuerSerial] });
  return new pkijs.Attribute({
    type: OID.signingCertificateV2,
    values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })],
  });
}
