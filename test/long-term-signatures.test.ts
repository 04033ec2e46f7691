import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFRef } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProcessByCode, listParticipants } from '../src/documents/queries.js';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { parseDer, pkijs } from '../src/pdf-signing/pki.js';
import { signaturesOf } from '../src/pdf-signing/signature-contents.js';
import { identityFromP12 } from '../src/pdf-signing/signing-identity.js';
import { onePagePdf } from './support/pdf-files.js';
import { opensslOcspRead, opensslTimestampVerify, pdfsig, pdfToolsInstalled, pdftotext, trustStore } from './support/pdf-tools.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { readAndSign } from './support/signing.js';
import { P12_PASSWORD, startTestCa, type TestCa } from './support/test-ca.js';
import { startTimestampAuthority, type TimestampAuthority } from './support/timestamp-authority.js';

/** What a final file's Document Security Store holds, decoded. */
function dssOf(pdf: PDFDocument) {
  const dss = pdf.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  if (!dss) return undefined;
  const streams = (dict: PDFDict, name: string): Buffer[] =>
    (dict.lookupMaybe(PDFName.of(name), PDFArray)?.asArray() ?? []).map((ref) => {
      const stream = pdf.context.lookup(ref as PDFRef);
      if (!(stream instanceof PDFRawStream)) throw new Error(`${name} holds something other than a stream`);
      return Buffer.from(decodePDFRawStream(stream).decode());
    });
  const vri = dss.lookupMaybe(PDFName.of('VRI'), PDFDict);
  const basic = (der: Buffer) => {
    const response = parseDer(der, (schema) => new pkijs.OCSPResponse({ schema }));
    const bytes = response.responseBytes?.response.valueBlock.valueHexView ?? new Uint8Array();
    return parseDer(bytes, (schema) => new pkijs.BasicOCSPResponse({ schema }));
  };
  return {
    certificates: streams(dss, 'Certs').map((der) => parseDer(der, (schema) => new pkijs.Certificate({ schema }))),
    ocsps: streams(dss, 'OCSPs').map(basic),
    ocspDers: streams(dss, 'OCSPs').map((der) => ({
      der,
      answers: (certificate: pkijs.Certificate) => basic(der).tbsResponseData.responses.some((r) => r.certID.serialNumber.isEqual(certificate.serialNumber)),
    })),
    crls: streams(dss, 'CRLs'),
    vri: vri ? vri.keys().map((key) => key.decodeText()) : [],
  };
}

/** The /SubFilter of each signature dictionary, in the order of the file. */
function subFilters(pdf: Buffer): string[] {
  return [...pdf.toString('latin1').matchAll(/\/SubFilter\s*\/([\w.]+)/g)].map((match) => match[1] ?? '');
}

function pem(pemText: string): pkijs.Certificate {
  const base64 = pemText.replace(/-----[^-]+-----|\s/g, '');
  return parseDer(Buffer.from(base64, 'base64'), (schema) => new pkijs.Certificate({ schema }));
}

describe.each(dialects)('long-term signatures: PAdES B-LT and B-LTA with a real chain, OCSP and a CRL on loopback (%s)', (dialect) => {
  let ca: TestCa;
  let tsa: TimestampAuthority;
  let svc: TestService;
  let nss: string;
  const sealed = new Map<string, { code: string; document: Buffer; certificate: Buffer }>();

  beforeAll(async () => {
    ca = await startTestCa();
    tsa = await startTimestampAuthority({ identity: await identityFromP12(fs.readFileSync(ca.tsa.p12), P12_PASSWORD) });
    svc = await startTestService(dialect, { SIGNING_P12: ca.signer.p12, SIGNING_P12_PASSWORD: P12_PASSWORD, TSA_URLS: tsa.url, PADES_LEVEL: 'B-LT' });
    nss = pdfToolsInstalled ? trustStore(ca.rootPem) : '';
    const chose = await call(svc.app, 'PUT', '/organization', { key: svc.orgB.privateKey, body: { padesLevel: 'B-LTA' } });
    expect(chose.json(), chose.body).toMatchObject({ padesLevel: 'B-LTA' });
  });
  afterAll(async () => {
    await svc.close();
    await tsa.close();
    await ca.close();
  });

  /** A one-signer PDF process of `org`, signed, sealed through the outbox, and its final files. */
  async function sealedOf(org: TestOrganization, name: string) {
    const upload = await call(svc.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: { email: org.email, name, file: onePagePdf(name).toString('base64'), signProfile: [{ name: 'Lena', email: 'lena@people.test' }] },
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const process = await findProcessByCode(svc.deps.db, org.id, upload.json().code);
    if (!process) throw new Error('not stored');
    const [participant] = await listParticipants(svc.deps.db, process.id);
    await readAndSign(svc.deps, { token: participant?.link_token ?? '' });
    await svc.deps.worker.deliverDue();
    const keys = await finalFileKeys(svc.deps.db, process.id);
    const document = keys && (await readBlobBytes(svc.deps.blobs, keys.documents[0] ?? ''));
    const certificate = keys && (await readBlobBytes(svc.deps.blobs, keys.certificate));
    return { code: process.code, processId: process.id, document, certificate };
  }

  async function sealedFiles(org: TestOrganization, name: string) {
    const made = await sealedOf(org, name);
    if (!made.document || !made.certificate) throw new Error(`${name} was not sealed`);
    const files = { code: made.code, document: made.document, certificate: made.certificate };
    sealed.set(name, files);
    return files;
  }

  it('the organizations read their own level: A the instance default (null), B its B-LTA', async () => {
    expect((await call(svc.app, 'GET', '/organization', { key: svc.orgA.privateKey })).json().padesLevel).toBeNull();
    expect((await call(svc.app, 'GET', '/organization', { key: svc.orgB.privateKey })).json().padesLevel).toBe('B-LTA');
    const wrong = await call(svc.app, 'PUT', '/organization', { key: svc.orgA.privateKey, body: { padesLevel: 'B-LTX' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toContain('"padesLevel" must be one of');
  });

  it("B-LT: an incremental update after the seal holds a DSS with the chain, the OCSP answers (good) of both the signer's and the TSA's certificates, and a VRI keyed by the SHA-1 of the signature's /Contents", async () => {
    const { document, certificate } = await sealedFiles(svc.orgA, 'Lease B-LT');
    for (const file of [document, certificate]) {
      expect(subFilters(file).slice(-1)).toEqual(['ETSI.CAdES.detached']);
      const [signature] = signaturesOf(file).slice(-1);
      if (!signature) throw new Error('no signature');
      // The DSS comes after the signature: the signed revision ends before it.
      expect(file.length).toBeGreaterThan(signature.content.length + signature.contents.length * 2 + 2);
      const dss = dssOf(await PDFDocument.load(file, { updateMetadata: false }));
      if (!dss) throw new Error('no DSS');
      const root = pem(ca.rootPem);
      const signer = pem(ca.signer.pem);
      const timestamper = pem(ca.tsa.pem);
      for (const expected of [root, signer, timestamper]) expect(dss.certificates.some((c) => c.subject.isEqual(expected.subject))).toBe(true);
      const statuses = await Promise.all(
        [signer, timestamper].map(async (leaf) => {
          for (const ocsp of dss.ocsps) {
            const status = await ocsp.getCertificateStatus(leaf, root);
            if (status.isForCertificate) return status.status;
          }
          return 'missing';
        }),
      );
      expect(statuses).toEqual([0, 0]);
      expect(dss.vri).toEqual([createHash('sha1').update(signature.contents).digest('hex').toUpperCase()]);
    }
  });

  it.runIf(pdfToolsInstalled)('B-LT: pdfsig reports the signature valid and its certificate trusted through the test root', () => {
    const files = sealed.get('Lease B-LT');
    if (!files) throw new Error('the B-LT test did not seal');
    for (const file of [files.document, files.certificate]) {
      const report = pdfsig(file, nss);
      expect(report, report).toContain('Signature is Valid.');
      expect(report, report).toContain('Certificate is Trusted.');
      expect(report, report).not.toMatch(/Signature #2/);
    }
  });

  it('B-LTA (organization B): after the DSS, a document timestamp (/Type /DocTimeStamp, ETSI.RFC3161) over the whole file before it, from the TSA', async () => {
    const { document } = await sealedFiles(svc.orgB, 'Lease B-LTA');
    expect(subFilters(document).slice(-2)).toEqual(['ETSI.CAdES.detached', 'ETSI.RFC3161']);
    expect(document.toString('latin1')).toContain('/Type /DocTimeStamp');
    const [signature, timestamp] = signaturesOf(document).slice(-2);
    if (!signature || !timestamp) throw new Error('no document timestamp');
    const token = new pkijs.SignedData({ schema: parseDer(timestamp.cms, (schema) => new pkijs.ContentInfo({ schema })).content });
    // The token is over every byte before its own /Contents, the DSS update included.
    expect(timestamp.content.length).toBeGreaterThan(signature.content.length + signature.contents.length * 2 + 2);
    expect(await token.verify({ signer: 0, data: new Uint8Array(timestamp.content).buffer, trustedCerts: [pem(ca.rootPem)], checkChain: true })).toBe(true);
    expect(dssOf(await PDFDocument.load(document, { updateMetadata: false }))?.ocsps).toHaveLength(2);
  });

  it.runIf(pdfToolsInstalled)(
    'B-LTA: pdfsig reports the signature valid and finds the document timestamp covering the whole file; openssl ts verifies the timestamp against the test root',
    () => {
      const files = sealed.get('Lease B-LTA');
      if (!files) throw new Error('the B-LTA test did not seal');
      const report = pdfsig(files.document, nss);
      const [signature, timestamp] = report.split(/Signature #\d+:/).slice(1);
      expect(signature, report).toContain('Signature is Valid.');
      expect(signature, report).toContain('Certificate is Trusted.');
      // Poppler names the document timestamp and what it covers but does not validate ETSI.RFC3161 tokens.
      expect(timestamp, report).toContain('Signer Certificate Common Name: Test Timestamp Authority');
      expect(timestamp, report).toContain('Total document signed');
      const token = signaturesOf(files.document).at(-1);
      if (!token) throw new Error('no document timestamp');
      const verified = opensslTimestampVerify(token.cms, token.content, ca.rootPem);
      expect(verified.status, verified.output).toBe(0);
      expect(verified.output).toContain('Verification: OK');
    },
  );

  it('/verify and its page show the level each file reached, its chain, its timestamps (time and authority) and that revocation data is embedded', async () => {
    const verify = async (pdf: Buffer, accept = 'application/json') =>
      svc.app.inject({ method: 'POST', url: '/verify', headers: { 'content-type': 'application/pdf', accept, 'accept-language': 'en' }, payload: pdf });
    const lt = sealed.get('Lease B-LT');
    const lta = sealed.get('Lease B-LTA');
    if (!lt || !lta) throw new Error('the B-LT and B-LTA tests did not seal');
    const stamp = (kind: string) => ({ kind, at: expect.any(String), authority: 'Test Timestamp Authority' });
    const chain = ['Test Document Seal', 'Test Root CA'];
    for (const file of [lt.document, lt.certificate]) {
      expect((await verify(file)).json()).toMatchObject({
        result: 'unchanged',
        process: { code: lt.code },
        seal: { level: 'B-LT', chain, timestamps: [stamp('signature')], revocationData: true },
      });
    }
    const answer = (await verify(lta.document)).json();
    expect(answer).toMatchObject({
      process: { code: lta.code },
      seal: { level: 'B-LTA', chain, timestamps: [stamp('signature'), stamp('document')], revocationData: true },
    });
    expect(Date.parse(answer.seal.timestamps[1].at)).toBeGreaterThanOrEqual(Date.parse(answer.seal.timestamps[0].at) - 1000);
    const page = (await verify(lta.document, 'text/html')).body;
    expect(page).toContain('B-LTA: as B-LT, plus a timestamp over the whole document');
    expect(page).toContain('Test Document Seal → Test Root CA');
    expect(page).toContain('Test Timestamp Authority (over the document)');
    expect(page).toMatch(/Revocation data embedded<\/dt><dd>yes/);
  });

  it.runIf(pdfToolsInstalled)(
    "the evidence certificate states each organization's level, the seal's chain, its timestamps and whether revocation data is embedded, in the organization's language",
    () => {
      const lt = sealed.get('Lease B-LT');
      const lta = sealed.get('Lease B-LTA');
      if (!lt || !lta) throw new Error('the B-LT and B-LTA tests did not seal');
      const text = (pdf: Buffer) => pdftotext(pdf).replace(/\s+/g, ' ');
      for (const file of [lt.document, lt.certificate]) {
        const written = text(file);
        expect(written).toContain('Sello digital');
        expect(written).toContain('B-LT: firma con sello de tiempo');
        expect(written).toContain('Test Document Seal → Test Root CA');
        expect(written).toMatch(/Datos de revocación incluidos:? sí/);
      }
      expect(text(lta.certificate)).toContain('B-LTA: como B-LT, más un sello de tiempo sobre todo el documento');
      expect(text(lta.certificate)).toContain('uno sobre la firma y otro sobre todo el documento');
    },
  );

  it('B-LT with the OCSP responder down: the CRL its certificates name is embedded instead, once for both', async () => {
    await ca.stopResponder();
    try {
      const { document } = await sealedFiles(svc.orgA, 'Lease B-LT by CRL');
      const dss = dssOf(await PDFDocument.load(document, { updateMetadata: false }));
      expect(dss?.ocsps).toEqual([]);
      expect(dss?.crls).toHaveLength(1);
      const crl = parseDer(dss?.crls[0] ?? Buffer.alloc(0), (schema) => new pkijs.CertificateRevocationList({ schema }));
      expect(await crl.verify({ issuerCertificate: pem(ca.rootPem) })).toBe(true);
      expect(crl.isCertificateRevoked(pem(ca.signer.pem))).toBe(false);
    } finally {
      await ca.startResponder();
    }
  });

  it("the signer's certificate revoked after sealing: the B-LT file still validates at its signing time with the good OCSP answer it embeds; a new seal is refused and waits", async () => {
    const files = sealed.get('Lease B-LT');
    if (!files) throw new Error('the B-LT test did not seal');
    await ca.revoke(ca.signer);
    const pdf = await PDFDocument.load(files.document, { updateMetadata: false });
    const signer = pem(ca.signer.pem);
    const embedded = dssOf(pdf)?.ocspDers.find((der) => der.answers(signer));
    if (!embedded) throw new Error("no OCSP answer for the signer's certificate");
    // The answer the file keeps was given before the revocation, at the seal: good, and the responder's signature checks.
    const read = opensslOcspRead(embedded.der, ca.rootPem, ca.signer.pem);
    expect(read.status, read.output).toBe(0);
    expect(read.output).toContain('Response verify OK');
    expect(read.output).toMatch(/\.pem: good\n/);
    if (pdfToolsInstalled) {
      const report = pdfsig(files.document, nss);
      // Poppler asks the responder again (now: revoked) and ignores the DSS; the signature itself stays valid.
      expect(report, report).toContain('Signature is Valid.');
      expect(report, report).toContain('Certificate has been Revoked.');
    }

    const refused = await sealedOf(svc.orgA, 'After revocation');
    expect(refused.document).toBeUndefined();
    const view = await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code: refused.code } });
    expect(view.json().sealFailure.message).toBe(`the certificate of Test Document Seal is revoked to its OCSP responder ${ca.ocspUrl}`);
    expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code: refused.code } })).json()).toEqual({
      message: 'DOCUMENT_NOT_FOUND',
    });
  });
});
