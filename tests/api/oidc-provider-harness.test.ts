import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, TestOidcSignInError, type TestOidcProvider, type TestOidcTokenAnswer } from '../helpers/oidc-provider.js';

/**
 * The test OpenID Connect provider (tests/helpers/oidc-provider.ts) on its own, without the app:
 * openid-client v6, the app's relying party library, runs the authorization code flow against it
 * (PKCE S256, state, nonce) and checks what it gets, so the app's single sign-on tests can trust
 * the provider they run against.
 */

const REDIRECT_URI = 'http://127.0.0.1:3999/api/auth/oidc/callback';

const alice = { sub: 'alice-0001', email: 'alice@example.edu', email_verified: true, preferred_username: 'alice', name: 'Alice Liddell' };

/** What the app does before redirecting: PKCE, state and nonce, and the authorization URL. */
async function authorizationRequest(config: client.Configuration, parameters: Record<string, string> = {}) {
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...parameters,
  });
  return { url, checks: { pkceCodeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true } };
}

function discover(op: TestOidcProvider, auth: client.ClientAuth = client.ClientSecretBasic(op.clientSecret)) {
  return client.discovery(new URL(op.issuer), op.clientId, undefined, auth, { execute: [client.allowInsecureRequests] });
}

describe('the test OIDC provider', () => {
  let op: TestOidcProvider;
  let config: client.Configuration;

  beforeAll(async () => {
    op = await startOidcProvider({ redirectUris: [REDIRECT_URI], accounts: [alice] });
    config = await discover(op);
  });
  afterAll(() => op?.close());

  it('publishes its metadata at its http issuer, and its real signing key', async () => {
    expect(op.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(op.issuer);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    const jwks = (await (await fetch(metadata.jwks_uri!)).json()) as { keys: Array<{ kid: string; n: string }> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kid: op.signingKey.kid, n: op.signingKey.publicJwk.n });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('runs the authorization code flow: the ID token names the account and carries its claims', async () => {
    const { url, checks } = await authorizationRequest(config);
    const callback = await op.signIn(url.href, alice.sub);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe(checks.expectedState);
    expect(callback.searchParams.get('iss')).toBe(op.issuer);
    expect(callback.searchParams.get('code')).toBeTruthy();

    const tokens = await client.authorizationCodeGrant(config, callback, checks);
    expect(tokens.claims()).toMatchObject({
      iss: op.issuer,
      aud: op.clientId,
      sub: alice.sub,
      nonce: checks.expectedNonce,
      email: alice.email,
      email_verified: true,
      preferred_username: alice.preferred_username,
      name: alice.name,
    });
    // Signed with the key the helper exports (tests can forge tokens with it).
    const header = JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString()) as { alg: string; kid: string };
    expect(header.alg).toBe('RS256');
    expect(header.kid).toBe(op.signingKey.kid);
    expect(createPublicKey(op.signingKey.privateKey).export({ format: 'jwk' }).n).toBe(op.signingKey.publicJwk.n);
  });

  it('asks only for the login: consent is implied, unless the request says prompt=consent', async () => {
    const prompts: string[] = [];
    const listener = (_ctx: unknown, prompt: { name: string }) => prompts.push(prompt.name);
    op.provider.on('interaction.started', listener);
    try {
      const plain = await authorizationRequest(config);
      await client.authorizationCodeGrant(config, await op.signIn(plain.url, alice.sub), plain.checks);
      expect(prompts).toEqual(['login']);

      prompts.length = 0;
      const consent = await authorizationRequest(config, { prompt: 'consent' });
      const tokens = await client.authorizationCodeGrant(config, await op.signIn(consent.url, alice.sub), consent.checks);
      expect(prompts).toEqual(['login', 'consent']);
      expect(tokens.claims()).toMatchObject({ sub: alice.sub, email: alice.email });
    } finally {
      op.provider.off('interaction.started', listener);
    }
  });

  it('gives only the claims of the scopes asked for', async () => {
    const { url, checks } = await authorizationRequest(config, { scope: 'openid' });
    const tokens = await client.authorizationCodeGrant(config, await op.signIn(url, alice.sub), checks);
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(alice.sub);
    expect(claims).not.toHaveProperty('email');
    expect(claims).not.toHaveProperty('preferred_username');
  });

  it('a wrong state is refused by openid-client, before the code is spent', async () => {
    const { url, checks } = await authorizationRequest(config);
    const callback = await op.signIn(url, alice.sub);
    const refused = client.authorizationCodeGrant(config, callback, { ...checks, expectedState: client.randomState() });
    await expect(refused).rejects.toMatchObject({ code: 'OAUTH_INVALID_RESPONSE', cause: { message: expect.stringMatching(/"state"/) } });
    const tokens = await client.authorizationCodeGrant(config, callback, checks);
    expect(tokens.claims()?.sub).toBe(alice.sub);
  });

  it('a code cannot be used twice', async () => {
    const { url, checks } = await authorizationRequest(config);
    const callback = await op.signIn(url, alice.sub);
    await client.authorizationCodeGrant(config, callback, checks);
    const second = client.authorizationCodeGrant(config, callback, checks);
    await expect(second).rejects.toBeInstanceOf(client.ResponseBodyError);
    await expect(second).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('a wrong nonce or PKCE verifier is refused', async () => {
    const first = await authorizationRequest(config);
    const firstCallback = await op.signIn(first.url, alice.sub);
    await expect(
      client.authorizationCodeGrant(config, firstCallback, { ...first.checks, expectedNonce: client.randomNonce() }),
    ).rejects.toMatchObject({ code: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED', cause: { cause: { claim: 'nonce' } } });

    const second = await authorizationRequest(config);
    const secondCallback = await op.signIn(second.url, alice.sub);
    const refused = client.authorizationCodeGrant(config, secondCallback, {
      ...second.checks,
      pkceCodeVerifier: client.randomPKCECodeVerifier(),
    });
    await expect(refused).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('requires PKCE: without a code challenge the provider answers an error to the redirect_uri', async () => {
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: 'openid', state, nonce: client.randomNonce() });
    const refused = op.signIn(url, alice.sub);
    await expect(refused).rejects.toBeInstanceOf(TestOidcSignInError);
    const error = (await refused.catch((e: unknown) => e)) as TestOidcSignInError;
    expect(error.redirect?.searchParams.get('error')).toBe('invalid_request');
    expect(error.redirect?.searchParams.get('state')).toBe(state);
  });

  it('refuses a redirect_uri that is not registered, on its own error page', async () => {
    const { url } = await authorizationRequest(config, { redirect_uri: 'http://127.0.0.1:3999/elsewhere' });
    await expect(op.signIn(url, alice.sub)).rejects.toThrow(/400[\s\S]*redirect_uri/);
  });

  it('signs in only accounts it knows, read at every sign-in', async () => {
    const { url } = await authorizationRequest(config);
    await expect(op.signIn(url, 'nobody')).rejects.toThrow(/no such account: nobody/);

    const bob = { sub: 'bob-0002', email: 'bob@example.edu', email_verified: false };
    op.accounts.set(bob.sub, bob);
    const request = await authorizationRequest(config);
    const tokens = await client.authorizationCodeGrant(config, await op.signIn(request.url, bob.sub), request.checks);
    expect(tokens.claims()).toMatchObject({ sub: bob.sub, email: bob.email, email_verified: false });
    expect(tokens.claims()).not.toHaveProperty('preferred_username');

    op.accounts.delete(bob.sub);
    const again = await authorizationRequest(config);
    await expect(op.signIn(again.url, bob.sub)).rejects.toThrow(/no such account/);
  });

  it('the client must authenticate with its secret, client_secret_basic or client_secret_post', async () => {
    const wrongBasic = await discover(op, client.ClientSecretBasic('not-the-secret'));
    const basic = await authorizationRequest(wrongBasic);
    await expect(client.authorizationCodeGrant(wrongBasic, await op.signIn(basic.url, alice.sub), basic.checks)).rejects.toMatchObject({
      status: 401,
      cause: [{ scheme: 'basic', parameters: { error: 'invalid_client' } }],
    });
    const wrongPost = await discover(op, client.ClientSecretPost('not-the-secret'));
    const post = await authorizationRequest(wrongPost);
    await expect(client.authorizationCodeGrant(wrongPost, await op.signIn(post.url, alice.sub), post.checks)).rejects.toMatchObject({
      status: 401,
      error: 'invalid_client',
    });

    // openid-client's default, given the secret as a string, is client_secret_post.
    const byPost = await client.discovery(new URL(op.issuer), op.clientId, op.clientSecret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    const { url, checks } = await authorizationRequest(byPost);
    const tokens = await client.authorizationCodeGrant(byPost, await op.signIn(url, alice.sub), checks);
    expect(tokens.claims()).toMatchObject({ sub: alice.sub, email: alice.email });
  });

  it('stop() makes it unreachable, restart() brings it back on the same port with the same keys', async () => {
    const { url: pending, checks: pendingChecks } = await authorizationRequest(config);
    const pendingCallback = await op.signIn(pending, alice.sub);
    await op.stop();
    await op.stop(); // idempotent
    const down = await discover(op).catch((e: unknown) => e);
    // fetch's network error ("fetch failed"), not an HTTP answer.
    expect(down).toBeInstanceOf(TypeError);
    expect(down).toMatchObject({ cause: { code: 'ECONNREFUSED' } });
    await expect(client.authorizationCodeGrant(config, pendingCallback, pendingChecks)).rejects.toMatchObject({
      cause: { code: 'ECONNREFUSED' },
    });
    await expect(op.signIn(pending, alice.sub)).rejects.toThrow(TypeError);

    await op.restart();
    const back = await discover(op);
    expect(back.serverMetadata().issuer).toBe(op.issuer);
    // The configuration discovered before the stop still works: same issuer, keys and client.
    const { url, checks } = await authorizationRequest(config);
    const tokens = await client.authorizationCodeGrant(config, await op.signIn(url, alice.sub), checks);
    expect(tokens.claims()?.sub).toBe(alice.sub);
  });
});

describe('the test OIDC provider with `tamper`', () => {
  const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const accounts = ['plain', 'renamed', 'otherkey', 'hangup'].map((sub) => ({ ...alice, sub }));
  /** Every answer tamper saw, by sub. */
  const seen = new Map<string, TestOidcTokenAnswer>();
  let op: TestOidcProvider;
  let config: client.Configuration;

  beforeAll(async () => {
    op = await startOidcProvider({
      redirectUris: [REDIRECT_URI],
      accounts,
      tamper: (answer) => {
        seen.set(answer.sub, answer);
        if (answer.sub === 'renamed') return { ...answer.body, id_token: answer.resign({ ...answer.idToken.claims, name: 'Renamed' }) };
        if (answer.sub === 'otherkey') return { ...answer.body, id_token: answer.resign(answer.idToken.claims, otherKey) };
        if (answer.sub === 'hangup') return 'hang-up';
        return undefined;
      },
    });
    // As the app discovers it: ID tokens from the token endpoint have their signatures checked.
    config = await client.discovery(new URL(op.issuer), op.clientId, undefined, client.ClientSecretBasic(op.clientSecret), {
      execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks],
    });
  });
  afterAll(() => op?.close());

  async function grant(sub: string) {
    const { url, checks } = await authorizationRequest(config);
    return client.authorizationCodeGrant(config, await op.signIn(url, sub), checks);
  }

  it('sees each answer (its sub, the ID token decoded, the body); undefined sends it unchanged', async () => {
    const tokens = await grant('plain');
    const answer = seen.get('plain')!;
    expect(answer.idToken.header).toMatchObject({ alg: 'RS256', kid: op.signingKey.kid });
    expect(answer.idToken.claims).toMatchObject({ sub: 'plain', iss: op.issuer, aud: op.clientId });
    expect(answer.body).toMatchObject({ id_token: tokens.id_token, access_token: tokens.access_token, token_type: 'Bearer' });
  });

  it('sends the body it returns: an ID token re-signed with the provider’s key passes, with another key is refused', async () => {
    expect((await grant('renamed')).claims()).toMatchObject({ sub: 'renamed', name: 'Renamed', email: alice.email });
    await expect(grant('otherkey')).rejects.toMatchObject({
      code: 'OAUTH_INVALID_RESPONSE',
      cause: { message: 'JWT signature verification failed' },
    });
  });

  it("'hang-up' cuts the connection with no answer (a network failure, as the provider going down); others still sign in", async () => {
    const cut = await grant('hangup').catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(TypeError);
    expect(cut).toMatchObject({ message: 'fetch failed' });
    expect((await grant('plain')).claims()?.sub).toBe('plain');
  });
});
