import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createDeps, type Deps } from '../src/deps.js';
import { findProcessByCode, listParticipants } from '../src/documents/queries.js';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { asn1js, parseDer, pkijs, positiveInteger, toArrayBuffer } from '../src/pdf-signing/pki.js';
import { certificatePem, hasDerSerial, identityFromStored, makeSelfSignedIdentity, type StoredIdentity } from '../src/pdf-signing/signing-identity.js';
import { pdfsig, pdfToolsInstalled, trustStore } from './support/pdf-tools.js';
import { call, dialects, PUBLIC_URL, startTestService, type TestService } from './support/service.js';
import { readAndSign } from './support/signing.js';

/** An operator's certificate as a CA would issue it: a root, and a leaf for sealing, in a PKCS#12 made by openssl. */
function issueP12(folder: string, password: string): { p12: string; rootPem: string } {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: folder, stdio: 'pipe' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=Test Root CA');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=Acme Seal/O=Acme');
  fs.writeFileSync(path.join(folder, 'ext'), 'keyUsage=critical,digitalSignature,nonRepudiation\n');
  run('x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'leaf.pem', '-days', '30', '-extfile', 'ext');
  run('pkcs12', '-export', '-inkey', 'leaf.key', '-in', 'leaf.pem', '-certfile', 'ca.pem', '-out', 'seal.p12', '-passout', `pass:${password}`);
  return { p12: path.join(folder, 'seal.p12'), rootPem: fs.readFileSync(path.join(folder, 'ca.pem'), 'utf8') };
}

/** A document uploaded and signed through `svc`, sealed by `sealer` (another instance on the same store, or `svc` itself). */
async function sealedPdf(svc: TestService, sealer: Deps = svc.deps): Promise<Buffer> {
  const document = await PDFDocument.create();
  document
    .addPage([300, 200])
    .drawText('Sealed with the operator certificate', { x: 20, y: 100, size: 10, font: await document.embedFont(StandardFonts.Helvetica) });
  const res = await call(svc.app, 'POST', '/document/upload', {
    key: svc.orgA.privateKey,
    body: {
      email: svc.orgA.email,
      name: 'Operator',
      file: Buffer.from(await document.save()).toString('base64'),
      signProfile: [{ name: 'Oscar', email: 'oscar@people.test' }],
    },
  });
  const process = await findProcessByCode(svc.deps.db, svc.orgA.id, res.json().code);
  if (!process) throw new Error('not stored');
  const [participant] = await listParticipants(svc.deps.db, process.id);
  await readAndSign(svc.deps, { token: participant?.link_token ?? '' });
  expect(await sealProcess(sealer, { processId: process.id })).toBe(true);
  expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.publicKey, query: { code: res.json().code } })).statusCode).toBe(400);
  const key = (await finalFileKeys(svc.deps.db, process.id))?.documents[0] ?? '';
  return (await readBlobBytes(svc.deps.blobs, key)) ?? Buffer.alloc(0);
}

describe.each(dialects)('the certificate final documents are signed with (%s)', (dialect) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'p12-'));
  let issued: { p12: string; rootPem: string };
  beforeAll(() => {
    issued = issueP12(folder, 's3cret');
  });
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it.runIf(pdfToolsInstalled)(
    'SIGNING_P12 as a path or in base64: the PKCS#12 certificate signs, with its chain, and is trusted through its root',
    async () => {
      for (const source of [issued.p12, fs.readFileSync(issued.p12).toString('base64')]) {
        const svc = await startTestService(dialect, { SIGNING_P12: source, SIGNING_P12_PASSWORD: 's3cret' });
        try {
          expect(svc.deps.documentSigner.identity.selfSigned).toBe(false);
          expect(svc.deps.documentSigner.identity.chain).toHaveLength(1);
          const report = pdfsig(await sealedPdf(svc), trustStore(issued.rootPem));
          expect(report).toContain('Signer full Distinguished Name: O=Acme,CN=Acme Seal');
          expect(report).toContain('Signature Validation: Signature is Valid.');
          expect(report).toContain('Certificate Validation: Certificate is Trusted.');
        } finally {
          await svc.close();
        }
      }
    },
  );

  it('a wrong SIGNING_P12_PASSWORD stops the service at start with a message naming the setting', async () => {
    await expect(startTestService(dialect, { SIGNING_P12: issued.p12, SIGNING_P12_PASSWORD: 'wrong' })).rejects.toThrow(
      /^Invalid configuration: SIGNING_P12: /,
    );
  });

  it('without SIGNING_P12 the first instance makes a self-signed certificate, kept in the database: a second instance signs with the same one', async () => {
    const svc = await startTestService(dialect);
    try {
      expect(svc.deps.documentSigner.identity.selfSigned).toBe(true);
      const second = await createDeps(loadConfig({ ...configEnv(svc), PUBLIC_URL }));
      try {
        expect(certificatePem(second.documentSigner.identity.certificate)).toBe(certificatePem(svc.deps.documentSigner.identity.certificate));
      } finally {
        await second.close();
      }
    } finally {
      await svc.close();
    }
  });

  it.runIf(pdfToolsInstalled)(
    "a kept certificate whose serial NSS cannot read (seals: 'Unknown Validation Failure') is replaced at the next start; its replacement's seals verify, and every instance signs with it",
    async () => {
      const svc = await startTestService(dialect);
      const opened: Deps[] = [];
      const instance = async () => {
        const deps = await createDeps(loadConfig({ ...configEnv(svc), PUBLIC_URL }));
        opened.push(deps);
        return deps;
      };
      try {
        const broken = await identityWithNonMinimalSerial();
        await svc.deps.db
          .updateTable('settings')
          .set({ value: JSON.stringify(broken) })
          .where('key', '=', 'document_signing_identity')
          .execute();
        const old = await instance();
        expect(old.documentSigner.identity.replacedUnverifiable).toBe(true);
        expect(hasDerSerial(old.documentSigner.identity.certificate)).toBe(true);
        expect(certificatePem(old.documentSigner.identity.certificate)).not.toContain(broken.certificate.slice(0, 64));

        const next = await instance();
        expect(next.documentSigner.identity.replacedUnverifiable).toBeUndefined();
        expect(certificatePem(next.documentSigner.identity.certificate)).toBe(certificatePem(old.documentSigner.identity.certificate));

        const report = pdfsig(await sealedPdf(svc, next), trustStore(certificatePem(next.documentSigner.identity.certificate)));
        expect(report).toContain('Signature Validation: Signature is Valid.');
        expect(report).toContain('Certificate Validation: Certificate is Trusted.');
      } finally {
        for (const deps of opened) await deps.close();
        await svc.close();
      }
    },
  );

  it.runIf(pdfToolsInstalled)('what the replacement fixes: a seal made with a serial of 0x00 then 0x10 does not verify in pdfsig', async () => {
    const svc = await startTestService(dialect);
    try {
      const broken = await identityWithNonMinimalSerial();
      const sealer = { ...svc.deps, documentSigner: { ...svc.deps.documentSigner, identity: await identityFromStored(broken) } };
      const report = pdfsig(await sealedPdf(svc, sealer), trustStore(certificatePem(sealer.documentSigner.identity.certificate)));
      expect(report).toContain('Signature Validation: Unknown Validation Failure.');
    } finally {
      await svc.close();
    }
  });
});

/** A self-signed identity as instances made them before 26 November 2026 one time in 256: its serial's first byte 0x00, then one below 0x80. */
async function identityWithNonMinimalSerial(): Promise<StoredIdentity> {
  const made = await makeSelfSignedIdentity({ commonName: 'Document seal of 127.0.0.1', now: new Date(), years: 10 });
  const certificate = parseDer(Buffer.from(made.certificate, 'base64'), (schema) => new pkijs.Certificate({ schema }));
  certificate.serialNumber = new asn1js.Integer({ valueHex: toArrayBuffer(Uint8Array.from([0x00, 0x10, ...Array(14).fill(0x5a)])) });
  const key = await crypto.subtle.importKey('pkcs8', Buffer.from(made.privateKey, 'base64'), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
  await certificate.sign(key, 'SHA-256');
  return { certificate: Buffer.from(certificate.toSchema().toBER(false)).toString('base64'), privateKey: made.privateKey };
}

describe('a self-signed certificate has a positive serial number in minimal DER (RFC 5280 §4.1.2.2), as a timestamp request has its nonce', () => {
  it('whatever the random bytes: the first byte between 0x40 and 0x7f, sixteen bytes long', () => {
    for (let first = 0; first < 256; first++) {
      for (const second of [0x00, 0x7f, 0x80, 0xff]) {
        const serial = positiveInteger(Uint8Array.from([first, second, ...Array(14).fill(first)]));
        const certificate = new pkijs.Certificate();
        certificate.serialNumber = new asn1js.Integer({ valueHex: toArrayBuffer(serial) });
        expect(hasDerSerial(certificate)).toBe(true);
        expect(serial).toHaveLength(16);
        expect(serial[0]).toBeGreaterThanOrEqual(0x40);
        expect(serial[0]).toBeLessThan(0x80);
      }
    }
  });

  it('a serial of 0x00 then a byte below 0x80, or a negative one, is not minimal DER', () => {
    for (const bytes of [
      [0x00, 0x10],
      [0xff, 0x80],
      [0x80, 0x01],
    ]) {
      const certificate = new pkijs.Certificate();
      certificate.serialNumber = new asn1js.Integer({ valueHex: toArrayBuffer(Uint8Array.from(bytes)) });
      expect(hasDerSerial(certificate)).toBe(false);
    }
  });
});

/** The environment of a running test service, for a second instance on the same store. */
function configEnv(svc: TestService): Record<string, string> {
  return {
    DATA_DIR: svc.config.dataDir,
    LOG_LEVEL: 'silent',
    ...(svc.config.databaseUrl ? { DATABASE_URL: svc.config.databaseUrl, DATABASE_SCHEMA: svc.config.databaseSchema } : {}),
  };
}
