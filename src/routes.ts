import { companyRoutes } from './company/routes.js';
import type { Config } from './config.js';
import { consoleKeyRoutes } from './console/keys/routes.js';
import { oidcRoutes } from './console/oidc/routes.js';
import { passkeyRoutes } from './console/passkeys/routes.js';
import { consoleProcessActionRoutes } from './console/process-actions/routes.js';
import { consoleReviewRoutes } from './console/review/routes.js';
import { consoleRoutes } from './console/routes.js';
import { consoleTemplateRoutes } from './console/templates/routes.js';
import { totpRoutes } from './console/totp/routes.js';
import { consoleWebhookRoutes } from './console/webhooks/routes.js';
import type { Deps } from './deps.js';
import { attachmentRoutes } from './documents/attachments/routes.js';
import { documentPdfUploadPolicy } from './documents/creating/pdf-uploads.js';
import { editRoutes } from './documents/editing/routes.js';
import { pdfTemplateRoutes } from './documents/pdf-templates/routes.js';
import { documentRoutes } from './documents/routes.js';
import { filesRoutes } from './files/routes.js';
import { healthRoute } from './health/routes.js';
import type { ApiRoute } from './http/route.js';
import { organizationRoutes } from './organizations/routes.js';
import { fillPageRoutes } from './people/fill-page.js';
import { fillRoutes } from './people/fill-routes.js';
import { pageRoutes } from './people/pages.js';
import { peopleRoutes } from './people/routes.js';
import { photoRoutes } from './photos/routes.js';
import { prebuiltRoutes } from './prebuilt/routes.js';
import { referenceRoutes } from './references/routes.js';
import { templateRoutes } from './templates/routes.js';
import { templateHtmlUploadPolicy } from './templates/upload-policy.js';
import { catalogueRoutes } from './veriface/catalogue-routes.js';
import { verifaceRoutes } from './veriface/routes.js';
import { verificationRoutes } from './verification/routes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { whatsAppWebhookRoutes } from './whatsapp/inbound/routes.js';
import { localChatRoutes } from './whatsapp/local/routes.js';
import { whatsAppRecordRoutes } from './whatsapp/records/routes.js';

/** The local WhatsApp chat, on an instance without a WhatsApp provider only (which signs with a secret of its own, deps.ts). */
function localChat(config: Config, deps: Deps): ApiRoute[] {
  const appSecret = deps.whatsappWebhook.appSecret;
  if (config.whatsapp !== undefined || appSecret === undefined) return [];
  return localChatRoutes(deps, { config, assets: deps.pageAssets, appSecret });
}

/** Every route the service answers, each declared once; app.ts registers them and the route security suite walks them. */
export function routeTable(config: Config, deps: Deps): ApiRoute[] {
  return [
    ...templateRoutes(deps),
    ...referenceRoutes(deps),
    ...webhookRoutes(deps),
    ...whatsAppWebhookRoutes(deps, deps.whatsappWebhook),
    ...whatsAppRecordRoutes(deps),
    ...localChat(config, deps),
    ...verifaceRoutes(deps),
    ...documentRoutes(deps),
    ...attachmentRoutes(deps),
    ...editRoutes(deps),
    ...prebuiltRoutes(deps),
    ...pdfTemplateRoutes(deps),
    ...catalogueRoutes(),
    ...organizationRoutes(deps),
    ...companyRoutes(deps),
    ...photoRoutes(deps),
    ...peopleRoutes(deps),
    ...fillRoutes(deps),
    ...pageRoutes(config, deps.pageAssets, deps.embeddingOrigins, deps.db),
    ...fillPageRoutes(config, deps.pageAssets, deps),
    ...consoleRoutes(deps, { config, assets: deps.pageAssets }),
    ...consoleTemplateRoutes(deps),
    ...consoleWebhookRoutes(deps),
    ...consoleKeyRoutes(deps),
    ...consoleReviewRoutes(deps, { config }),
    ...consoleProcessActionRoutes(deps),
    ...totpRoutes(deps, { config }),
    ...passkeyRoutes(deps, { config }),
    ...oidcRoutes(deps, { config }),
    ...verificationRoutes(deps, { rateLimit: config.verifyRateLimit }),
    ...filesRoutes({
      store: deps.blobs,
      signer: deps.signer,
      maxBytes: config.uploadMaxBytes,
      policies: [templateHtmlUploadPolicy(deps), documentPdfUploadPolicy(deps)],
    }),
    healthRoute(deps),
  ];
}
