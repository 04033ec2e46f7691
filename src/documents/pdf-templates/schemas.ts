import Joi from 'joi';
import { instantAnswer } from '../../fields/instant.js';
import { templateId } from '../../templates/schemas.js';
import { MAX_BOXES_PER_SIGNER, type PositionInput, positionJoi } from '../schemas.js';

/** Signer types a PDF template names, each with its boxes. */
export type StoredPositions = Record<string, PositionInput[]>;

export interface CreatePdfTemplateInput {
  name: string;
  file: string;
  positions: StoredPositions;
}

export const storedPositionsJoi = Joi.object()
  .pattern(Joi.string().min(1).max(100), Joi.array().items(positionJoi).min(1).max(MAX_BOXES_PER_SIGNER).required())
  .min(1)
  .max(50);

export const createPdfTemplateSchema = Joi.object<CreatePdfTemplateInput, true>({
  name: Joi.string().trim().min(1).max(200).required(),
  file: Joi.string().base64().min(8).required().description('the PDF in base64'),
  positions: storedPositionsJoi.required().description('by signer type, the boxes where that signer signs: {"<type>": [{page, x, y, w, h}]}'),
}).example({ name: 'Lease', file: 'JVBERi0xLjcK', positions: { arrendatario: [{ page: 1, x: 0.45, y: 0.85, w: 180, h: 60 }] } });

export const pdfTemplateQuery = Joi.object<{ id?: string }, true>({ id: templateId });
export const pdfTemplateIdQuery = Joi.object<{ id: string }, true>({ id: templateId.required() });

const positionAnswer = Joi.object({
  page: Joi.number().required(),
  x: Joi.number().required(),
  y: Joi.number().required(),
  w: Joi.number().required(),
  h: Joi.number().required(),
});

const pdfTemplateView = Joi.object({
  id: templateId.required(),
  name: Joi.string().required().example('Lease'),
  sha256: Joi.string().hex().length(64).required(),
  positions: Joi.object().pattern(Joi.string(), Joi.array().items(positionAnswer)).required(),
  createdAt: instantAnswer.required(),
});

export const createdPdfTemplateResponse = Joi.object({ id: templateId.required() });
export const pdfTemplateResponse = Joi.alternatives().try(pdfTemplateView, Joi.object({ data: Joi.array().items(pdfTemplateView).required() }));
export const deletedPdfTemplateResponse = Joi.object({ id: templateId.required(), deleted: Joi.boolean().valid(true).required() });
