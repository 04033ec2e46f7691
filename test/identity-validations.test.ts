import { describe, expect, it } from 'vitest';
import {
  type EffectiveValidations,
  type ResolveResult,
  resolveValidations,
  type SignerValidationInput,
  type ValidationFieldsInput,
} from '../src/documents/identity-validations.js';

interface Request {
  root: ValidationFieldsInput;
  signers: SignerValidationInput[];
  package: boolean;
}

type Options = EffectiveValidations['options'];
type Source = EffectiveValidations['source'];

/** A complete expected result: every field written out, options booleans default to false. */
function eff(
  source: Source,
  camera: boolean,
  otpCode: boolean,
  options: Partial<Options> = {},
  channels: EffectiveValidations['channels'] = ['email'],
): EffectiveValidations {
  return {
    camera,
    otpCode,
    options: { whatsapp: false, both: false, identificationCardBack: false, ...options },
    source,
    channels,
  };
}

const NONE = eff('none', false, false);
/** Identity fields that satisfy rule 3. */
const ID = { identification: '1020304050', identificationType: 'CC', country: 'CO' } as const;
const PHONE = { phone: '+573001234567' } as const;

function single(root: ValidationFieldsInput, ...signers: SignerValidationInput[]): Request {
  return { root, signers, package: false };
}
function pkg(root: ValidationFieldsInput, ...signers: SignerValidationInput[]): Request {
  return { root, signers, package: true };
}
function ok(...signers: EffectiveValidations[]): ResolveResult {
  return { ok: true, signers };
}
function fail(message: string): ResolveResult {
  return { ok: false, message };
}

type Case = [description: string, request: Request, expected: ResolveResult];

function table(cases: Case[]): void {
  it.each(cases)('%s', (_description, request, expected) => {
    expect(resolveValidations(request)).toStrictEqual(expected);
  });
}

describe('rule 1: global validations sit at the root and apply to all signers', () => {
  table([
    ['nothing asked anywhere → every signer gets no validation (source none)', single({}, {}, {}), ok(NONE, NONE)],
    [
      'root camera applies to every signer',
      single({ camera: true }, {}, {}),
      ok(eff('global', true, false, { camera: 'photo' }), eff('global', true, false, { camera: 'photo' })),
    ],
    [
      'root otpCode by phone applies to every signer (each has a phone)',
      single({ otpCode: true, options: { otpCode: 'phone' } }, { ...PHONE }, { ...PHONE }),
      ok(eff('global', false, true, { otpCode: 'phone' }), eff('global', false, true, { otpCode: 'phone' })),
    ],
    [
      'root camera identification + otpCode + whatsapp applies to every signer',
      single(
        { camera: true, otpCode: true, options: { camera: 'identification', otpCode: 'email', whatsapp: true } },
        { ...ID, ...PHONE },
        { ...ID, ...PHONE },
      ),
      ok(
        eff('global', true, true, { camera: 'identification', otpCode: 'email', whatsapp: true }, ['whatsapp']),
        eff('global', true, true, { camera: 'identification', otpCode: 'email', whatsapp: true }, ['whatsapp']),
      ),
    ],
    ['root defining only camera: false is still a global source', single({ camera: false }, {}), ok(eff('global', false, false))],
    ['root defining only options: {} is still a global source', single({ options: {} }, {}), ok(eff('global', false, false))],
    ['root keys set to undefined do not count as defined', single({ camera: undefined, options: undefined }, {}), ok(NONE)],
    ['no signers → an empty list', single({ camera: true }), ok()],
  ]);
});

describe('rule 2: individual precedence is total, not a merge — a signer with any own field inherits no global validation', () => {
  const root: ValidationFieldsInput = { camera: true, otpCode: true, options: { camera: 'photo', otpCode: 'email' } };
  const inherited = eff('global', true, true, { camera: 'photo', otpCode: 'email' });
  table([
    ['signer defines nothing → inherits the root', single(root, {}), ok(inherited)],
    ['signer with only identity fields defines nothing → inherits the root', single(root, { ...ID, ...PHONE }), ok(inherited)],
    [
      'signer with own keys set to undefined defines nothing → inherits the root',
      single(root, { camera: undefined, otpCode: undefined, options: undefined }),
      ok(inherited),
    ],
    ['signer defines only camera: false → inherits nothing', single(root, { camera: false }), ok(eff('signer', false, false))],
    ['signer defines only otpCode: false → inherits nothing', single(root, { otpCode: false }), ok(eff('signer', false, false))],
    ['signer defines only options: {} → inherits nothing', single(root, { options: {} }), ok(eff('signer', false, false))],
    [
      'signer defines only camera: true → gets camera, loses the global otpCode',
      single(root, { camera: true }),
      ok(eff('signer', true, false, { camera: 'photo' })),
    ],
    [
      'signer defines only otpCode: true → gets otpCode, loses the global camera',
      single(root, { otpCode: true }),
      ok(eff('signer', false, true, { otpCode: 'email' })),
    ],
    [
      'signer defines only options.whatsapp → loses both global camera and otpCode',
      single(root, { ...PHONE, options: { whatsapp: true } }),
      ok(eff('signer', false, false, { whatsapp: true }, ['whatsapp'])),
    ],
    [
      'root whatsapp is not merged into a signer that defines camera',
      single({ options: { whatsapp: true } }, { ...PHONE, camera: true }),
      ok(eff('signer', true, false, { camera: 'photo' })),
    ],
    [
      'to keep a global validation the signer repeats its fields',
      single(root, { camera: true, otpCode: true, options: { camera: 'photo', otpCode: 'email' } }),
      ok(eff('signer', true, true, { camera: 'photo', otpCode: 'email' })),
    ],
    [
      'signer own validations with no root at all',
      single({}, { otpCode: true, options: { otpCode: 'phone' }, ...PHONE }),
      ok(eff('signer', false, true, { otpCode: 'phone' })),
    ],
  ]);
});

describe('rule 3: options.camera = identification works only if the signer has identification, country and identificationType', () => {
  table([
    [
      'signer-level identification with all three fields → valid',
      single({}, { ...ID, camera: true, options: { camera: 'identification' } }),
      ok(eff('signer', true, false, { camera: 'identification' })),
    ],
    [
      'signer-level, missing identification',
      single({}, { identificationType: 'CC', country: 'CO', camera: true, options: { camera: 'identification' } }),
      fail('"signProfile[0].options.camera" identification requires "signProfile[0].identification"'),
    ],
    [
      'signer-level, missing identificationType',
      single({}, { identification: '1', country: 'CO', camera: true, options: { camera: 'identification' } }),
      fail('"signProfile[0].options.camera" identification requires "signProfile[0].identificationType"'),
    ],
    [
      'signer-level, missing country',
      single({}, { identification: '1', identificationType: 'CC', camera: true, options: { camera: 'identification' } }),
      fail('"signProfile[0].options.camera" identification requires "signProfile[0].country"'),
    ],
    [
      'signer-level, missing identification and country (listed in order, only the missing ones)',
      single({}, { identificationType: 'CC', camera: true, options: { camera: 'identification' } }),
      fail('"signProfile[0].options.camera" identification requires "signProfile[0].identification", "signProfile[0].country"'),
    ],
    [
      'signer-level, all three missing',
      single({}, { camera: true, options: { camera: 'identification' } }),
      fail(
        '"signProfile[0].options.camera" identification requires "signProfile[0].identification", "signProfile[0].identificationType", "signProfile[0].country"',
      ),
    ],
    [
      'signer-level, empty strings count as missing',
      single({}, { identification: '', identificationType: ' ', country: 'CO', camera: true, options: { camera: 'identification' } }),
      fail('"signProfile[0].options.camera" identification requires "signProfile[0].identification", "signProfile[0].identificationType"'),
    ],
    [
      'from the root, all fields present → valid',
      single({ camera: true, options: { camera: 'identification' } }, { ...ID }),
      ok(eff('global', true, false, { camera: 'identification' })),
    ],
    [
      'from the root, missing identification → the root setting is named',
      single({ camera: true, options: { camera: 'identification' } }, { identificationType: 'CC', country: 'CO' }),
      fail('"options.camera" identification requires "signProfile[0].identification"'),
    ],
    [
      'from the root, missing identificationType on the second signer',
      single({ camera: true, options: { camera: 'identification' } }, { ...ID }, { identification: '2', country: 'CO' }),
      fail('"options.camera" identification requires "signProfile[1].identificationType"'),
    ],
    [
      'from the root, missing country',
      single({ camera: true, options: { camera: 'identification' } }, { identification: '1', identificationType: 'CC' }),
      fail('"options.camera" identification requires "signProfile[0].country"'),
    ],
    [
      'from the root, but the signer overrides with photo → rule 3 does not apply to it',
      single({ camera: true, options: { camera: 'identification' } }, { camera: true, options: { camera: 'photo' } }),
      ok(eff('signer', true, false, { camera: 'photo' })),
    ],
    [
      'from the root, but the signer overrides with camera: false → rule 3 does not apply to it',
      single({ camera: true, options: { camera: 'identification' } }, { camera: false }),
      ok(eff('signer', false, false)),
    ],
    ['photo never requires identity fields', single({ camera: true, options: { camera: 'photo' } }, {}), ok(eff('global', true, false, { camera: 'photo' }))],
  ]);
});

describe('rule 4: options.both = true is effective only together with options.whatsapp = true', () => {
  table([
    [
      'root both + whatsapp → WhatsApp and e-mail',
      single({ options: { whatsapp: true, both: true } }, { ...PHONE }),
      ok(eff('global', false, false, { whatsapp: true, both: true }, ['whatsapp', 'email'])),
    ],
    ['root both without whatsapp → not effective, no error', single({ options: { both: true } }, {}), ok(eff('global', false, false, { both: false }))],
    ['root both with whatsapp: false → not effective, no error', single({ options: { whatsapp: false, both: true } }, {}), ok(eff('global', false, false))],
    [
      'signer both + whatsapp → WhatsApp and e-mail',
      single({}, { ...PHONE, options: { whatsapp: true, both: true } }),
      ok(eff('signer', false, false, { whatsapp: true, both: true }, ['whatsapp', 'email'])),
    ],
    ['signer both without whatsapp → not effective, no error', single({}, { options: { both: true } }), ok(eff('signer', false, false))],
    [
      'signer both with whatsapp only at the root → not effective (no merge)',
      single({ options: { whatsapp: true } }, { options: { both: true } }),
      ok(eff('signer', false, false)),
    ],
    [
      'whatsapp: true with both: false → WhatsApp only',
      single({ options: { whatsapp: true, both: false } }, { ...PHONE }),
      ok(eff('global', false, false, { whatsapp: true }, ['whatsapp'])),
    ],
  ]);
});

describe('"both" is not a top-level parameter nor signProfile[x].both; it exists only as options.both', () => {
  table([
    ['both at the root is refused', single({ both: true }, {}), fail('"both" is not allowed at the root: use "options.both"')],
    ['both: false at the root is refused too (present)', single({ both: false }, {}), fail('"both" is not allowed at the root: use "options.both"')],
    ['both at the root is refused in package mode', pkg({ both: true }, {}), fail('"both" is not allowed at the root: use "options.both"')],
    ['both: undefined at the root is not present', single({ both: undefined }, {}), ok(NONE)],
    [
      'both on a signer is refused, naming the signer',
      single({}, {}, {}, { both: true }),
      fail('"signProfile[2].both" is not allowed: use "signProfile[2].options.both"'),
    ],
    [
      'both on a signer is refused in package mode too',
      pkg({}, {}, { both: true }),
      fail('"signProfile[1].both" is not allowed: use "signProfile[1].options.both"'),
    ],
    [
      'both on a signer is refused even when the signer defines nothing else',
      single({ camera: true }, { both: true }),
      fail('"signProfile[0].both" is not allowed: use "signProfile[0].options.both"'),
    ],
    [
      'both on a signer uses its label',
      single({}, { label: 'signers[0]', both: true }),
      fail('"signers[0].both" is not allowed: use "signers[0].options.both"'),
    ],
  ]);
});

describe('rule 5: options.camera / options.otpCode are valid only when camera / otpCode is true at the same level', () => {
  describe('at the root', () => {
    table([
      ['options.camera without camera', single({ options: { camera: 'photo' } }, {}), fail('"options.camera" requires "camera" to be true at the same level')],
      [
        'options.camera with camera: false',
        single({ camera: false, options: { camera: 'identification' } }, { ...ID }),
        fail('"options.camera" requires "camera" to be true at the same level'),
      ],
      [
        'options.otpCode without otpCode',
        single({ options: { otpCode: 'email' } }, {}),
        fail('"options.otpCode" requires "otpCode" to be true at the same level'),
      ],
      [
        'options.otpCode with otpCode: false',
        single({ otpCode: false, options: { otpCode: 'phone' } }, { ...PHONE }),
        fail('"options.otpCode" requires "otpCode" to be true at the same level'),
      ],
      [
        'root options.camera without camera is refused even though every signer has its own validations',
        single({ options: { camera: 'photo' } }, { camera: true }),
        fail('"options.camera" requires "camera" to be true at the same level'),
      ],
      [
        'root is checked in package mode',
        pkg({ options: { otpCode: 'email' } }, {}),
        fail('"options.otpCode" requires "otpCode" to be true at the same level'),
      ],
      [
        'a signer camera: true does not satisfy the root level',
        single({ options: { camera: 'photo' } }, { camera: true, options: { camera: 'photo' } }),
        fail('"options.camera" requires "camera" to be true at the same level'),
      ],
      [
        'options.camera with camera: true → valid',
        single({ camera: true, options: { camera: 'photo' } }, {}),
        ok(eff('global', true, false, { camera: 'photo' })),
      ],
      [
        'options.otpCode with otpCode: true → valid',
        single({ otpCode: true, options: { otpCode: 'email' } }, {}),
        ok(eff('global', false, true, { otpCode: 'email' })),
      ],
    ]);
  });

  describe('at the signer level (a global true does not satisfy a signProfile[x] level)', () => {
    table([
      [
        'signer options.camera without camera, no root',
        single({}, { options: { camera: 'photo' } }),
        fail(
          '"signProfile[0].options.camera" requires "signProfile[0].camera" to be true (a global "camera" does not apply to a signer with its own validations)',
        ),
      ],
      [
        'signer options.camera without camera, root camera: true does not satisfy it',
        single({ camera: true }, { options: { camera: 'photo' } }),
        fail(
          '"signProfile[0].options.camera" requires "signProfile[0].camera" to be true (a global "camera" does not apply to a signer with its own validations)',
        ),
      ],
      [
        'signer options.camera with camera: false, root camera: true does not satisfy it',
        single({ camera: true, options: { camera: 'photo' } }, {}, { camera: false, options: { camera: 'identification' }, ...ID }),
        fail(
          '"signProfile[1].options.camera" requires "signProfile[1].camera" to be true (a global "camera" does not apply to a signer with its own validations)',
        ),
      ],
      [
        'signer options.otpCode without otpCode, no root',
        single({}, { options: { otpCode: 'email' } }),
        fail(
          '"signProfile[0].options.otpCode" requires "signProfile[0].otpCode" to be true (a global "otpCode" does not apply to a signer with its own validations)',
        ),
      ],
      [
        'signer options.otpCode without otpCode, root otpCode: true does not satisfy it',
        single({ otpCode: true }, {}, { options: { otpCode: 'email' } }),
        fail(
          '"signProfile[1].options.otpCode" requires "signProfile[1].otpCode" to be true (a global "otpCode" does not apply to a signer with its own validations)',
        ),
      ],
      [
        'signer options.otpCode with otpCode: false, root otpCode: true does not satisfy it',
        single({ otpCode: true, options: { otpCode: 'phone' } }, { ...PHONE, otpCode: false, options: { otpCode: 'phone' } }),
        fail(
          '"signProfile[0].options.otpCode" requires "signProfile[0].otpCode" to be true (a global "otpCode" does not apply to a signer with its own validations)',
        ),
      ],
      [
        'signer message uses its label',
        single({}, { label: 'signers[3]', options: { camera: 'photo' } }),
        fail('"signers[3].options.camera" requires "signers[3].camera" to be true (a global "camera" does not apply to a signer with its own validations)'),
      ],
      [
        'signer options.camera with its own camera: true → valid',
        single({ camera: true }, { camera: true, options: { camera: 'photo' } }),
        ok(eff('signer', true, false, { camera: 'photo' })),
      ],
      [
        'signer options.otpCode with its own otpCode: true → valid',
        single({}, { ...PHONE, otpCode: true, options: { otpCode: 'phone' } }),
        ok(eff('signer', false, true, { otpCode: 'phone' })),
      ],
    ]);
  });
});

describe('options.identificationCardBack additionally requests the back side; only available for WhatsApp', () => {
  table([
    [
      'root cardBack with whatsapp → valid',
      single({ camera: true, options: { camera: 'identification', whatsapp: true, identificationCardBack: true } }, { ...ID, ...PHONE }),
      ok(eff('global', true, false, { camera: 'identification', whatsapp: true, identificationCardBack: true }, ['whatsapp'])),
    ],
    [
      'root cardBack without whatsapp → refused',
      single({ options: { identificationCardBack: true } }, {}),
      fail('"options.identificationCardBack" is only available with "options.whatsapp": true'),
    ],
    [
      'root cardBack with whatsapp: false → refused',
      single({ options: { whatsapp: false, identificationCardBack: true } }, {}),
      fail('"options.identificationCardBack" is only available with "options.whatsapp": true'),
    ],
    ['root cardBack: false without whatsapp → valid, false', single({ options: { identificationCardBack: false } }, {}), ok(eff('global', false, false))],
    [
      'signer cardBack with whatsapp → valid',
      single({}, { ...PHONE, options: { whatsapp: true, identificationCardBack: true } }),
      ok(eff('signer', false, false, { whatsapp: true, identificationCardBack: true }, ['whatsapp'])),
    ],
    [
      'signer cardBack without whatsapp → refused',
      single({}, { options: { identificationCardBack: true } }),
      fail('"signProfile[0].options.identificationCardBack" is only available with "signProfile[0].options.whatsapp": true'),
    ],
    [
      'signer cardBack with whatsapp only at the root → refused (same options object required)',
      single({ options: { whatsapp: true } }, { ...PHONE }, { ...PHONE, options: { identificationCardBack: true } }),
      fail('"signProfile[1].options.identificationCardBack" is only available with "signProfile[1].options.whatsapp": true'),
    ],
    [
      'root cardBack without whatsapp is refused before any signer check',
      single({ options: { identificationCardBack: true } }, { options: { identificationCardBack: true } }),
      fail('"options.identificationCardBack" is only available with "options.whatsapp": true'),
    ],
  ]);
});

describe('rule 6: package creation supports only global validations; per-signer validations are ignored, not refused', () => {
  table([
    [
      'signer fields are ignored, the root applies to every participant',
      pkg({ camera: true }, { camera: false }, { otpCode: true, options: { otpCode: 'phone' } }),
      ok(eff('global', true, false, { camera: 'photo' }), eff('global', true, false, { camera: 'photo' })),
    ],
    ['invalid signer rule-5 combination is ignored, not validated', pkg({}, { options: { camera: 'photo', otpCode: 'email' } }), ok(NONE)],
    ['invalid signer cardBack is ignored, not validated', pkg({}, { options: { identificationCardBack: true } }), ok(NONE)],
    [
      'signer whatsapp is ignored: no phone required, channel stays e-mail',
      pkg({ otpCode: true }, { options: { whatsapp: true, both: true } }),
      ok(eff('global', false, true, { otpCode: 'email' })),
    ],
    ['signer identification camera is ignored: no identity fields required', pkg({}, { camera: true, options: { camera: 'identification' } }), ok(NONE)],
    [
      'root identification still needs each signer identity fields (rule 3 from the root)',
      pkg({ camera: true, options: { camera: 'identification' } }, { ...ID }, { identification: '9', identificationType: 'CC' }),
      fail('"options.camera" identification requires "signProfile[1].country"'),
    ],
    [
      'root whatsapp still needs each signer phone',
      pkg({ options: { whatsapp: true } }, { ...PHONE }, { phone: '' }),
      fail('"signProfile[1].phone" is required for the WhatsApp flow'),
    ],
    [
      'the same request outside a package uses the signer fields',
      single({ camera: true }, { camera: false }, { ...PHONE, otpCode: true, options: { otpCode: 'phone' } }),
      ok(eff('signer', false, false), eff('signer', false, true, { otpCode: 'phone' })),
    ],
  ]);
});

describe('effective defaults: camera → "photo", otpCode → "email", booleans → false, no mode key when not requested', () => {
  table([
    ['camera true without options.camera → photo', single({ camera: true }, {}), ok(eff('global', true, false, { camera: 'photo' }))],
    ['otpCode true without options.otpCode → email', single({ otpCode: true }, {}), ok(eff('global', false, true, { otpCode: 'email' }))],
    [
      'both true without modes → photo and email',
      single({}, { camera: true, otpCode: true, options: {} }),
      ok(eff('signer', true, true, { camera: 'photo', otpCode: 'email' })),
    ],
    [
      'explicit modes are kept',
      single({ camera: true, otpCode: true, options: { camera: 'identification', otpCode: 'phone' } }, { ...ID, ...PHONE }),
      ok(eff('global', true, true, { camera: 'identification', otpCode: 'phone' })),
    ],
    ['camera/otpCode false → options carry no camera/otpCode key', single({ camera: false, otpCode: false }, {}), ok(eff('global', false, false))],
  ]);

  it('the effective options object has exactly the expected keys', () => {
    const result = resolveValidations(single({ camera: false, otpCode: true }, {}));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.signers[0]!.options).sort()).toEqual(['both', 'identificationCardBack', 'otpCode', 'whatsapp']);
  });
});

describe('channels: whatsapp → both ? [whatsapp, email] : [whatsapp]; otherwise [email]', () => {
  table([
    ['no whatsapp → email', single({ options: {} }, {}), ok(eff('global', false, false, {}, ['email']))],
    ['whatsapp → whatsapp', single({ options: { whatsapp: true } }, { ...PHONE }), ok(eff('global', false, false, { whatsapp: true }, ['whatsapp']))],
    [
      'whatsapp + both → whatsapp, email',
      single({}, { ...PHONE, options: { whatsapp: true, both: true } }),
      ok(eff('signer', false, false, { whatsapp: true, both: true }, ['whatsapp', 'email'])),
    ],
    ['both without whatsapp → email', single({}, { options: { both: true } }), ok(eff('signer', false, false, {}, ['email']))],
  ]);
});

describe('phone requirements on the effective result', () => {
  table([
    [
      'whatsapp from the root, signer without phone',
      single({ options: { whatsapp: true } }, {}),
      fail('"signProfile[0].phone" is required for the WhatsApp flow'),
    ],
    ['whatsapp from the signer, no phone', single({}, { options: { whatsapp: true } }), fail('"signProfile[0].phone" is required for the WhatsApp flow')],
    ['whatsapp with an empty phone', single({}, { phone: '', options: { whatsapp: true } }), fail('"signProfile[0].phone" is required for the WhatsApp flow')],
    [
      'otp by phone from the root, signer without phone',
      single({ otpCode: true, options: { otpCode: 'phone' } }, { ...PHONE }, {}),
      fail('"signProfile[1].phone" is required to send the code by phone'),
    ],
    [
      'otp by phone from the signer, no phone',
      single({}, { otpCode: true, options: { otpCode: 'phone' } }),
      fail('"signProfile[0].phone" is required to send the code by phone'),
    ],
    [
      'whatsapp and otp by phone, no phone → the WhatsApp message first',
      single({}, { otpCode: true, options: { otpCode: 'phone', whatsapp: true } }),
      fail('"signProfile[0].phone" is required for the WhatsApp flow'),
    ],
    ['otp by email needs no phone', single({ otpCode: true, options: { otpCode: 'email' } }, {}), ok(eff('global', false, true, { otpCode: 'email' }))],
    [
      'signer with its own validations escapes the root phone requirement',
      single({ options: { whatsapp: true } }, { options: {} }),
      ok(eff('signer', false, false)),
    ],
    [
      'phone message uses the signer label',
      single({ options: { whatsapp: true } }, { label: 'participants[4]' }),
      fail('"participants[4].phone" is required for the WhatsApp flow'),
    ],
  ]);
});

describe('several signers with mixed sources in one request', () => {
  table([
    [
      'global, own, own-empty and global again, in order',
      single(
        { camera: true, otpCode: true, options: { camera: 'identification', otpCode: 'email' } },
        { ...ID },
        { ...PHONE, otpCode: true, options: { otpCode: 'phone', whatsapp: true, both: true } },
        { options: {} },
        { ...ID, label: 'signProfile[3]' },
      ),
      ok(
        eff('global', true, true, { camera: 'identification', otpCode: 'email' }),
        eff('signer', false, true, { otpCode: 'phone', whatsapp: true, both: true }, ['whatsapp', 'email']),
        eff('signer', false, false),
        eff('global', true, true, { camera: 'identification', otpCode: 'email' }),
      ),
    ],
    [
      'no root: inheriting signers get none, others their own',
      single({}, {}, { camera: true }, {}),
      ok(NONE, eff('signer', true, false, { camera: 'photo' }), NONE),
    ],
  ]);
});

describe('check order: the first failure wins', () => {
  table([
    ['root both beats root rule 5', single({ both: true, options: { camera: 'photo' } }, {}), fail('"both" is not allowed at the root: use "options.both"')],
    [
      'signer both (last signer) beats root rule 5',
      single({ options: { camera: 'photo' } }, {}, { both: true }),
      fail('"signProfile[1].both" is not allowed: use "signProfile[1].options.both"'),
    ],
    [
      'signer both (last signer) beats an earlier signer rule 5',
      single({}, { options: { camera: 'photo' } }, { both: true }),
      fail('"signProfile[1].both" is not allowed: use "signProfile[1].options.both"'),
    ],
    [
      'root rule 5 camera beats root rule 5 otpCode',
      single({ options: { camera: 'photo', otpCode: 'email' } }, {}),
      fail('"options.camera" requires "camera" to be true at the same level'),
    ],
    [
      'root rule 5 beats root cardBack',
      single({ options: { otpCode: 'email', identificationCardBack: true } }, {}),
      fail('"options.otpCode" requires "otpCode" to be true at the same level'),
    ],
    [
      'root checks beat signer checks',
      single({ options: { identificationCardBack: true } }, { options: { camera: 'photo' } }),
      fail('"options.identificationCardBack" is only available with "options.whatsapp": true'),
    ],
    [
      'signers are checked in order: an effective failure on signer 0 beats a level failure on signer 1',
      single({ options: { whatsapp: true } }, {}, { options: { camera: 'photo' } }),
      fail('"signProfile[0].phone" is required for the WhatsApp flow'),
    ],
    [
      'signer rule 5 beats signer cardBack',
      single({}, { options: { camera: 'photo', identificationCardBack: true } }),
      fail(
        '"signProfile[0].options.camera" requires "signProfile[0].camera" to be true (a global "camera" does not apply to a signer with its own validations)',
      ),
    ],
    [
      'signer level check beats its effective checks',
      single({}, { otpCode: true, options: { otpCode: 'phone', identificationCardBack: true } }),
      fail('"signProfile[0].options.identificationCardBack" is only available with "signProfile[0].options.whatsapp": true'),
    ],
    [
      'rule 3 beats the phone requirements',
      single({}, { camera: true, options: { camera: 'identification', whatsapp: true } }),
      fail(
        '"signProfile[0].options.camera" identification requires "signProfile[0].identification", "signProfile[0].identificationType", "signProfile[0].country"',
      ),
    ],
  ]);
});

describe('purity: the input is not mutated and the output shares no objects with it', () => {
  it('leaves a deep copy of the request unchanged', () => {
    const request: Request = single(
      { camera: true, options: { whatsapp: true, both: true } },
      { ...PHONE },
      { ...PHONE, otpCode: true, options: { otpCode: 'phone' } },
      { options: {} },
    );
    const before = structuredClone(request);
    const result = resolveValidations(request);
    expect(request).toStrictEqual(before);
    expect(result).toStrictEqual(
      ok(
        eff('global', true, false, { camera: 'photo', whatsapp: true, both: true }, ['whatsapp', 'email']),
        eff('signer', false, true, { otpCode: 'phone' }),
        eff('signer', false, false),
      ),
    );
  });

  it('mutating the result does not reach the input', () => {
    const options = { otpCode: 'email' as const };
    const request = single({ otpCode: true, options }, {}, {});
    const result = resolveValidations(request);
    if (!result.ok) throw new Error(result.message);
    result.signers[0]!.options.whatsapp = true;
    result.signers[0]!.channels.push('whatsapp');
    expect(options).toStrictEqual({ otpCode: 'email' });
    expect(result.signers[1]).toStrictEqual(eff('global', false, true, { otpCode: 'email' }));
  });

  it('works on frozen input', () => {
    const request = Object.freeze(single(Object.freeze({ camera: true }), Object.freeze({ ...ID })));
    expect(resolveValidations(request)).toStrictEqual(ok(eff('global', true, false, { camera: 'photo' })));
  });
});
