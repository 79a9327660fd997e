// TEST PEER — not part of the product. A reference OpenID Connect identity provider for the
// single sign-on tests and the opt-in demo (OIDC_PEER=true): `oidc-provider` on 127.0.0.1 with a
// fixed signing key, accounts whose claims the caller sets (and may change between logins), its
// own login form, and RP-initiated logout. Mischief for the tests: an ID token of another issuer,
// or one already expired, re-signed with the peer's own key, so only the checks of the relying
// party can tell.
import crypto from "node:crypto";
import http from "node:http";
import { decodeJwt, importJWK, SignJWT } from "jose";
import Provider from "oidc-provider";

/** The peer's fixed signing key (ES256): the same at every start, so tokens can be reproduced. */
const SIGNING_KEY = {
  kty: "EC",
  crv: "P-256",
  x: "G-nJAlle9xV908Y8rdN2WCNAnFf1o8fDeyzjfr-Tmgk",
  y: "0Sjfkq4ArtypatHR2eiuVPNIPsBYvV4iKiqFXz5Oi5s",
  d: "t6CGkCndBXUrua2YRUU-a4kLeuZ6tccfNPnqAnP04eI",
  kid: "carecampus-oidc-peer-1",
  alg: "ES256",
  use: "sig",
};

/** Claims the peer may put into an ID token (beside sub): Entra's tid/oid, roles, e-mail, names. */
const CLAIMS = ["tid", "oid", "roles", "groups", "email", "email_verified", "name", "given_name", "family_name"];

/** The demo's accounts (password `Demo-1234!`): printed by the server when OIDC_PEER=true starts it. */
export const DEMO_ACCOUNTS = [
  {
    login: "lena.sso",
    password: "Demo-1234!",
    claims: {
      tid: "demo-tenant",
      oid: "0b6f5c1e-lena",
      email: "lena.sso@example.org",
      email_verified: true,
      given_name: "Lena",
      family_name: "Sommer",
      name: "Lena Sommer",
      roles: [],
    },
  },
  {
    login: "paul.sso",
    password: "Demo-1234!",
    claims: {
      tid: "demo-tenant",
      oid: "4d2a9e77-paul",
      email: "paul.sso@example.org",
      email_verified: true,
      given_name: "Paul",
      family_name: "Peters",
      name: "Paul Peters",
      roles: ["CareCampus.Supervisor"],
    },
  },
];

const html = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** oidc-provider's storage, in this process's memory (a test peer keeps nothing). */
function memoryAdapter() {
  const store = new Map();
  const grants = new Map();
  return class MemoryAdapter {
    constructor(model) {
      this.model = model;
    }
    key(id) {
      return `${this.model}:${id}`;
    }
    async upsert(id, payload, expiresIn) {
      store.set(this.key(id), { payload, until: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
      if (payload.grantId) grants.set(payload.grantId, [...(grants.get(payload.grantId) ?? []), this.key(id)]);
    }
    async find(id) {
      const found = store.get(this.key(id));
      if (!found || found.until < Date.now()) return undefined;
      return found.payload;
    }
    async findByUserCode(userCode) {
      return [...store.values()].find((v) => v.payload.userCode === userCode)?.payload;
    }
    async findByUid(uid) {
      return [...store.values()].find((v) => v.payload.uid === uid)?.payload;
    }
    async consume(id) {
      const found = store.get(this.key(id));
      if (found) found.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId) {
      for (const key of grants.get(grantId) ?? []) store.delete(key);
      grants.delete(grantId);
    }
  };
}

/** The peer's login form: a plain, labelled HTML form (what a person sees at their employer's provider). */
function loginPage(uid, clientName, error) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Reference identity provider – sign in</title>
<style>body{font-family:sans-serif;max-width:24rem;margin:2rem auto;padding:0 1rem}label,input,button{display:block;width:100%;box-sizing:border-box;margin:.25rem 0 1rem;font-size:1rem}input,button{padding:.6rem}p.error{color:#a00}</style>
</head><body><main>
<h1>Reference identity provider</h1>
<p>Sign in to continue to ${html(clientName)}. (Test peer, not part of CareCampus.)</p>
${error ? `<p class="error" role="alert">${html(error)}</p>` : ""}
<form method="post" action="/interaction/${html(uid)}/login">
<label for="login">Username</label><input id="login" name="login" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form></main></body></html>`;
}

async function readForm(req) {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 10_000) break;
  }
  return new URLSearchParams(body);
}

/**
 * Starts the peer. `clients`: the relying parties it knows (client_id, client_secret,
 * redirect_uris, post_logout_redirect_uris). `accounts`: login, password and the claims of each
 * (a list the caller may change: claims are read at each login).
 */
export async function startOidcPeer({ port = 0, clients, accounts = DEMO_ACCOUNTS.map((a) => ({ ...a })) }) {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const state = { mischief: null, logins: [], down: false, hang: false };
  const find = (id) => accounts.find((a) => a.login === id);

  const provider = new Provider(issuer, {
    adapter: memoryAdapter(),
    clients: clients.map((c) => ({
      response_types: ["code"],
      grant_types: ["authorization_code"],
      token_endpoint_auth_method: "client_secret_basic",
      id_token_signed_response_alg: "ES256",
      ...c,
    })),
    jwks: { keys: [SIGNING_KEY] },
    cookies: { keys: ["carecampus-oidc-peer-cookie-key"] },
    pkce: { required: () => true },
    claims: {
      openid: ["sub", "tid", "oid", "roles", "groups"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name"],
    },
    // Every claim of the granted scopes in the ID token, as Entra ID and Keycloak send them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const account = find(id);
      if (!account) return undefined;
      return {
        accountId: id,
        async claims() {
          const claims = { sub: id };
          for (const name of CLAIMS) if (account.claims[name] !== undefined) claims[name] = account.claims[name];
          return claims;
        },
      };
    },
    // A first-party client: no consent screen, every requested scope granted.
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) {
        const found = await ctx.oidc.provider.Grant.find(grantId);
        if (found) return found;
      }
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope("openid email profile");
      grant.addOIDCClaims(CLAIMS);
      await grant.save();
      return grant;
    },
    ttl: { IdToken: 3600, AccessToken: 600, AuthorizationCode: 60, Session: 3600, Grant: 3600, Interaction: 600 },
    renderError(ctx, out) {
      ctx.type = "html";
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><main><h1>${html(out.error)}</h1><p>${html(out.error_description ?? "")}</p></main></body></html>`;
    },
  });
  provider.proxy = false;

  // Mischief: the token endpoint's ID token replaced by one of another issuer, or expired.
  const key = await importJWK(SIGNING_KEY, "ES256");
  provider.use(async (ctx, next) => {
    await next();
    // A discovery document naming endpoints elsewhere (the relying party must not go there).
    if (ctx.path === "/.well-known/openid-configuration" && state.mischief === "foreign" && ctx.body) {
      ctx.body = {
        ...ctx.body,
        token_endpoint: "http://127.0.0.1:1/elsewhere/token",
        jwks_uri: "http://127.0.0.1:1/elsewhere/jwks",
      };
      return;
    }
    if (ctx.path !== "/token" || !state.mischief || !ctx.body || typeof ctx.body !== "object" || !ctx.body.id_token)
      return;
    const claims = decodeJwt(ctx.body.id_token);
    const now = Math.floor(Date.now() / 1000);
    if (state.mischief === "issuer") claims.iss = "http://127.0.0.1:1/another-issuer";
    if (state.mischief === "expired") Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
    ctx.body = {
      ...ctx.body,
      id_token: await new SignJWT(claims)
        .setProtectedHeader({ alg: "ES256", kid: SIGNING_KEY.kid, typ: "JWT" })
        .sign(key),
    };
  });

  const callback = provider.callback();
  server.on("request", async (req, res) => {
    try {
      if (state.down) {
        // A provider that is down: the connection is taken and closed without an answer.
        req.socket.destroy();
        return;
      }
      // A provider that hangs: the request is taken and never answered.
      if (state.hang) return;
      const m = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/.exec(req.url ?? "");
      if (m) {
        const details = await provider.interactionDetails(req, res);
        const client = await provider.Client.find(details.params.client_id);
        if (!m[2]) {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          res.end(loginPage(details.uid, client?.clientName ?? client?.clientId ?? "", null));
          return;
        }
        const form = await readForm(req);
        const account = find(form.get("login") ?? "");
        const ok =
          account &&
          crypto.timingSafeEqual(
            crypto.createHash("sha256").update(account.password).digest(),
            crypto
              .createHash("sha256")
              .update(form.get("password") ?? "")
              .digest(),
          );
        if (!ok) {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          res.end(loginPage(details.uid, client?.clientName ?? "", "Wrong username or password."));
          return;
        }
        state.logins.push(account.login);
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: account.login } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      callback(req, res);
    } catch (err) {
      res.writeHead(400, { "content-type": "text/plain" });
      res.end(String(err?.message ?? err));
    }
  });

  return {
    issuer,
    accounts,
    /** What the peer does wrong on purpose: null, 'issuer' (another iss), 'expired' (exp in the past) or 'foreign' (its discovery names a token endpoint and key set on another origin). */
    setMischief(kind) {
      state.mischief = kind;
    },
    /** Down: every connection is closed unanswered (discovery and logins fail). */
    setDown(down) {
      state.down = down;
    },
    /** Hanging: every request is taken and never answered (until the peer closes). */
    setHang(hang) {
      state.hang = hang;
    },
    /** The logins made at the peer's form, in order. */
    logins: state.logins,
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      });
    },
  };
}
