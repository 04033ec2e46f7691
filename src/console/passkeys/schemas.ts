import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import Joi from 'joi';

const base64url = Joi.string()
  .pattern(/^[A-Za-z0-9_-]*$/)
  .max(16_384);

/** What navigator.credentials answers, as @simplewebauthn/browser serializes it; its signature is checked by the server's library. */
const credentialFields = {
  id: base64url.max(1024).required(),
  rawId: base64url.max(1024).required(),
  type: Joi.string().valid('public-key').required(),
  authenticatorAttachment: Joi.string().valid('platform', 'cross-platform'),
  clientExtensionResults: Joi.object().unknown(true).required().example({}),
};

const registrationResponse = Joi.object<RegistrationResponseJSON>({
  ...credentialFields,
  response: Joi.object({
    clientDataJSON: base64url.required(),
    attestationObject: base64url.required(),
    authenticatorData: base64url,
    transports: Joi.array()
      .items(Joi.string().valid('ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'))
      .max(8),
    publicKeyAlgorithm: Joi.number().integer(),
    publicKey: base64url,
  }).required(),
}).example({
  id: 'AAEC',
  rawId: 'AAEC',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2NmbXRkbm9uZQ', transports: ['internal'] },
});

const authenticationResponse = Joi.object<AuthenticationResponseJSON>({
  ...credentialFields,
  response: Joi.object({
    clientDataJSON: base64url.required(),
    authenticatorData: base64url.required(),
    signature: base64url.required(),
    userHandle: base64url.max(1024),
  }).required(),
}).example({
  id: 'AAEC',
  rawId: 'AAEC',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0', authenticatorData: 'SZYN5YgO', signature: 'MEUCIQ', userHandle: 'NjVmMWMw' },
});

export const passkeyAddBody = Joi.object<{ response: RegistrationResponseJSON }, true>({
  response: registrationResponse.required().description("navigator.credentials.create()'s answer to the options, as JSON"),
});

export const passkeySignInBody = Joi.object<{ response: AuthenticationResponseJSON }, true>({
  response: authenticationResponse.required().description("navigator.credentials.get()'s answer to the options, as JSON"),
});

export const passkeyOptionsBody = Joi.object<{ email?: string }, true>({
  email: Joi.string()
    .trim()
    .email({ tlds: false })
    .max(254)
    .example('ana@acme.example')
    .description('offer the passkeys of this e-mail; without it, any the browser holds for the site'),
});

export const passkeyRemoveBody = Joi.object<{ id: string }, true>({ id: Joi.string().hex().length(24).required().example('65f1c0e2a4b5c6d7e8f90001') });

export const creationOptionsResponse = Joi.object({
  challenge: Joi.string().required().example('q3Jx0m8Qe6x9bW1vYt5rKc2nLd7fGh4sZa0pVu3yXoE'),
  rp: Joi.object({ id: Joi.string().example('console.acme.example'), name: Joi.string().required().example('Acme') }).required(),
  user: Joi.object({
    id: Joi.string().required().example('NjVmMWMwZTJhNGI1YzZkN2U4ZjkwMDAx'),
    name: Joi.string().required().example('ana@acme.example'),
    displayName: Joi.string().allow('').required().example(''),
  }).required(),
})
  .unknown(true)
  .description('PublicKeyCredentialCreationOptionsJSON, for @simplewebauthn/browser startRegistration');

export const requestOptionsResponse = Joi.object({
  challenge: Joi.string().required().example('q3Jx0m8Qe6x9bW1vYt5rKc2nLd7fGh4sZa0pVu3yXoE'),
  rpId: Joi.string().example('console.acme.example'),
})
  .unknown(true)
  .description('PublicKeyCredentialRequestOptionsJSON, for @simplewebauthn/browser startAuthentication');

const passkey = Joi.object({
  id: Joi.string().hex().length(24).required().example('65f1c0e2a4b5c6d7e8f90001'),
  createdAt: Joi.string().isoDate().required().example('2026-11-26T15:00:00.000Z'),
  lastUsedAt: Joi.string().isoDate().example('2026-11-26T16:00:00.000Z'),
});

export const passkeyResponse = passkey;
export const passkeyListResponse = Joi.object({ data: Joi.array().items(passkey).required() });
export const passkeyRemovedResponse = Joi.object({ removed: Joi.boolean().valid(true).required() });
