import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFName, type PDFRef } from 'pdf-lib';
import { IncrementalUpdate } from './incremental-update.js';
import { OID, parseDer, pkijs } from './pki.js';
import { certificateDer, commonNameOf, type RevocationAnswer, RevocationUnavailable, revocationOf } from './revocation.js';
import { lastSignatureOf } from './signature-contents.js';

/*
 * PAdES B-LT (ETSI EN 319 142-1 §5.4): after a signature, the certificates of its chain and of its
 * timestamp's, and what their issuers said of them then (OCSP, else CRL), kept in the document's
 * Document Security Store, so the signature can be checked when the responders are long gone.
 */

/** The SignedData of a CMS signature or timestamp token (a ContentInfo, DER). */
function signedDataOf(cms: Uint8Array): pkijs.SignedData {
  return new pkijs.SignedData({ schema: parseDer(cms, (schema) => new pkijs.ContentInfo({ schema })).content });
}

function certificatesIn(signed: pkijs.SignedData): pkijs.Certificate[] {
  return (signed.certificates ?? []).filter((certificate) => certificate instanceof pkijs.Certificate);
}

/** The timestamp tokens a signature carries as unsigned attributes (its signature timestamp). */
export function signatureTimestampsOf(signed: pkijs.SignedData): pkijs.SignedData[] {
  return signed.signerInfos.flatMap((info) =>
    (info.unsignedAttrs?.attributes ?? [])
      .filter((attribute) => attribute.type === OID.signatureTimeStampToken)
      .flatMap((attribute) => attribute.values.map((value) => new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: value }).content }))),
  );
}

/** Every certificate a signature carries, in it and in its timestamp tokens, each once. */
export function certificatesOfSignature(cms: Uint8Array): pkijs.Certificate[] {
  const signed = signedDataOf(cms);
  const seen = new Set<string>();
  return [signed, ...signatureTimestampsOf(signed)].flatMap(certificatesIn).filter((certificate) => {
    const key = certificateDer(certificate).toString('base64');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The revocation answers of one seal, fetched once for all its files: every final file of a
 * process carries the same certificates, asked about at the same moment.
 */
export class RevocationAnswers {
  private readonly answers = new Map<string, Promise<RevocationAnswer>>();

  constructor(private readonly timeoutMs: number) {}

  of(certificate: pkijs.Certificate, issuer: pkijs.Certificate): Promise<RevocationAnswer> {
    const key = certificateDer(certificate).toString('base64');
    let answer = this.answers.get(key);
    if (!answer) {
      answer = revocationOf(certificate, issuer, { timeoutMs: this.timeoutMs });
      this.answers.set(key, answer);
      // A failed answer is asked again by the next seal, not kept.
      answer.catch(() => this.answers.delete(key));
    }
    return answer;
  }
}

export interface ValidationData {
  certificates: Buffer[];
  ocsps: Buffer[];
  crls: Buffer[];
}

function distinct(items: Buffer[]): Buffer[] {
  return items.filter((item, index) => items.findIndex((other) => other.equals(item)) === index);
}

/** Finds each certificate's issuer among those the signature carries; one without is RevocationUnavailable. */
function issuerOf(certificate: pkijs.Certificate, among: pkijs.Certificate[]): pkijs.Certificate {
  const issuer = among.find((candidate) => candidate.subject.isEqual(certificate.issuer));
  if (!issuer)
    throw new RevocationUnavailable(`the signature does not carry the issuer of ${commonNameOf(certificate)}'s certificate: its chain cannot be completed`);
  return issuer;
}

/** The certificates of the signature `cms` and their revocation answers. */
export async function validationDataOf(cms: Uint8Array, answers: RevocationAnswers): Promise<ValidationData> {
  const certificates = certificatesOfSignature(cms);
  const found = await Promise.all(certificates.map((certificate) => answers.of(certificate, issuerOf(certificate, certificates))));
  return {
    certificates: certificates.map(certificateDer),
    ocsps: distinct(found.flatMap((answer) => ('ocsp' in answer ? [answer.ocsp] : []))),
    // One CRL answers for every certificate of its issuer.
    crls: distinct(found.flatMap((answer) => ('crl' in answer ? [answer.crl] : []))),
  };
}

/** The array `name` of `dict`, made when missing. */
function arrayIn(update: IncrementalUpdate, dict: PDFDict, name: string): PDFArray {
  const existing = dict.lookupMaybe(PDFName.of(name), PDFArray);
  if (existing) return existing;
  const made = update.document.context.obj([]);
  dict.set(PDFName.of(name), made);
  return made;
}

/**
 * `pdf` with an incremental update whose /DSS holds the validation data of its last signature,
 * and a VRI entry for that signature keyed by the upper-case hex SHA-1 of its /Contents. A DSS
 * already there (another signer's) is added to.
 */
export async function addValidationData(pdf: Buffer, answers: RevocationAnswers): Promise<Buffer> {
  const signature = lastSignatureOf(pdf);
  const data = await validationDataOf(signature.cms, answers);
  const update = await IncrementalUpdate.open(pdf);
  if (!update) throw new Error('a signed PDF the seal wrote cannot be opened again');
  const { context, catalog } = update.document;
  const streams = (items: Buffer[]): PDFRef[] => items.map((bytes) => context.register(context.flateStream(bytes)));
  const refs = { Cert: streams(data.certificates), OCSP: streams(data.ocsps), CRL: streams(data.crls) };
  const dss = catalog.lookupMaybe(PDFName.of('DSS'), PDFDict) ?? context.obj({});
  if (!catalog.has(PDFName.of('DSS'))) catalog.set(PDFName.of('DSS'), context.register(dss));
  for (const ref of refs.Cert) arrayIn(update, dss, 'Certs').push(ref);
  for (const ref of refs.OCSP) arrayIn(update, dss, 'OCSPs').push(ref);
  for (const ref of refs.CRL) arrayIn(update, dss, 'CRLs').push(ref);
  const vri = dss.lookupMaybe(PDFName.of('VRI'), PDFDict) ?? context.obj({});
  dss.set(PDFName.of('VRI'), vri);
  const key = createHash('sha1').update(signature.contents).digest('hex').toUpperCase();
  vri.set(
    PDFName.of(key),
    context.obj({
      ...(refs.Cert.length > 0 ? { Cert: refs.Cert } : {}),
      ...(refs.OCSP.length > 0 ? { OCSP: refs.OCSP } : {}),
      ...(refs.CRL.length > 0 ? { CRL: refs.CRL } : {}),
    }),
  );
  return update.bytes();
}
