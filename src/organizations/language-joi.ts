import Joi from 'joi';
import { LANGUAGES } from './languages.js';

/** A language the service speaks, as the API takes it (an organization's, a signer's, a person's). */
export const languageJoi = Joi.string()
  .valid(...LANGUAGES)
  .example('es');
