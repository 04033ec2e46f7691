import Joi from 'joi';
import { instantAnswer } from '../http/instant.js';
import { templateId } from '../templates/schemas.js';

export interface CreateReferenceInput {
  template: string;
  name?: string;
}

export const createReferenceSchema = Joi.object<CreateReferenceInput, true>({
  template: templateId.required(),
  name: Joi.string().trim().min(1).max(200).example('Website'),
});

export const listReferencesQuery = Joi.object<{ template: string }, true>({ template: templateId.required() });

export const deleteReferenceQuery = Joi.object<{ id: string }, true>({ id: templateId.required() });

export const referenceLinkResponse = Joi.object({
  id: templateId.required(),
  template: templateId.required(),
  name: Joi.string().example('Website'),
  url: Joi.string()
    .uri()
    .required()
    .description('public link where people fill in the questionnaire')
    .example('https://sign.example.com/reference/65f1c0e2a4b5c6d7e8f90124'),
  created_at: instantAnswer.required(),
});

export const referenceListResponse = Joi.object({ data: Joi.array().items(referenceLinkResponse).required() });

export const deletedReferenceResponse = Joi.object({ id: templateId.required(), deleted: Joi.boolean().required().example(true) });
