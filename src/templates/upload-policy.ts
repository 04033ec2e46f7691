import type { ServiceContext } from '../context.js';
import { fail } from '../domain-error.js';
import type { UploadPolicy } from '../files/upload-policy.js';
import { templateExists } from './queries.js';
import { TEMPLATE_UPLOAD_CONTENT_TYPES, templateIdOfKey } from './template-files.js';
import { writeTemplate } from './template-writes.js';

/** Template HTML uploads: only while the template exists, only as HTML; each recorded on its template. */
export function templateHtmlUploadPolicy(ctx: ServiceContext): UploadPolicy {
  const exists = async (key: string) => {
    const id = templateIdOfKey(key);
    return id !== undefined && (await templateExists(ctx.db, id));
  };
  return {
    matches: (key) => templateIdOfKey(key) !== undefined,
    contentTypes: TEMPLATE_UPLOAD_CONTENT_TYPES,
    // Recording the file on the template is also the check that it still exists: a delete that
    // came first finds no file recorded, so this upload is the one to remove it.
    claim: async (key) => {
      const id = templateIdOfKey(key);
      if (id === undefined) return false;
      return writeTemplate(ctx, id, (writes) => writes.markTemplateFilesStored(ctx.db, id));
    },
    async ensureTarget(key) {
      if (!(await exists(key))) throw fail('TEMPLATE_NOT_FOUND', { when: 'uploadUrl' });
    },
  };
}
