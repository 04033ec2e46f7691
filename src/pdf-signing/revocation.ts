import { LevelUnreachable } from './level-unreachable.js';
import { OID, parseDer, pkijs } from './pki.js';

/** What a certificate's issuer said of it when the seal was made: an OCSP response, else a CRL (DER). */
export type RevocationAnswer = { ocsp: Buffer } | { crl: Buffer } | { none: 'self-issued' };

/** No responder gave a good answer for a certificate of the signature, or it is revoked. */
export class RevocationUnavailable extends LevelUnreachable {}

const ACCESS = { infoAccess: '1.3.6.1.5.5.7.1.1', ocsp: '1.3.6.1.5.5.7.48.1', crlDistributionPoints: '2.5.29.31' } as const;
/** A GeneralName holding a URI. */
const URI_NAME = 6;

export function isSelfIssued(certificate: pkijs.Certificate): boolean {
  return certificate.issuer.isEqual(certificate.subject);
}

export function commonNameOf(certificate: pkijs.Certificate): string {
  const value = certificate.subject.typesAndValues.find((t) => t.type === OID.commonName)?.value.valueBlock.value;
  return typeof value === 'string' ? value : certificate.subject.typesAndValues.map((t) => String(t.value.valueBlock.value)).join(', ');
}

function uris(names: pkijs.GeneralName[]): string[] {
  return names.filter((name) => name.type === URI_NAME && typeof name.value === 'string').map((name) => String(name.value));
}

/** The OCSP responders the certificate names (Authority Information Access). */
export function ocspUrlsOf(certificate: pkijs.Certificate): string[] {
  const access = certificate.extensions?.find((extension) => extension.extnID === ACCESS.infoAccess)?.parsedValue;
  if (!(access instanceof pkijs.InfoAccess)) return [];
  return uris(access.accessDescriptions.filter((description) => description.accessMethod === ACCESS.ocsp).map((description) => description.accessLocation));
}

/** Where the certificate's CRLs are published (CRL distribution points). */
export function crlUrlsOf(certificate: pkijs.Certificate): string[] {
  const points = certificate.extensions?.find((extension) => extension.extnID === ACCESS.crlDistributionPoints)?.parsedValue;
  if (!(points instanceof pkijs.CRLDistributionPoints)) return [];
  return points.distributionPoints.flatMap((point) => (Array.isArray(point.distributionPoint) ? uris(point.distributionPoint) : []));
}

async function post(url: string, body: Uint8Array<ArrayBuffer>, timeoutMs: number): Promise<Uint8Array> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/ocsp-request' },
    body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function get(url: string, timeoutMs: number): Promise<Uint8Array> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

const STATUS = ['good', 'revoked', 'unknown'] as const;

/** The OCSP response of `url` for `certificate`: signed by its issuer (or a responder it delegated to) and saying good. */
async function ocspAnswer(url: string, certificate: pkijs.Certificate, issuer: pkijs.Certificate, timeoutMs: number): Promise<Buffer> {
  const request = new pkijs.OCSPRequest();
  // SHA-1 CertIDs are what every responder understands (RFC 5019 §2.1.1).
  await request.createForCertificate(certificate, { hashAlgorithm: 'SHA-1', issuerCertificate: issuer });
  const der = await post(url, new Uint8Array(request.toSchema(true).toBER(false)), timeoutMs);
  const response = parseDer(der, (schema) => new pkijs.OCSPResponse({ schema }));
  if (response.responseStatus.valueBlock.valueDec !== 0 || !response.responseBytes) {
    throw new Error(`the responder refused (status ${response.responseStatus.valueBlock.valueDec})`);
  }
  const basic = parseDer(new Uint8Array(response.responseBytes.response.valueBlock.valueHexView), (schema) => new pkijs.BasicOCSPResponse({ schema }));
  if (!(await basic.verify({ trustedCerts: [issuer], issuerCerts: [issuer] }))) throw new Error("the response's signature does not verify");
  const { isForCertificate, status } = await basic.getCertificateStatus(certificate, issuer);
  if (!isForCertificate) throw new Error('the response is about another certificate');
  if (status !== 0)
    throw new RevocationUnavailable(`the certificate of ${commonNameOf(certificate)} is ${STATUS[status] ?? 'unknown'} to its OCSP responder ${url}`);
  return Buffer.from(der);
}

/** The CRL at `url`, signed by `issuer`, not listing `certificate`. */
async function crlAnswer(url: string, certificate: pkijs.Certificate, issuer: pkijs.Certificate, timeoutMs: number): Promise<Buffer> {
  const der = await get(url, timeoutMs);
  const crl = parseDer(der, (schema) => new pkijs.CertificateRevocationList({ schema }));
  if (!(await crl.verify({ issuerCertificate: issuer }))) throw new Error("the CRL's signature does not verify");
  if (crl.isCertificateRevoked(certificate)) throw new RevocationUnavailable(`the certificate of ${commonNameOf(certificate)} is revoked in the CRL ${url}`);
  return Buffer.from(der);
}

/**
 * What the issuer of `certificate` says of it now: the first good OCSP answer of the responders it
 * names, else its CRL. A trust anchor (self-issued) has no one to answer for it. Revoked, or no
 * answer from anyone, is RevocationUnavailable: the seal waits rather than embed nothing.
 */
export async function revocationOf(certificate: pkijs.Certificate, issuer: pkijs.Certificate, options: { timeoutMs: number }): Promise<RevocationAnswer> {
  if (isSelfIssued(certificate)) return { none: 'self-issued' };
  const failures: string[] = [];
  for (const [urls, answer] of [
    [ocspUrlsOf(certificate), async (url: string) => ({ ocsp: await ocspAnswer(url, certificate, issuer, options.timeoutMs) })],
    [crlUrlsOf(certificate), async (url: string) => ({ crl: await crlAnswer(url, certificate, issuer, options.timeoutMs) })],
  ] as const) {
    for (const url of urls) {
      try {
        return await answer(url);
      } catch (error) {
        if (error instanceof RevocationUnavailable) throw error;
        failures.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  const tried = failures.length === 0 ? 'it names no OCSP responder nor CRL' : failures.join('; ');
  throw new RevocationUnavailable(`no revocation answer for the certificate of ${commonNameOf(certificate)} (${tried}): the seal is tried again`);
}

/** The DER of a certificate. */
export function certificateDer(certificate: pkijs.Certificate): Buffer {
  return Buffer.from(certificate.toSchema().toBER(false));
}
