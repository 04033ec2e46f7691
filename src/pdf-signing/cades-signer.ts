import { Signer } from '@signpdf/utils';
import { asn1js, OID, pkijs, sha256Of, signingCertificateV2, toArrayBuffer } from './pki.js';
import type { SigningIdentity } from './signing-identity.js';
import type { TimestampClient } from './timestamp-client.js';

/**
 * A detached CAdES signature for a PDF's ByteRange (PAdES B-B: content-type, message-digest and
 * signing-certificate-v2 as signed attributes, no signing-time, which PAdES takes from the
 * signature dictionary's /M). With a timestamp authority the signature value is timestamped as an
 * unsigned attribute, which makes it PAdES B-T. Without one the bytes depend only on the input.
 */
export async function cadesDetached(content: Uint8Array, identity: SigningIdentity, timestamps?: TimestampClient): Promise<Buffer> {
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: identity.certificate.issuer, serialNumber: identity.certificate.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
            new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: await sha256Of(content) })] }),
            await signingCertificateV2(identity.certificate),
          ],
        }),
      }),
    ],
    certificates: [identity.certificate, ...identity.chain],
  });
  await signedData.sign(identity.privateKey, 0, 'SHA-256', toArrayBuffer(content));
  const signerInfo = signedData.signerInfos[0];
  if (timestamps && signerInfo) {
    const token = await timestamps.timestamp(new Uint8Array(signerInfo.signature.valueBlock.valueHexView));
    const tokenAsn1 = asn1js.fromBER(toArrayBuffer(token));
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [tokenAsn1.result] })],
    });
  }
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return Buffer.from(contentInfo.toSchema().toBER(false));
}

/** The signer @signpdf/signpdf calls with the bytes the ByteRange covers. */
export class CadesSigner extends Signer {
  constructor(
    private readonly identity: SigningIdentity,
    private readonly timestamps?: TimestampClient,
  ) {
    super();
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    return cadesDetached(pdfBuffer, this.identity, this.timestamps);
  }
}
