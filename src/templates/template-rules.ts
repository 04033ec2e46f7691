import { invalid } from '../domain-error.js';
import type { FieldMessage } from '../error-catalogue.js';
import type { Question, QuestionType, SignerProfile, TemplateBody } from './schemas.js';

/** Joi's wording for a value outside a list, so cross-field errors read like the schema's own. */
function mustBeOneOf(label: string, allowed: string[]): FieldMessage {
  if (allowed.length === 0) return `"${label}" is not allowed`;
  return `"${label}" must be ${allowed.length === 1 ? '' : 'one of '}[${allowed.join(', ')}]`;
}

const PROFILE_FIELD_TYPES: Partial<Record<keyof SignerProfile, QuestionType>> = {
  email: 'email',
  phone: 'phone',
  signature: 'signature',
};

/**
 * Rules that tie the parts of a template together: `sign`, `prereq` and the signer profiles must
 * point at questions that exist, with the right type and option values. Checked on the whole
 * template as it will be stored, so an update that changes one part is checked against the rest.
 */
export function checkTemplateReferences(body: TemplateBody): void {
  const byName = new Map<string, Question>(body.config.map((q) => [q.name, q]));
  const questionNames = [...byName.keys()];
  const preFillNames = (body.preFill ?? []).map((p) => p.name);

  body.sign.forEach((name, i) => {
    if (!byName.has(name)) throw invalid(mustBeOneOf(`sign[${i}]`, questionNames));
  });

  body.config.forEach((question, qi) => {
    const optionValues = (question.options ?? []).map((o) => o.value);
    if (question.type === 'clausula' && question.value !== undefined && !optionValues.includes(question.value)) {
      throw invalid(mustBeOneOf(`config[${qi}].value`, optionValues));
    }
    (question.prereq ?? []).forEach((condition, pi) => {
      const clausulas = body.config.filter((q) => q.type === 'clausula' && q.name !== question.name).map((q) => q.name);
      const source = byName.get(condition.k);
      if (source?.type !== 'clausula' || source.name === question.name) {
        throw invalid(mustBeOneOf(`config[${qi}].prereq[${pi}].k`, clausulas));
      }
      const values = (source.options ?? []).map((o) => o.value);
      if (!values.includes(condition.v)) throw invalid(mustBeOneOf(`config[${qi}].prereq[${pi}].v`, values));
    });
  });

  body.signatureProfile.forEach((profile, si) => {
    for (const field of ['name', 'identification', 'email', 'phone', 'signature'] as const) {
      const reference = profile[field];
      if (reference === undefined) continue;
      const wanted = PROFILE_FIELD_TYPES[field];
      const candidates = wanted ? questionNames.filter((n) => byName.get(n)?.type === wanted) : questionNames;
      const allowed = field === 'signature' ? candidates : [...candidates, ...preFillNames];
      // An identification may list alternatives, "cc|ce|pasaporte": the first answered one is used.
      const parts = field === 'identification' ? reference.split('|') : [reference];
      if (!parts.every((part) => allowed.includes(part))) {
        throw invalid(mustBeOneOf(`signatureProfile[${si}].${field}`, allowed));
      }
    }
  });

  (body.preBuildData ?? []).forEach((name, i) => {
    if (!byName.has(name)) throw invalid(mustBeOneOf(`preBuildData[${i}]`, questionNames));
  });
}
