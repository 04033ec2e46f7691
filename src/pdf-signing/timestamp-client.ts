import { randomBytes } from 'node:crypto';
import { asn1js, OID, parseDer, pkijs, positiveInteger, sha256Of, toArrayBuffer } from './pki.js';

/** An RFC 3161 timestamp authority: answers a timestamp token (a CMS ContentInfo, DER) over some bytes. */
export interface TimestampClient {
  timestamp(data: Uint8Array): Promise<Buffer>;
}

export class TimestampError extends Error {}

/** Asks the TSA at `url` over HTTP, as RFC 3161 section 3.4 describes, with a nonce it checks. */
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
      const response = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/timestamp-query' },
        body: Buffer.from(request.toSchema().toBER(false)),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (!response.ok) throw new TimestampError(`the timestamp authority answered HTTP ${response.status}`);
      const reply = parseDer(new Uint8Array(await response.arrayBuffer()), (schema) => new pkijs.TimeStampResp({ schema }));
      // 0: granted, 1: granted with modifications.
      if (reply.status.status > 1 || !reply.timeStampToken) throw new TimestampError(`the timestamp authority refused: status ${reply.status.status}`);
      const signed = new pkijs.SignedData({ schema: reply.timeStampToken.content });
      const eContent = signed.encapContentInfo.eContent;
      if (!eContent) throw new TimestampError('the timestamp token has no TSTInfo');
      const info = parseDer(new Uint8Array(eContent.getValue()), (schema) => new pkijs.TSTInfo({ schema }));
      const imprint = Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView);
      if (info.nonce?.toBigInt() !== BigInt(`0x${Buffer.from(nonce).toString('hex')}`) || !imprint.equals(Buffer.from(digest))) {
        throw new TimestampError('the timestamp token does not answer this request (nonce or imprint)');
      }
      return Buffer.from(reply.timeStampToken.toSchema().toBER(false));
    },
  };
}
