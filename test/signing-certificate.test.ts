import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { findProcessByCode, listParticipants } from '../src/documents/queries.js';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { certificatePem } from '../src/pdf-signing/signing-identity.js';
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

async function sealedPdf(svc: TestService): Promise<Buffer> {
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
  expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
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
});

/** The environment of a running test service, for a second instance on the same store. */
function configEnv(svc: TestService): Record<string, string> {
  return {
    DATA_DIR: svc.config.dataDir,
    LOG_LEVEL: 'silent',
    ...(svc.config.databaseUrl ? { DATABASE_URL: svc.config.databaseUrl, DATABASE_SCHEMA: svc.config.databaseSchema } : {}),
  };
}
