import Joi from 'joi';
import { describe, expect, it } from 'vitest';
import { isValidPhone, phoneJoi } from '../src/veriface/phone.js';

describe('a phone is +[country code][number] and a real number', () => {
  it.each(['+573001234567', '+525512345678', '+14155552671', '+34612345678'])('%s is valid', (phone) => {
    expect(isValidPhone(phone)).toBe(true);
  });

  it.each([
    ['without the +', '573001234567'],
    ['with spaces', '+57 300 123 4567'],
    ['with dashes', '+57-300-123-4567'],
    ['too short', '+57300'],
    ['with country code 0', '+000123456789'],
    ['with letters', '+57abc'],
    ['too long', '+5730012345678901'],
    ['empty', ''],
    ['just a +', '+'],
  ])('%s is invalid: %s', (_reason, phone) => {
    expect(isValidPhone(phone)).toBe(false);
  });

  it('a well-formed number in a range no operator was assigned is invalid', () => {
    // Colombian mobiles start 30x to 35x: 399 has the right length but does not exist.
    expect(isValidPhone('+573991234567')).toBe(false);
    expect(isValidPhone('+15555555555')).toBe(false);
  });
});

describe('an invalid phone reads "phone" must be a valid phone number in the format +[country code][number]', () => {
  it('names the field by its label', () => {
    const { error } = phoneJoi.label('phone').validate('573001234567');
    expect(error?.message).toBe('"phone" must be a valid phone number in the format +[country code][number]');
  });

  it('inside an object the label is the key', () => {
    const { error } = Joi.object({ phone: phoneJoi.required() }).validate({ phone: '+57 300 123 4567' });
    expect(error?.message).toBe('"phone" must be a valid phone number in the format +[country code][number]');
  });

  it('a valid phone passes unchanged', () => {
    expect(phoneJoi.validate('+573001234567')).toEqual({ value: '+573001234567' });
  });
});
