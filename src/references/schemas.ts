import Joi from 'joi';
import { templateId } from '../templates/schemas.js';

export interface CreateReferenceInput {
  template: string;
  name?: string;
}

export const createReferenceSchema = Joi.object<CreateReferenceInput>({
  template: templateId.required(),
  name: Joi.string().trim().min(1).max(200),
});

export const listReferencesQuery = Joi.object<{ template: string }>({ template: templateId.required() });

export const deleteReferenceQuery = Joi.object<{ id: string }>({ id: templateId.required() });
