import type { Db } from '../../db/schema.js';
import { OrganizationError } from '../../organizations/organizations.js';
import { isPlainLoopback } from '../cookie.js';
import { sealSecret } from '../secret-at-rest.js';
import { setOidcColumns } from './queries.js';

export interface OidcChange {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** The issuer as discovery takes it: https, or plain http only on this machine (a provider for development). */
function checkedIssuer(issuer: string): string {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new OrganizationError('--oidc-issuer must be the https URL of the identity provider');
  }
  if (url.protocol !== 'https:' && !isPlainLoopback(url))
    throw new OrganizationError('--oidc-issuer must be an https URL (plain http only at a loopback address)');
  return issuer;
}

/**
 * Sets the organization's OpenID Connect provider for console single sign-on, or removes it (null).
 * The client secret is stored sealed with the service's data key: a copy of the database alone does
 * not let anyone act as the service towards the provider.
 */
export async function setOrganizationOidc(
  db: Db,
  options: { organizationId: string; oidc: OidcChange | null; dataKey: Buffer },
): Promise<{ issuer: string; clientId: string } | null> {
  const { oidc, organizationId, dataKey } = options;
  const values =
    oidc === null
      ? { oidc_issuer: null, oidc_client_id: null, oidc_client_secret: null }
      : {
          oidc_issuer: checkedIssuer(oidc.issuer),
          oidc_client_id: oidc.clientId,
          oidc_client_secret: sealSecret(dataKey, { oidcOf: organizationId }, oidc.clientSecret),
        };
  if (!(await setOidcColumns(db, organizationId, values))) throw new OrganizationError('ORGANIZATION_NOT_FOUND');
  return values.oidc_issuer === null || values.oidc_client_id === null ? null : { issuer: values.oidc_issuer, clientId: values.oidc_client_id };
}
