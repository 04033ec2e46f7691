/**
 * The question types the fill form knows (the real service's seventeen). Free of server code: the
 * people's pages import it to draw each type's input.
 */
export const QUESTION_TYPES = [
  'text',
  'name',
  'email',
  'phone',
  'number',
  'currency',
  'date',
  'nit',
  'identification',
  'department',
  'select',
  'searchlist',
  'clausula',
  'check',
  'image',
  'signature',
  'request',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** Types whose answer is one of the question's `options`, and whose `value` is a default. */
export const OPTION_TYPES: ReadonlySet<QuestionType> = new Set(['clausula', 'select', 'searchlist']);

/** Types answered by the signer while signing, never required of the integrator. */
export const SIGNER_TYPES: ReadonlySet<QuestionType> = new Set(['signature', 'image']);
