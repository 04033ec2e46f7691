import Joi from 'joi';

/** The most files one participant may be asked for. */
export const MAX_FILES_ASKED = 10;

/**
 * A file asked of a participant (docs/real-service.md §5.1 `files`: `{name, optional?}`), with a
 * `description` of ours that their page shows under the name. Required unless `optional`.
 */
export interface FileAskedInput {
  name: string;
  description?: string;
  optional: boolean;
}

export const filesAskedJoi = Joi.array()
  .items(
    Joi.object<FileAskedInput, true>({
      name: Joi.string().trim().min(1).max(200).required().example('Documento de identidad'),
      description: Joi.string().trim().min(1).max(1000).example('Both sides of your ID, in one PDF or photo'),
      optional: Joi.boolean().default(false).description('true: the participant may sign without giving it'),
    }),
  )
  .min(1)
  .max(MAX_FILES_ASKED)
  .unique((a: FileAskedInput, b: FileAskedInput) => a.name.toLowerCase() === b.name.toLowerCase())
  .description(
    'attachments asked of this participant: each a PDF, JPEG or PNG they give on their signing page before they sign (a required one blocks signing until given); GET /attachments lists them',
  );
