import Joi from 'joi';
import { templateId } from '../templates/schemas.js';

export interface CreateReferenceInput {
  template: string;
  name?: string;
}

export const createReferenceSchema = Joi.object<CreateReferenceInput, true>({
  template: templateId.required(),
  name: Joi.string().trim().min(1).max(200),
});

export const listReferencesQuery = Joi.object<{ template: string }, true>({ template: templateId.required() });

export const deleteReferenceQuery = Joi.object<{ id: string }, true>({ id: templateId.required() });

export const referenceLinkResponse = Joi.object({
  id: templateId.required(),
  template: templateId.required(),
  name: Joi.string(),
  url: Joi.string().uri().required().description('public link where people fill in the questionnaire'),
  created_at: Joi.string().isoDate().required(),
});

export const referenceListResponse = Joi.object({ data: Joi.array().items(referenceLinkResponse).required() });

export const deletedReferenceResponse = Joi.object({ id: templateId.required(), deleted: Joi.boolean().required() });
