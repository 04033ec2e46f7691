import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/*
 * A certificate authority as a real one works, on loopback: a root made by openssl, which issues
 * the document seal's certificate and the timestamp authority's, each naming where to ask about
 * it (AIA OCSP and CRL distribution points); an `openssl ocsp` responder reading the CA's index,
 * and its CRL served over HTTP. `revoke` revokes a certificate and restarts the responder, as a
 * CA's operator would.
 */

export interface IssuedCertificate {
  /** The PKCS#12 (leaf key, leaf certificate, root) as SIGNING_P12 reads it; password PASSWORD. */
  p12: string;
  pem: string;
  file: string;
}

export interface TestCa {
  rootPem: string;
  signer: IssuedCertificate;
  tsa: IssuedCertificate;
  ocspUrl: string;
  crlUrl: string;
  /** Revokes the certificate in the CA's index and CRL, and restarts the responder to read it. */
  revoke(certificate: IssuedCertificate): Promise<void>;
  /** Stops the OCSP responder (its port refuses connections): only the CRL answers. */
  stopResponder(): Promise<void>;
  startResponder(): Promise<void>;
  close(): Promise<void>;
}

export const P12_PASSWORD = 'test-ca';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function caConfig(dir: string, ocspUrl: string, crlUrl: string): string {
  const located = [`authorityInfoAccess = OCSP;URI:${ocspUrl}`, `crlDistributionPoints = URI:${crlUrl}`];
  return [
    '[ca]',
    'default_ca = test_ca',
    '[test_ca]',
    `dir = ${dir}`,
    'database = $dir/index.txt',
    'serial = $dir/serial',
    'crlnumber = $dir/crlnumber',
    'new_certs_dir = $dir/issued',
    'certificate = $dir/ca.pem',
    'private_key = $dir/ca.key',
    'default_md = sha256',
    'default_days = 365',
    'default_crl_days = 30',
    'policy = any',
    'unique_subject = no',
    'copy_extensions = none',
    '[any]',
    'commonName = supplied',
    'organizationName = optional',
    '[seal]',
    'basicConstraints = critical,CA:FALSE',
    'keyUsage = critical,digitalSignature,nonRepudiation',
    ...located,
    '[timestamps]',
    'basicConstraints = critical,CA:FALSE',
    'keyUsage = critical,digitalSignature',
    'extendedKeyUsage = critical,timeStamping',
    ...located,
    '',
  ].join('\n');
}

/** `YYMMDDHHMMSSZ` an hour back: certificates valid before the test's first signature, whatever the clocks. */
function anHourAgo(): string {
  return `${new Date(Date.now() - 3_600_000).toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`;
}

export async function startTestCa(): Promise<TestCa> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-ca-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const [ocspPort, crlPort] = [await freePort(), await freePort()];
  const ocspUrl = `http://127.0.0.1:${ocspPort}/`;
  const crlUrl = `http://127.0.0.1:${crlPort}/root.crl`;
  fs.mkdirSync(path.join(dir, 'issued'));
  fs.writeFileSync(path.join(dir, 'index.txt'), '');
  fs.writeFileSync(path.join(dir, 'serial'), '1000\n');
  fs.writeFileSync(path.join(dir, 'crlnumber'), '1000\n');
  fs.writeFileSync(path.join(dir, 'ca.cnf'), caConfig(dir, ocspUrl, crlUrl));
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '3650', '-subj', '/CN=Test Root CA/O=Test CA');
  const gencrl = () => {
    openssl('ca', '-batch', '-config', 'ca.cnf', '-gencrl', '-out', 'root.crl.pem');
    openssl('crl', '-in', 'root.crl.pem', '-outform', 'DER', '-out', 'root.crl');
  };
  const issue = (name: string, subject: string, extensions: string): IssuedCertificate => {
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    openssl('ca', '-batch', '-notext', '-config', 'ca.cnf', '-extensions', extensions, '-startdate', anHourAgo(), '-in', `${name}.csr`, '-out', `${name}.pem`);
    openssl(
      'pkcs12',
      '-export',
      '-inkey',
      `${name}.key`,
      '-in',
      `${name}.pem`,
      '-certfile',
      'ca.pem',
      '-out',
      `${name}.p12`,
      '-passout',
      `pass:${P12_PASSWORD}`,
    );
    return { p12: path.join(dir, `${name}.p12`), file: path.join(dir, `${name}.pem`), pem: fs.readFileSync(path.join(dir, `${name}.pem`), 'utf8') };
  };
  const signer = issue('signer', '/CN=Test Document Seal/O=Acme Leases', 'seal');
  const tsa = issue('tsa', '/CN=Test Timestamp Authority/O=Test CA', 'timestamps');
  gencrl();

  const crlServer = http.createServer((req, res) => {
    if (req.url !== '/root.crl') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(fs.readFileSync(path.join(dir, 'root.crl')));
  });
  await new Promise<void>((resolve) => crlServer.listen(crlPort, '127.0.0.1', resolve));

  let responder: ChildProcess | undefined;
  const startResponder = async () => {
    responder = spawn(
      'openssl',
      ['ocsp', '-index', 'index.txt', '-port', String(ocspPort), '-rsigner', 'ca.pem', '-rkey', 'ca.key', '-CA', 'ca.pem', '-ignore_err', '-nmin', '60'],
      { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // Listening once it says so: a connection made to find out would hold it, as it serves one at a time.
    const said = responder.stderr;
    if (!said) throw new Error('the OCSP responder has no stderr');
    await new Promise<void>((resolve, reject) => {
      let text = '';
      said.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('waiting for OCSP client connections')) resolve();
      });
      responder?.once('exit', (code) => reject(new Error(`openssl ocsp exited (${code}): ${text}`)));
    });
  };
  const stopResponder = async () => {
    const running = responder;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill();
    });
  };
  await startResponder();

  return {
    rootPem: fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8'),
    signer,
    tsa,
    ocspUrl,
    crlUrl,
    stopResponder,
    startResponder,
    async revoke(certificate) {
      openssl('ca', '-config', 'ca.cnf', '-revoke', certificate.file, '-crl_reason', 'keyCompromise');
      gencrl();
      // The responder reads the index once, at start.
      await stopResponder();
      await startResponder();
    },
    async close() {
      await stopResponder();
      await new Promise<void>((resolve) => crlServer.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
