/** The little of oidc-provider (which ships no types) the tests' identity provider uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface GrantInstance {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  interface KoaContext {
    oidc: { client?: { clientId: string }; session?: { accountId?: string }; provider: Provider };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: new (options: {
      clientId: string | undefined;
      accountId: string | undefined;
    }) => GrantInstance;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
  export type { KoaContext };
}
