import { z } from "zod";
import { hasInvisibleCharacters, LOGIN_INVISIBLE_MESSAGE } from "../rules/login";
import { PASSWORD_MAX_LENGTH } from "../rules/password";
import { Avatar, Language, Theme } from "../settings";
import { Id, noNul, RequiredText } from "./common";
import { Role } from "./role";

export const Salutation = z.enum(["Mr", "Ms", "-"]);
export type Salutation = z.infer<typeof Salutation>;

/** Claims of the session token (spec §3), plus `auth_time`: when the session's login happened. */
export const TokenClaims = z.object({
  exp: z.number(),
  /** The user's id, as JWT wants it: a string, here always of digits. */
  sub: z.string().regex(/^[1-9][0-9]{0,9}$/),
  /** Epoch seconds of the login the session started with; refreshes carry it on (absolute lifetime). */
  auth_time: z.number().int().nonnegative(),
  name: z.string(),
  surname: z.string(),
  roles: z.array(Role),
  login: z.string(),
  facility: z.number().int().nullable(),
  lng: Language,
});
export type TokenClaims = z.infer<typeof TokenClaims>;

export const FacilityRef = z.object({ id: z.number().int(), name: z.string() }).meta({ id: "FacilityRef" });

/** The user as the account screens and the session see it (spec §3). */
export const User = z
  .object({
    id: z.number().int(),
    name: z.string(),
    surname: z.string(),
    login: z.string(),
    facility: FacilityRef.nullable(),
    roles: z.array(Role),
    email: z.string().nullable(),
    salutation: Salutation,
    activities: z.array(z.number().int()),
    qualifications: z.array(z.number().int()),
    show_help_redirect: z.boolean(),
    avatar: Avatar,
    language: Language,
    theme: Theme,
    /** The language trainings come in (a content language or "de"); null: the interface language. */
    content_language: z.string().nullable(),
    passive: z.boolean(),
    expires_at: z.string().nullable(),
  })
  .meta({ id: "User" });
export type User = z.infer<typeof User>;

export const LoginRequest = z
  .object({
    login: z.string().trim().min(1).max(100).refine(noNul),
    password: z.string().min(1).max(PASSWORD_MAX_LENGTH).refine(noNul),
  })
  .strict()
  .meta({ id: "LoginRequest" });
export type LoginRequest = z.infer<typeof LoginRequest>;

export const TokenResponse = z.object({ token: z.string() }).meta({ id: "TokenResponse" });
export type TokenResponse = z.infer<typeof TokenResponse>;

export const LoginResponse = z.object({ token: z.string(), user: User }).meta({ id: "LoginResponse" });
export type LoginResponse = z.infer<typeof LoginResponse>;

export const RefreshQuery = z.object({ lang: Language.optional() }).strict();

export const ForgotPasswordRequest = z
  .object({ user_login: z.string().trim().min(1).max(100).refine(noNul) })
  .strict()
  .meta({ id: "ForgotPasswordRequest" });
export const ForgotPasswordResponse = z.object({ informed: z.literal(true) }).meta({ id: "ForgotPasswordResponse" });

/**
 * A username as every place that sets one takes it (user create and edit, account rename): no
 * whitespace anywhere (spec §5), no invisible or formatting characters (rules/login.ts), checked
 * before trimming so that none at either end is cut off unseen.
 */
export const Login = z
  .string()
  .refine((s) => !hasInvisibleCharacters(s), LOGIN_INVISIBLE_MESSAGE)
  .pipe(RequiredText(100))
  .pipe(z.string().regex(/^\S+$/, "no spaces"));

/** An e-mail address as the server accepts it; the forms check with the same rule. */
export const EmailAddress = z.string().trim().max(254).pipe(z.email()).refine(noNul);
export const isValidEmail = (value: string): boolean => EmailAddress.safeParse(value).success;

export const AccountPatch = z
  .discriminatedUnion("property", [
    z.object({ property: z.literal("login"), value: z.object({ value: Login }).strict() }).strict(),
    z
      .object({
        property: z.literal("email"),
        value: z.object({ value: EmailAddress }).strict(),
      })
      .strict(),
    z
      .object({
        property: z.literal("password"),
        value: z
          .object({
            password: z.string().min(1).max(PASSWORD_MAX_LENGTH).refine(noNul),
            new_password: z.string().min(1).max(PASSWORD_MAX_LENGTH).refine(noNul),
          })
          .strict(),
      })
      .strict(),
  ])
  .meta({ id: "AccountPatch" });
export type AccountPatch = z.infer<typeof AccountPatch>;

export const UserIdParams = z.object({ id: Id }).strict();

/** A single sign-on provider as the login page shows it (issue 32). */
export const SsoProviderInfo = z
  .object({
    id: z.string(),
    /** What the button names: "Mit {name} anmelden". */
    name: z.string(),
    /** False when the provider did not answer lately: the button says it is unavailable. */
    available: z.boolean(),
  })
  .meta({ id: "SsoProviderInfo" });
export type SsoProviderInfo = z.infer<typeof SsoProviderInfo>;

export const SsoProvidersResponse = z.object({ providers: z.array(SsoProviderInfo) });
export type SsoProvidersResponse = z.infer<typeof SsoProvidersResponse>;

export const SsoProviderParams = z.object({ provider: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/) });

/** Where to go after the login: a path of this app (never another site). */
export const SsoLoginQuery = z.object({
  redirect: z
    .string()
    .max(2000)
    // Printable ASCII only (a browser's paths are percent-encoded): it becomes a Location header.
    .regex(/^\/(?![/\\])[\x21\x22\x24-\x7e]*$/, "a path of this app")
    .optional(),
  /**
   * The app's own random value for this login, kept in the tab (sessionStorage) and given back in
   * the fragment with the session: the app takes a session only from a login it began itself.
   */
  app_nonce: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/)
    .optional(),
});

/** The provider's answer: a code and the state, or an error it names. */
export const SsoCallbackQuery = z
  .object({
    code: z.string().max(4000).optional(),
    state: z.string().max(1000).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
    iss: z.string().max(2000).optional(),
    session_state: z.string().max(2000).optional(),
  })
  .loose();
