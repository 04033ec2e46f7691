import { randomBytes } from 'node:crypto';
import { LevelUnreachable } from './level-unreachable.js';
import { asn1js, OID, parseDer, pkijs, positiveInteger, sha256Of, toArrayBuffer } from './pki.js';

/** An RFC 3161 timestamp authority: answers a timestamp token (a CMS ContentInfo, DER) over some bytes. */
export interface TimestampClient {
  timestamp(data: Uint8Array): Promise<Buffer>;
}

/** One authority's answer was missing or wrong. */
export class TimestampError extends Error {}

/** No authority of the list gave a good token. */
export class TimestampUnavailable extends LevelUnreachable {}

function hasTimeStampingUsage(certificate: pkijs.Certificate): boolean {
  const extension = certificate.extensions?.find((candidate) => candidate.extnID === OID.extKeyUsage);
  return extension?.parsedValue instanceof pkijs.ExtKeyUsage && extension.parsedValue.keyPurposes.includes(OID.timeStamping);
}

function tokenParts(token: pkijs.ContentInfo): { signed: pkijs.SignedData; info: pkijs.TSTInfo } {
  try {
    const signed = new pkijs.SignedData({ schema: token.content });
    const eContent = signed.encapContentInfo.eContent;
    if (!eContent) throw new TimestampError('the token has no TSTInfo');
    return { signed, info: parseDer(new Uint8Array(eContent.getValue()), (schema) => new pkijs.TSTInfo({ schema })) };
  } catch (error) {
    if (error instanceof TimestampError) throw error;
    throw new TimestampError(`an unreadable token: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * What makes an answer a token for this request (RFC 3161 §2.4.2): granted, over this imprint
 * with this nonce, signed by the certificate it carries, which is one for timestamping.
 */
async function checkedToken(reply: pkijs.TimeStampResp, options: { data: Uint8Array; digest: ArrayBuffer; nonce: Uint8Array }): Promise<pkijs.ContentInfo> {
  // 0: granted, 1: granted with modifications.
  if (reply.status.status > 1 || !reply.timeStampToken) throw new TimestampError(`refused: status ${reply.status.status}`);
  const { signed, info } = tokenParts(reply.timeStampToken);
  if (!Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView).equals(Buffer.from(options.digest))) {
    throw new TimestampError('the token is over other bytes (message imprint)');
  }
  if (info.nonce?.toBigInt() !== BigInt(`0x${Buffer.from(options.nonce).toString('hex')}`))
    throw new TimestampError('the token answers another request (nonce)');
  let verified: pkijs.SignedDataVerifyResult;
  try {
    verified = await signed.verify({ signer: 0, data: toArrayBuffer(options.data), extendedMode: true });
  } catch (error) {
    throw new TimestampError(`the token's signature does not verify: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!verified.signatureVerified || !verified.signerCertificate) throw new TimestampError("the token's signature does not verify against its certificate");
  if (!hasTimeStampingUsage(verified.signerCertificate)) throw new TimestampError("the token's certificate is not one for timestamping (extended key usage)");
  return reply.timeStampToken;
}

/** Asks the TSA at `url` over HTTP, as RFC 3161 section 3.4 describes, and checks what it answers. */
export function httpTimestampClient(options: { url: string; timeoutMs: number }): TimestampClient {
  return {
    async timestamp(data) {
      const digest = await sha256Of(data);
      const nonce = positiveInteger(randomBytes(8));
      const request = new pkijs.TimeStampReq({
        version: 1,
        messageImprint: new pkijs.MessageImprint({
          hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
          hashedMessage: new asn1js.OctetString({ valueHex: digest }),
        }),
        nonce: new asn1js.Integer({ valueHex: toArrayBuffer(nonce) }),
        certReq: true,
      });
      let body: Uint8Array;
      try {
        const response = await fetch(options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/timestamp-query' },
          body: Buffer.from(request.toSchema().toBER(false)),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        if (!response.ok) throw new TimestampError(`HTTP ${response.status}`);
        body = new Uint8Array(await response.arrayBuffer());
      } catch (error) {
        if (error instanceof TimestampError) throw error;
        throw new TimestampError(`no answer: ${error instanceof Error ? error.message : String(error)}`);
      }
      let reply: pkijs.TimeStampResp;
      try {
        reply = parseDer(body, (schema) => new pkijs.TimeStampResp({ schema }));
      } catch (error) {
        throw new TimestampError(`an answer that is no timestamp reply: ${error instanceof Error ? error.message : String(error)}`);
      }
      return Buffer.from((await checkedToken(reply, { data, digest, nonce })).toSchema().toBER(false));
    },
  };
}

/**
 * The authorities at `urls` tried in order, each for at most `timeoutMs`: the first good token is
 * the answer. When none gives one, TimestampUnavailable says what each did.
 */
export function failoverTimestampClient(options: { urls: readonly string[]; timeoutMs: number }): TimestampClient {
  const clients = options.urls.map((url) => ({ url, client: httpTimestampClient({ url, timeoutMs: options.timeoutMs }) }));
  return {
    async timestamp(data) {
      const failures: string[] = [];
      for (const { url, client } of clients) {
        try {
          return await client.timestamp(data);
        } catch (error) {
          if (!(error instanceof TimestampError)) throw error;
          failures.push(`${url}: ${error.message}`);
        }
      }
      throw new TimestampUnavailable(`no timestamp authority gave a valid token (${failures.join('; ')}): the seal is tried again, never made without one`);
    },
  };
}
