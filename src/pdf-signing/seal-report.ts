import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import type { PadesLevel } from './pades-level.js';
import { OID, parseDer, pkijs } from './pki.js';
import { commonNameOf, isSelfIssued } from './revocation.js';
import { type SignatureBytes, signaturesOf } from './signature-contents.js';
import { certificatesOfSignature, signatureTimestampsOf } from './validation-data.js';

/** A timestamp a file carries: over the seal's signature value, or over the whole document (B-LTA). */
export interface TimestampReport {
  kind: 'signature' | 'document';
  /** The authority's genTime, ISO 8601. */
  at: string;
  /** The common name of the certificate that signed the token. */
  authority: string;
}

/** What the last signature of a PDF (the instance's seal, in a final file) reached. */
export interface SealReport {
  level: PadesLevel;
  /** Common names from the signer's certificate up to the last issuer the file carries. */
  chain: string[];
  timestamps: TimestampReport[];
  /** OCSP answers or CRLs for it kept in the file's DSS. */
  revocationData: boolean;
}

function signedDataOf(cms: Buffer): pkijs.SignedData | undefined {
  try {
    return new pkijs.SignedData({ schema: parseDer(cms, (schema) => new pkijs.ContentInfo({ schema })).content });
  } catch {
    return undefined;
  }
}

function isTimestampToken(signed: pkijs.SignedData): boolean {
  return signed.encapContentInfo.eContentType === OID.tstInfo;
}

/** The certificate the first signer of `signed` names (issuer and serial number), among `among`. */
function signerCertificate(signed: pkijs.SignedData, among: pkijs.Certificate[]): pkijs.Certificate | undefined {
  const sid = signed.signerInfos[0]?.sid;
  if (!(sid instanceof pkijs.IssuerAndSerialNumber)) return undefined;
  return among.find((certificate) => certificate.serialNumber.isEqual(sid.serialNumber) && certificate.issuer.isEqual(sid.issuer));
}

/** The common names from `leaf` up through the issuers found among `among`. */
export function chainNames(leaf: pkijs.Certificate, among: pkijs.Certificate[]): string[] {
  const chain = [leaf];
  for (let current = leaf; !isSelfIssued(current) && chain.length < 10; ) {
    const issuer = among.find((candidate) => candidate.subject.isEqual(current.issuer));
    if (!issuer) break;
    chain.push(issuer);
    current = issuer;
  }
  return chain.map(commonNameOf);
}

function timestampOf(token: pkijs.SignedData, kind: TimestampReport['kind']): TimestampReport | undefined {
  const eContent = token.encapContentInfo.eContent;
  if (!eContent) return undefined;
  const info = parseDer(new Uint8Array(eContent.getValue()), (schema) => new pkijs.TSTInfo({ schema }));
  const certificate = signerCertificate(
    token,
    (token.certificates ?? []).filter((c) => c instanceof pkijs.Certificate),
  );
  return { kind, at: info.genTime.toISOString(), authority: certificate ? commonNameOf(certificate) : 'unknown' };
}

/** What the DSS holds for `signature`: its VRI entry, and whether any revocation answer is kept. */
async function dssFor(pdf: Buffer, signature: SignatureBytes): Promise<{ vri: boolean; revocation: boolean }> {
  if (!pdf.includes('/DSS')) return { vri: false, revocation: false };
  const document = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  const dss = document.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  if (!dss) return { vri: false, revocation: false };
  const key = createHash('sha1').update(signature.contents).digest('hex').toUpperCase();
  const vri = dss.lookupMaybe(PDFName.of('VRI'), PDFDict)?.lookupMaybe(PDFName.of(key), PDFDict);
  const count = (dict: PDFDict | undefined, name: string) => dict?.lookupMaybe(PDFName.of(name), PDFArray)?.size() ?? 0;
  return { vri: vri !== undefined, revocation: count(vri, 'OCSP') + count(vri, 'CRL') > 0 || count(dss, 'OCSPs') + count(dss, 'CRLs') > 0 };
}

/**
 * The PAdES level the last CAdES signature of `pdf` reached, read from the file alone: B-T with a
 * signature timestamp, B-LT when the DSS after it has its VRI entry, B-LTA when a document
 * timestamp follows. Undefined when the file carries no CAdES signature.
 */
export async function sealReport(pdf: Buffer): Promise<SealReport | undefined> {
  const signatures = signaturesOf(pdf).map((bytes) => ({ bytes, signed: signedDataOf(bytes.cms) }));
  const sealIndex = signatures.reduce((found, { signed }, index) => (signed !== undefined && !isTimestampToken(signed) ? index : found), -1);
  const seal = signatures[sealIndex];
  if (!seal?.signed) return undefined;
  const certificates = certificatesOfSignature(seal.bytes.cms);
  const leaf = signerCertificate(seal.signed, certificates);
  const signatureTimestamps = signatureTimestampsOf(seal.signed).flatMap((token) => timestampOf(token, 'signature') ?? []);
  const documentTimestamps = signatures
    .slice(sealIndex + 1)
    .flatMap(({ signed }) => (signed && isTimestampToken(signed) ? (timestampOf(signed, 'document') ?? []) : []));
  const dss = await dssFor(pdf, seal.bytes);
  const level: PadesLevel = signatureTimestamps.length === 0 ? 'B-B' : !dss.vri ? 'B-T' : documentTimestamps.length === 0 ? 'B-LT' : 'B-LTA';
  return {
    level,
    chain: leaf ? chainNames(leaf, certificates) : [],
    timestamps: [...signatureTimestamps, ...documentTimestamps],
    revocationData: dss.revocation,
  };
}
