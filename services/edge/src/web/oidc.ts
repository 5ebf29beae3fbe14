import * as client from 'openid-client';

/**
 * OpenID Connect sign-in: authorization code flow with PKCE (S256), state and nonce checked on return.
 * Discovery happens lazily on the first sign-in so start-up never waits on the identity provider.
 */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
  /** Tests run a loopback identity provider over plain http. */
  allowInsecure?: boolean;
}

export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | null;
}

export interface OidcFlow {
  begin(): Promise<{ url: string; pending: PendingSignIn }>;
  finish(callbackUrl: URL, pending: PendingSignIn): Promise<OidcIdentity>;
}

export function createOidcFlow(settings: OidcSettings): OidcFlow {
  let discovered: Promise<client.Configuration> | null = null;
  const configuration = () => {
    discovered ??= client
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret,
        undefined,
        settings.allowInsecure ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered = null; // try again on the next sign-in
        throw error;
      });
    return discovered;
  };
  return {
    async begin() {
      const config = await configuration();
      const pending: PendingSignIn = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url: url.href, pending };
    },
    async finish(callbackUrl, pending) {
      const config = await configuration();
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('the identity provider returned no ID token');
      return { issuer: claims.iss, subject: claims.sub, email: typeof claims.email === 'string' ? claims.email : null };
    },
  };
}
