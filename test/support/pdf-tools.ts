import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lastSignatureOf } from '../../src/pdf-signing/signature-contents.js';

/*
 * The PDF tools a court or a counterpart would use, run on the files the service writes:
 * pdfsig, pdftotext and pdfimages (poppler-utils), qpdf, certutil (libnss3-tools) and openssl.
 */

/**
 * Whether those tools are installed (CI installs them; `sudo apt-get install -y poppler-utils qpdf
 * libnss3-tools openssl` on Debian): the tests that run them need them, the others run anyway.
 */
export const pdfToolsInstalled = ['pdfsig', 'pdftotext', 'pdfimages', 'qpdf', 'certutil', 'openssl'].every(
  (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0,
);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-tools-'));
let counter = 0;

function tempFile(bytes: Buffer | string, extension: string): string {
  const file = path.join(scratch, `${++counter}.${extension}`);
  fs.writeFileSync(file, bytes);
  return file;
}

function run(command: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** An NSS database trusting `certificatePem`, for pdfsig -nssdir. */
export function trustStore(certificatePem: string): string {
  const dir = fs.mkdtempSync(path.join(scratch, 'nss-'));
  run('certutil', ['-N', '-d', `sql:${dir}`, '--empty-password']);
  const added = run('certutil', ['-A', '-d', `sql:${dir}`, '-n', 'instance seal', '-t', 'C,C,C', '-i', tempFile(certificatePem, 'pem')]);
  if (added.status !== 0) throw new Error(added.output);
  return dir;
}

export function pdfsig(pdf: Buffer, nssDir: string): string {
  // Not -no-ocsp: poppler 22.12 then reports every certificate as an 'Unknown issue'; ours name no OCSP responder anyway.
  return run('pdfsig', ['-nssdir', `sql:${nssDir}`, tempFile(pdf, 'pdf')]).output;
}

export function pdftotext(pdf: Buffer): string {
  return run('pdftotext', ['-enc', 'UTF-8', tempFile(pdf, 'pdf'), '-']).output;
}

/** Lines of pdfimages -list after its two header lines: one per image drawn. */
export function pdfImages(pdf: Buffer): string[] {
  return run('pdfimages', ['-list', tempFile(pdf, 'pdf')])
    .output.split('\n')
    .slice(2)
    .filter((line) => line.trim() !== '');
}

export function qpdfCheck(pdf: Buffer): { status: number | null; output: string } {
  return run('qpdf', ['--check', tempFile(pdf, 'pdf')]);
}

/** The last signature of a PDF: the CMS in its Contents and the bytes its ByteRange covers. */
export function lastSignature(pdf: Buffer): { cms: Buffer; content: Buffer } {
  return lastSignatureOf(pdf);
}

/** openssl cms -verify of the last signature against `certificatePem` as the only trusted certificate. */
export function opensslVerify(pdf: Buffer, certificatePem: string): { status: number | null; output: string } {
  const { cms, content } = lastSignature(pdf);
  return run('openssl', [
    'cms',
    '-verify',
    '-binary',
    '-inform',
    'DER',
    '-in',
    tempFile(cms, 'p7s'),
    '-content',
    tempFile(content, 'bin'),
    '-CAfile',
    tempFile(certificatePem, 'pem'),
    '-purpose',
    'any',
    '-out',
    path.join(scratch, 'verified.bin'),
  ]);
}

/**
 * openssl ts -verify of an RFC 3161 token (a document timestamp's /Contents) over `content`,
 * trusting `caPem` only: what pdfsig cannot check (poppler leaves ETSI.RFC3161 unvalidated).
 */
export function opensslTimestampVerify(token: Buffer, content: Buffer, caPem: string): { status: number | null; output: string } {
  return run('openssl', ['ts', '-verify', '-token_in', '-in', tempFile(token, 'tsr'), '-data', tempFile(content, 'bin'), '-CAfile', tempFile(caPem, 'pem')]);
}

/** openssl ocsp reading a stored OCSP response (DER) about `certificatePem`, issued by `issuerPem`, the only one trusted. */
export function opensslOcspRead(response: Buffer, issuerPem: string, certificatePem: string): { status: number | null; output: string } {
  const issuer = tempFile(issuerPem, 'pem');
  return run('openssl', ['ocsp', '-respin', tempFile(response, 'der'), '-issuer', issuer, '-cert', tempFile(certificatePem, 'pem'), '-CAfile', issuer]);
}

/** One page of a PDF drawn as a PNG by pdftoppm, at `dpi` dots per inch. */
export function pageImage(pdf: Buffer, page: number, dpi = 150): Buffer {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'page-')), 'page');
  const result = run('pdftoppm', ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', tempFile(pdf, 'pdf'), out]);
  if (result.status !== 0) throw new Error(`pdftoppm failed: ${result.output}`);
  return fs.readFileSync(`${out}.png`);
}
