/**
 * Resolves each signer's effective identity validations for a signing process.
 *
 * Pure: no I/O, never mutates its input, never throws for inputs of the declared types.
 *
 * Contract rules (verbatim intent):
 * 1. Global validations sit at the root and apply to all signers; individual ones sit in `signProfile[x]`.
 * 2. Individual precedence is total, not a merge: a `signProfile[x]` that defines any of `camera`,
 *    `otpCode`, `options` inherits no global validation (missing → false / {}).
 * 3. `options.camera` = `identification` needs `identification`, `country` and `identificationType` on the signer.
 * 4. `options.both` = true is effective only together with `options.whatsapp` = true.
 * 5. `options.camera` / `options.otpCode` are valid only when `camera` / `otpCode` is true at the same level.
 * 6. Package creation (`POST /document/many`) uses only the root's validations; per-signer ones are ignored.
 * `both` exists only as `options.both`; a bare `both` at the root or in a `signProfile[x]` is refused.
 */

export type CameraMode = 'identification' | 'photo';
export type OtpMedium = 'phone' | 'email';
export interface ValidationOptionsInput {
  camera?: CameraMode;
  otpCode?: OtpMedium;
  whatsapp?: boolean;
  both?: boolean;
  identificationCardBack?: boolean;
}
/** The validation fields as they arrive at one level; `both` is only here so it can be refused with a clear message. */
export interface ValidationFieldsInput {
  camera?: boolean;
  otpCode?: boolean;
  options?: ValidationOptionsInput;
  both?: boolean;
}
export interface SignerValidationInput extends ValidationFieldsInput {
  phone?: string;
  identification?: string;
  identificationType?: string;
  country?: string;
  /** How messages name this signer; default `signProfile[<index>]`. */
  label?: string;
}
export interface EffectiveValidations {
  camera: boolean;
  otpCode: boolean;
  options: { camera?: CameraMode; otpCode?: OtpMedium; whatsapp: boolean; both: boolean; identificationCardBack: boolean };
  /** Where they came from: the signer's own fields, the root's, or nothing asked anywhere. */
  source: 'signer' | 'global' | 'none';
  /** Where the signer is notified and runs the flow: ['email'], ['whatsapp'] or ['whatsapp', 'email']. */
  channels: ('email' | 'whatsapp')[];
}
export type ResolveResult = { ok: true; signers: EffectiveValidations[] } | { ok: false; message: string };

/** A level is the root (no prefix) or one `signProfile[x]` (prefix = its label). */
interface Level {
  /** '' for the root, the signer label for a signer. */
  prefix: string;
  fields: ValidationFieldsInput;
}

/** "Defines" = the key is present with a value other than `undefined`. */
function defines(fields: ValidationFieldsInput): boolean {
  return fields.camera !== undefined || fields.otpCode !== undefined || fields.options !== undefined;
}

function path(prefix: string, field: string): string {
  return prefix === '' ? field : `${prefix}.${field}`;
}

function quoted(prefix: string, field: string): string {
  return `"${path(prefix, field)}"`;
}

function isFilled(value: string | undefined): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

/** Options of a level, tolerating a `null` that slipped past the types. */
function optionsOf(fields: ValidationFieldsInput): ValidationOptionsInput {
  const options = fields.options;
  return typeof options === 'object' && options !== null ? options : {};
}

/** Rule 5 and the `identificationCardBack` check for one level; returns the first failure message, if any. */
function checkLevel(level: Level): string | undefined {
  const { prefix, fields } = level;
  const options = optionsOf(fields);
  const atRoot = prefix === '';
  for (const key of ['camera', 'otpCode'] as const) {
    if (options[key] !== undefined && fields[key] !== true) {
      return atRoot
        ? `"options.${key}" requires "${key}" to be true at the same level`
        : `${quoted(prefix, `options.${key}`)} requires ${quoted(prefix, key)} to be true ` +
            `(a global "${key}" does not apply to a signer with its own validations)`;
    }
  }
  if (options.identificationCardBack === true && options.whatsapp !== true) {
    return `${quoted(prefix, 'options.identificationCardBack')} is only available with ${quoted(prefix, 'options.whatsapp')}: true`;
  }
  return undefined;
}

/** Effective validations of one level, with defaults applied ('photo', 'email', booleans). */
function effectiveOf(fields: ValidationFieldsInput, source: EffectiveValidations['source']): EffectiveValidations {
  const input = optionsOf(fields);
  const camera = fields.camera === true;
  const otpCode = fields.otpCode === true;
  const whatsapp = input.whatsapp === true;
  const both = whatsapp && input.both === true; // rule 4
  const options: EffectiveValidations['options'] = {
    whatsapp,
    both,
    identificationCardBack: input.identificationCardBack === true,
  };
  if (camera) options.camera = input.camera ?? 'photo';
  if (otpCode) options.otpCode = input.otpCode ?? 'email';
  const channels: EffectiveValidations['channels'] = whatsapp ? (both ? ['whatsapp', 'email'] : ['whatsapp']) : ['email'];
  return { camera, otpCode, options, source, channels };
}

/** Checks on the effective result of one signer: rule 3, then the phone requirements. */
function checkEffective(effective: EffectiveValidations, signer: SignerValidationInput, label: string, settingPrefix: string): string | undefined {
  if (effective.options.camera === 'identification') {
    const missing = (['identification', 'identificationType', 'country'] as const).filter((key) => !isFilled(signer[key]));
    if (missing.length > 0) {
      return `${quoted(settingPrefix, 'options.camera')} identification requires ${missing.map((key) => quoted(label, key)).join(', ')}`;
    }
  }
  const hasPhone = isFilled(signer.phone);
  if (effective.options.whatsapp && !hasPhone) return `${quoted(label, 'phone')} is required for the WhatsApp flow`;
  if (effective.options.otpCode === 'phone' && !hasPhone) return `${quoted(label, 'phone')} is required to send the code by phone`;
  return undefined;
}

function labelOf(signer: SignerValidationInput, index: number): string {
  return signer.label !== undefined && signer.label !== '' ? signer.label : `signProfile[${index}]`;
}

export function resolveValidations(request: { root: ValidationFieldsInput; signers: SignerValidationInput[]; package: boolean }): ResolveResult {
  const { root, signers } = request;
  const packageMode = request.package === true;

  // (a) a bare `both` is refused everywhere, in both modes.
  if (root.both !== undefined) return { ok: false, message: '"both" is not allowed at the root: use "options.both"' };
  for (const [index, signer] of signers.entries()) {
    if (signer.both !== undefined) {
      const label = labelOf(signer, index);
      return { ok: false, message: `${quoted(label, 'both')} is not allowed: use ${quoted(label, 'options.both')}` };
    }
  }

  // (b) the root's own consistency.
  const rootFailure = checkLevel({ prefix: '', fields: root });
  if (rootFailure !== undefined) return { ok: false, message: rootFailure };

  const rootSource: EffectiveValidations['source'] = defines(root) ? 'global' : 'none';

  // (c) each signer, in order.
  const resolved: EffectiveValidations[] = [];
  for (const [index, signer] of signers.entries()) {
    const label = labelOf(signer, index);
    const ownValidations = !packageMode && defines(signer); // rule 6: per-signer fields are ignored in packages
    if (ownValidations) {
      const levelFailure = checkLevel({ prefix: label, fields: signer });
      if (levelFailure !== undefined) return { ok: false, message: levelFailure };
    }
    // rule 2: total precedence, never a merge.
    const effective = ownValidations ? effectiveOf(signer, 'signer') : effectiveOf(root, rootSource);
    const failure = checkEffective(effective, signer, label, ownValidations ? label : '');
    if (failure !== undefined) return { ok: false, message: failure };
    resolved.push(effective);
  }
  return { ok: true, signers: resolved };
}
