/**
 * Why an answer was refused, for a page to say it in the person's words; the message beside it
 * stays the one /document/save answers. Free of server code: the fill page imports it.
 */
export type AnswerRefusal =
  | 'required'
  | 'unknown'
  | 'duplicate'
  | 'signed'
  | 'too-costly'
  | 'too-long'
  | 'option'
  | 'image'
  | 'email'
  | 'phone'
  | 'number'
  | 'min'
  | 'max'
  | 'date'
  | 'digits'
  | 'identification'
  | 'pattern';
