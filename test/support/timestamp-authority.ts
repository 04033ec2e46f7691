import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { asn1js, OID, parseDer, pkijs, positiveInteger, sha256Of, signingCertificateV2, toArrayBuffer } from '../../src/pdf-signing/pki.js';
import { identityFromStored, makeSelfSignedIdentity, type SigningIdentity } from '../../src/pdf-signing/signing-identity.js';

export interface TimestampAuthority {
  url: string;
  identity: SigningIdentity;
  /** Requests answered so far. */
  issued: number;
  /** Stops answering: its port refuses connections. */
  close(): Promise<void>;
  /** Answers again, at the same URL. */
  reopen(): Promise<void>;
}

/** How a faulty authority gets its answer wrong: a token for another request, or over other bytes. */
export type TimestampFault = 'another-nonce' | 'another-imprint';

function randomInteger(): asn1js.Integer {
  return new asn1js.Integer({ valueHex: toArrayBuffer(positiveInteger(randomBytes(8))) });
}

async function tokenFor(request: pkijs.TimeStampReq, identity: SigningIdentity, now: Date, fault?: TimestampFault): Promise<pkijs.ContentInfo> {
  const imprint =
    fault === 'another-imprint'
      ? new pkijs.MessageImprint({
          hashAlgorithm: request.messageImprint.hashAlgorithm,
          hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(randomBytes(32)) }),
        })
      : request.messageImprint;
  const info = new pkijs.TSTInfo({
    version: 1,
    policy: '1.3.6.1.4.1.99999.1',
    messageImprint: imprint,
    serialNumber: randomInteger(),
    genTime: now,
    ...(request.nonce ? { nonce: fault === 'another-nonce' ? randomInteger() : request.nonce } : {}),
  });
  const content = new Uint8Array(info.toSchema().toBER(false));
  const signed = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.tstInfo, eContent: new asn1js.OctetString({ valueHex: toArrayBuffer(content) }) }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: identity.certificate.issuer, serialNumber: identity.certificate.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })] }),
            new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: await sha256Of(content) })] }),
            await signingCertificateV2(identity.certificate),
          ],
        }),
      }),
    ],
    ...(request.certReq ? { certificates: [identity.certificate, ...identity.chain] } : {}),
  });
  await signed.sign(identity.privateKey, 0, 'SHA-256');
  return new pkijs.ContentInfo({ contentType: OID.signedData, content: signed.toSchema(true) });
}

/**
 * An RFC 3161 timestamp authority on loopback, signing with `identity` (a certificate of a test CA)
 * or else a self-signed timeStamping certificate; with a `fault`, every token it grants is wrong so.
 */
export async function startTimestampAuthority(options: { identity?: SigningIdentity; fault?: TimestampFault } = {}): Promise<TimestampAuthority> {
  const identity =
    options.identity ??
    (await identityFromStored(await makeSelfSignedIdentity({ commonName: 'Test TSA', now: new Date(Date.now() - 60_000), years: 1, timeStamping: true })));
  const authority: TimestampAuthority = { url: '', identity, issued: 0, close: async () => undefined, reopen: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        try {
          if (req.headers['content-type'] !== 'application/timestamp-query') throw new Error('not a timestamp query');
          const request = parseDer(Buffer.concat(chunks), (schema) => new pkijs.TimeStampReq({ schema }));
          const token = await tokenFor(request, identity, new Date(), options.fault);
          const reply = new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: 0 }), timeStampToken: token });
          authority.issued++;
          res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(Buffer.from(reply.toSchema().toBER(false)));
        } catch (error) {
          res.writeHead(400).end(String(error));
        }
      })();
    });
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the timestamp authority has no port');
  authority.url = `http://127.0.0.1:${address.port}/tsa`;
  authority.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      // Kept-alive connections would otherwise hold it open and keep answering.
      server.closeAllConnections();
    });
  authority.reopen = () => listen(address.port);
  return authority;
}
