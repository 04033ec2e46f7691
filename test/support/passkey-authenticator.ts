import crypto from 'node:crypto';

/*
 * A software passkey authenticator for the tests that run without a browser: it makes an ES256
 * credential ("none" attestation) and signs assertions the way an authenticator does, with its
 * user present and verified, its signature counter moving forward.
 */

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
}

type Cbor = number | string | Buffer | Map<Cbor, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([cborHead(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([cborHead(2, value.length), value]);
  return Buffer.concat([cborHead(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');

export interface SoftPasskey {
  /** navigator.credentials.create()'s answer to the registration options, as @simplewebauthn/browser sends it. */
  register(options: { challenge: string; user: { id: string } }): Record<string, unknown>;
  /** navigator.credentials.get()'s answer to the sign-in options. */
  assert(options: { challenge: string }): Record<string, unknown>;
  credentialId: string;
}

export function softPasskey(origin: string, counterStart = 0): SoftPasskey {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = crypto.randomBytes(16);
  const rpIdHash = crypto.createHash('sha256').update(new URL(origin).hostname).digest();
  let counter = counterStart;
  let userHandle = '';
  const clientData = (type: string, challenge: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  const authData = (flags: number, extra: Buffer = Buffer.alloc(0)) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([rpIdHash, Buffer.from([flags]), count, extra]);
  };
  return {
    credentialId: b64(credentialId),
    register(options) {
      userHandle = options.user.id;
      const coseKey = cbor(
        new Map<Cbor, Cbor>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x ?? '', 'base64url')],
          [-3, Buffer.from(jwk.y ?? '', 'base64url')],
        ]),
      );
      const idLength = Buffer.from([credentialId.length >> 8, credentialId.length & 0xff]);
      // User present, user verified, attested credential data included.
      const data = authData(0x45, Buffer.concat([Buffer.alloc(16), idLength, credentialId, coseKey]));
      const attestationObject = cbor(
        new Map<Cbor, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', data],
        ]),
      );
      return {
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64(clientData('webauthn.create', options.challenge)),
          attestationObject: b64(attestationObject),
          transports: ['internal'],
        },
      };
    },
    assert(options) {
      counter += 1;
      const data = authData(0x05);
      const client = clientData('webauthn.get', options.challenge);
      const signature = crypto.sign('sha256', Buffer.concat([data, crypto.createHash('sha256').update(client).digest()]), privateKey);
      return {
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: b64(client), authenticatorData: b64(data), signature: b64(signature), userHandle },
      };
    },
  };
}
