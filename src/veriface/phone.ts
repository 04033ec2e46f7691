import Joi from 'joi';
// The "max" metadata knows which number ranges are assigned, not only their lengths: with the default
// ("min") metadata +573991234567 passes although no Colombian operator owns 399. It weighs more, which
// a server loading it once can afford.
import { isValidPhoneNumber } from 'libphonenumber-js/max';

/** The contract's +[country code][number]: E.164, so no spaces or punctuation and at most 15 digits. */
const CONTRACT_FORMAT = /^\+[1-9]\d{1,14}$/;

/** A phone in the contract's format that is also a real, assigned number in its country. */
export function isValidPhone(value: string): boolean {
  return CONTRACT_FORMAT.test(value) && isValidPhoneNumber(value);
}

const validPhone = (value: string, helpers: Joi.CustomHelpers) => (isValidPhone(value) ? value : helpers.error('phone.invalid'));

export const phoneJoi = Joi.string()
  .custom(validPhone)
  .messages({ 'phone.invalid': '{{#label}} must be a valid phone number in the format +[country code][number]' });
