import { z } from "zod";
import { NOTIFICATION_TYPES } from "../messages";

const NotificationType = z.enum(NOTIFICATION_TYPES);

/** An id inside a JSON body: a number as sent, never coerced (`true` or `[["70"]]` are not ids). */
export const BodyId = z.number().int().positive().max(2_147_483_647);
/** An id as a path or query string writes it: decimal digits, no sign, spaces or leading zeros. */
const CANONICAL_ID = /^[1-9][0-9]{0,9}$/;
/**
 * An id in a path or query string (or in a body that may send it as a string): its decimal
 * digits, as the app writes them, else refused like any bad id. Not `0x5`, `5e0`, `+5`, `0005`
 * or ` 5`, which a number conversion reads as 5: a malformed id never acts on a real object.
 */
export const Id = z.preprocess((v) => (typeof v === "string" && CANONICAL_ID.test(v) ? Number(v) : v), BodyId);
export const IdParams = z.object({ id: Id }).strict();

export const HealthResponse = z.object({ status: z.literal("ok") }).meta({ id: "Health" });
export const VersionResponse = z
  .object({ short_hash: z.string(), date: z.string(), version: z.string() })
  .meta({ id: "Version" });
export type VersionResponse = z.infer<typeof VersionResponse>;

/** PostgreSQL text cannot hold NUL; refuse it at the edge instead of failing in the database. */
export const noNul = (s: string) => !s.includes("\u0000");
export const Str = (max: number) => z.string().max(max).refine(noNul, "must not contain NUL characters");

/** A trimmed, NFC-normalised, bounded text field. */
export const Text = (max = 100) =>
  Str(max * 4)
    .transform((s) => s.normalize("NFC").trim())
    .pipe(z.string().max(max));
export const RequiredText = (max = 100) =>
  Str(max * 4)
    .transform((s) => s.normalize("NFC").trim())
    .pipe(z.string().min(1).max(max));

export const OkResponse = z.object({ ok: z.literal(true) }).meta({ id: "Ok" });

/** A notification (spec §3); CustomMessage is JSON `{key, values}` the client translates. */
export const Notification = z
  .object({
    ID: z.number().int(),
    Type: NotificationType,
    CustomMessage: z.string(),
    ExpiresAt: z.string().nullable(),
    CreatedAt: z.string(),
  })
  .meta({ id: "Notification" });
export type Notification = z.infer<typeof Notification>;
export const NotificationList = z.array(Notification).meta({ id: "NotificationList" });
