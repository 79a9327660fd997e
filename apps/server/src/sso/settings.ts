import fs from "node:fs";
import { FACILITYLESS_ROLES, ROLES } from "@carecampus/contract";
import { z } from "zod";

/**
 * The identity providers of single sign-on (issue 32), configured by the operator only: the
 * environment's SSO_PROVIDERS (a JSON array) or the JSON file SSO_CONFIG_FILE names (README
 * "Single sign-on"). Never by a browser call.
 */
const Role = z.enum(ROLES);

const Claim = z.string().regex(/^[A-Za-z0-9_:./-]{1,100}$/, "a claim name");

export const SsoProviderSchema = z
  .object({
    /** In the addresses: /api/auth/sso/<id>/login. */
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "lower-case letters, digits and '-' (at most 40)"),
    /** What the button names: "Mit <name> anmelden". */
    name: z.string().trim().min(1).max(60),
    issuer: z.string().url(),
    client_id: z.string().min(1).max(500),
    client_secret: z.string().min(1).max(2000),
    scopes: z.string().default("openid email profile"),
    /** The facility (its name) whose people log in here; null: the whole installation. */
    facility: z.string().trim().min(1).nullable().default(null),
    /** For a provider of the whole installation: the claim naming a new person's facility. */
    facility_claim: Claim.nullable().default(null),
    /** The claims that together identify the person (Entra ID: ["tid", "oid"], not the pairwise sub). */
    subject_claims: z.array(Claim).min(1).max(4).default(["sub"]),
    email_claim: Claim.default("email"),
    roles_claim: Claim.default("roles"),
    /** A value of the roles claim → the CareCampus roles it gives. */
    role_mapping: z.record(z.string().min(1).max(200), z.union([Role, z.array(Role)])).default({}),
    /** The roles of a new person whose claims map to none. */
    default_roles: z.array(Role).default(["employee"]),
    /** New people are created at their first login (else only linked or known people log in). */
    create_users: z.boolean().default(true),
    /** An existing local account with the same e-mail is linked, only when the provider says it is verified. */
    link_by_email: z.boolean().default(false),
    /** Logging out also ends the provider's session where it offers RP-initiated logout. */
    end_session: z.boolean().default(true),
    /** Seconds the provider may take to answer (discovery, token). */
    timeout_seconds: z.number().int().min(1).max(60).default(5),
  })
  .strict()
  .superRefine((p, ctx) => {
    const url = new URL(p.issuer);
    if (url.protocol !== "https:" && !isLoopback(url.hostname)) {
      ctx.addIssue({
        code: "custom",
        path: ["issuer"],
        message: "must be https (http only on 127.0.0.1 or localhost)",
      });
    }
    if (!p.scopes.split(/\s+/).includes("openid")) {
      ctx.addIssue({ code: "custom", path: ["scopes"], message: "must include openid" });
    }
    // A facility's provider gives roles in that facility only, never an installation-wide one.
    if (p.facility !== null) {
      const given = [...Object.values(p.role_mapping).flat(), ...p.default_roles];
      for (const role of new Set(given)) {
        if (FACILITYLESS_ROLES.includes(role)) {
          ctx.addIssue({
            code: "custom",
            path: ["role_mapping"],
            message: `a provider of one facility cannot give "${role}" (a role of the whole installation)`,
          });
        }
      }
    }
  });

export type SsoProvider = z.output<typeof SsoProviderSchema>;

const ProvidersSchema = z
  .array(SsoProviderSchema)
  .max(20)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const [i, p] of list.entries()) {
      if (seen.has(p.id)) ctx.addIssue({ code: "custom", path: [i, "id"], message: `"${p.id}" is given twice` });
      seen.add(p.id);
    }
  });

export function isLoopback(hostname: string): boolean {
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]" || hostname === "::1";
}

/**
 * The providers from SSO_PROVIDERS (JSON) or SSO_CONFIG_FILE (a JSON file); none when neither is
 * set. Throws an Error naming what is wrong (config.ts turns it into the start's message).
 */
export function parseSsoProviders(json: string | undefined, file: string | undefined): SsoProvider[] {
  if (json && file) throw new Error("SSO_PROVIDERS and SSO_CONFIG_FILE: set one of them, not both");
  let text = json;
  let where = "SSO_PROVIDERS";
  if (file) {
    where = `SSO_CONFIG_FILE (${file})`;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (err) {
      throw new Error(`${where}: cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`);
    }
  }
  if (!text?.trim()) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${where}: not JSON`);
  }
  // A file may hold { "providers": [...] } as well as the bare list.
  if (raw && typeof raw === "object" && !Array.isArray(raw) && "providers" in raw) {
    raw = (raw as { providers: unknown }).providers;
  }
  const parsed = ProvidersSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${where} ${i.path.join(".")}: ${i.message}`);
    throw new Error(issues.join("\n  "));
  }
  return parsed.data;
}
