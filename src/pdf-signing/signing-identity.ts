import { createPrivateKey, createPublicKey, randomBytes, webcrypto } from 'node:crypto';
import { asn1js, OID, parseDer, pkijs, positiveInteger, toArrayBuffer } from './pki.js';

/** The certificate and key the instance signs final documents with. */
export interface SigningIdentity {
  certificate: pkijs.Certificate;
  /** Intermediate certificates carried in the signature so a verifier can build the path. */
  chain: pkijs.Certificate[];
  privateKey: CryptoKey;
  /** Made by the instance itself: its signatures prove integrity, not who the instance is. */
  selfSigned: boolean;
  /** This start replaced a stored self-signed certificate whose seals no verifier could check. */
  replacedUnverifiable?: boolean;
}

const BAG = { key: '1.2.840.113549.1.12.10.1.1', shroudedKey: '1.2.840.113549.1.12.10.1.2', certificate: '1.2.840.113549.1.12.10.1.3' } as const;
const KEY_ALGORITHM = { rsa: '1.2.840.113549.1.1.1', ec: '1.2.840.10045.2.1' } as const;
const CURVES: Record<string, string> = { '1.2.840.10045.3.1.7': 'P-256', '1.3.132.0.34': 'P-384', '1.3.132.0.35': 'P-521' };

export class SigningIdentityError extends Error {}

function der(value: { toSchema(): asn1js.AsnType }): Buffer {
  return Buffer.from(value.toSchema().toBER(false));
}

/** Imports a PKCS#8 key for signing with SHA-256: RSA (PKCS#1 v1.5) or ECDSA on a named curve. */
async function importSigningKey(pkcs8: Uint8Array): Promise<CryptoKey> {
  const info = parseDer(pkcs8, (schema) => new pkijs.PrivateKeyInfo({ schema }));
  const algorithm = info.privateKeyAlgorithm.algorithmId;
  if (algorithm === KEY_ALGORITHM.rsa) {
    return webcrypto.subtle.importKey('pkcs8', toArrayBuffer(pkcs8), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
  }
  const params = info.privateKeyAlgorithm.algorithmParams;
  const curve = algorithm === KEY_ALGORITHM.ec && params instanceof asn1js.ObjectIdentifier ? CURVES[params.valueBlock.toString()] : undefined;
  if (curve === undefined) throw new SigningIdentityError(`the signing key must be RSA or ECDSA on P-256, P-384 or P-521 (found ${algorithm})`);
  return webcrypto.subtle.importKey('pkcs8', toArrayBuffer(pkcs8), { name: 'ECDSA', namedCurve: curve }, false, ['sign']);
}

function publicKeyOf(pkcs8: Uint8Array): Buffer {
  return createPublicKey(createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' })).export({ type: 'spki', format: 'der' });
}

function isSelfIssued(certificate: pkijs.Certificate): boolean {
  return Buffer.from(certificate.issuer.toSchema().toBER(false)).equals(Buffer.from(certificate.subject.toSchema().toBER(false)));
}

async function identityOf(certificates: pkijs.Certificate[], pkcs8: Uint8Array, selfSigned?: boolean): Promise<SigningIdentity> {
  const publicKey = publicKeyOf(pkcs8);
  const certificate = certificates.find((candidate) => der(candidate.subjectPublicKeyInfo).equals(publicKey));
  if (!certificate) throw new SigningIdentityError('no certificate matches the signing key');
  return {
    certificate,
    chain: certificates.filter((other) => other !== certificate),
    privateKey: await importSigningKey(pkcs8),
    selfSigned: selfSigned ?? isSelfIssued(certificate),
  };
}

/**
 * The certificate and key of a PKCS#12 file, with any other certificate it holds as the chain.
 * pkijs decrypts PBES2 (what OpenSSL 3 and current tools write); files made with the legacy
 * RC2/3DES algorithms are refused with a hint to export them again.
 */
export async function identityFromP12(p12: Buffer, password: string): Promise<SigningIdentity> {
  const secret = toArrayBuffer(Buffer.from(password, 'utf8'));
  const certificates: pkijs.Certificate[] = [];
  const keys: Uint8Array[] = [];
  try {
    const pfx = parseDer(p12, (schema) => new pkijs.PFX({ schema }));
    await pfx.parseInternalValues({ password: secret, checkIntegrity: true });
    const safe = pfx.parsedValue?.authenticatedSafe;
    if (!safe) throw new SigningIdentityError('the PKCS#12 file holds nothing');
    await safe.parseInternalValues({ safeContents: safe.safeContents.map(() => ({ password: secret })) });
    for (const contents of safe.parsedValue?.safeContents ?? []) {
      for (const bag of contents.value.safeBags) {
        if (bag.bagId === BAG.certificate && bag.bagValue instanceof pkijs.CertBag && bag.bagValue.parsedValue instanceof pkijs.Certificate) {
          certificates.push(bag.bagValue.parsedValue);
        } else if (bag.bagId === BAG.shroudedKey && bag.bagValue instanceof pkijs.PKCS8ShroudedKeyBag) {
          await bag.bagValue.parseInternalValues({ password: secret });
          if (bag.bagValue.parsedValue) keys.push(new Uint8Array(bag.bagValue.parsedValue.toSchema().toBER(false)));
        } else if (bag.bagId === BAG.key && bag.bagValue instanceof pkijs.PrivateKeyInfo) {
          keys.push(new Uint8Array(bag.bagValue.toSchema().toBER(false)));
        }
      }
    }
  } catch (error) {
    if (error instanceof SigningIdentityError) throw error;
    throw new SigningIdentityError(
      `cannot read SIGNING_P12 (wrong SIGNING_P12_PASSWORD, or legacy encryption: export it again with AES, e.g. openssl pkcs12 -export without -legacy): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const [key] = keys;
  if (key === undefined || keys.length > 1) throw new SigningIdentityError(`SIGNING_P12 must hold exactly one private key (found ${keys.length})`);
  return identityOf(certificates, key);
}

/** A stored identity: the certificate (DER) and its PKCS#8 key, both base64. */
export interface StoredIdentity {
  certificate: string;
  privateKey: string;
}

export async function identityFromStored(stored: StoredIdentity): Promise<SigningIdentity> {
  const certificate = parseDer(Buffer.from(stored.certificate, 'base64'), (schema) => new pkijs.Certificate({ schema }));
  return identityOf([certificate], Buffer.from(stored.privateKey, 'base64'), true);
}

/** Whether a certificate's serial number is a positive INTEGER in minimal DER, as RFC 5280 §4.1.2.2 asks. */
export function hasDerSerial(certificate: pkijs.Certificate): boolean {
  const bytes = new Uint8Array(certificate.serialNumber.valueBlock.valueHexView);
  const [first = 0, second = 0] = bytes;
  if (bytes.length === 0 || first >= 0x80) return false;
  return bytes.length === 1 || first !== 0 || second >= 0x80;
}

function name(commonName: string): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [new pkijs.AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: commonName }) })],
  });
}

/**
 * A self-signed RSA certificate for signing documents (or, with `timeStamping`, timestamps), valid
 * for `years` from `now`. It is its own trust anchor, so it is marked as a CA that may sign.
 */
export async function makeSelfSignedIdentity(options: { commonName: string; now: Date; years: number; timeStamping?: boolean }): Promise<StoredIdentity> {
  const keys = await webcrypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  );
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = new asn1js.Integer({ valueHex: toArrayBuffer(positiveInteger(randomBytes(16))) });
  certificate.issuer = name(options.commonName);
  certificate.subject = name(options.commonName);
  // An hour back, so a signature made at once is inside the validity even with clocks apart.
  certificate.notBefore.value = new Date(options.now.getTime() - 3_600_000);
  const notAfter = new Date(options.now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + options.years);
  certificate.notAfter.value = notAfter;
  // digitalSignature, nonRepudiation and keyCertSign: bits 0, 1 and 5 of the first byte.
  const keyUsage = new asn1js.BitString({ valueHex: toArrayBuffer(new Uint8Array([0b1100_0100])), unusedBits: 2 });
  certificate.extensions = [
    new pkijs.Extension({ extnID: OID.basicConstraints, critical: true, extnValue: new pkijs.BasicConstraints({ cA: true }).toSchema().toBER(false) }),
    new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: keyUsage.toBER(false) }),
    ...(options.timeStamping
      ? [
          new pkijs.Extension({
            extnID: OID.extKeyUsage,
            critical: true,
            extnValue: new pkijs.ExtKeyUsage({ keyPurposes: [OID.timeStamping] }).toSchema().toBER(false),
          }),
        ]
      : []),
  ];
  await certificate.subjectPublicKeyInfo.importKey(keys.publicKey);
  await certificate.sign(keys.privateKey, 'SHA-256');
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certificate: der(certificate).toString('base64'), privateKey: Buffer.from(pkcs8).toString('base64') };
}

/** The certificate as PEM, for operators to hand to verifiers as trusted. */
export function certificatePem(certificate: pkijs.Certificate): string {
  const base64 = der(certificate).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
}
