import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const facilities = pgTable(
  "facilities",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("facilities_name_lower_uq").on(sql`lower(${t.name})`)],
);

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    login: text("login").notNull(),
    name: text("name").notNull(),
    surname: text("surname").notNull(),
    salutation: text("salutation").notNull().default("-"),
    email: text("email"),
    facilityId: integer("facility_id").references(() => facilities.id, { onDelete: "restrict" }),
    passwordHash: text("password_hash").notNull(),
    showHelpRedirect: boolean("show_help_redirect").notNull().default(true),
    passive: boolean("passive").notNull().default(false),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Raised on password change: tokens issued before it are refused. */
    tokenVersion: integer("token_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_login_lower_uq").on(sql`lower(${t.login})`), index("users_facility_idx").on(t.facilityId)],
);

/** The five roles of ARCHITECTURE decision 1, as rows so a user can hold several. */
export const roles = pgTable("roles", {
  name: text("name").primaryKey(),
});

export const userRoles = pgTable(
  "user_roles",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role")
      .notNull()
      .references(() => roles.name),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] }), index("user_roles_role_idx").on(t.role)],
);

export const preferences = pgTable("preferences", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  avatar: text("avatar").notNull().default("female"),
  language: text("language").notNull().default("de"),
  theme: text("theme").notNull().default("carely"),
});

/** Areas of focus ("Tätigkeitsschwerpunkte"). */
export const activities = pgTable(
  "activities",
  { id: serial("id").primaryKey(), name: text("name").notNull() },
  (t) => [uniqueIndex("activities_name_lower_uq").on(sql`lower(${t.name})`)],
);

/** Job qualifications. */
export const qualifications = pgTable(
  "qualifications",
  { id: serial("id").primaryKey(), name: text("name").notNull() },
  (t) => [uniqueIndex("qualifications_name_lower_uq").on(sql`lower(${t.name})`)],
);

export const userActivities = pgTable(
  "user_activities",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    activityId: integer("activity_id")
      .notNull()
      .references(() => activities.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.activityId] })],
);

export const userQualifications = pgTable(
  "user_qualifications",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    qualificationId: integer("qualification_id")
      .notNull()
      .references(() => qualifications.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.qualificationId] })],
);

/** In-app notifications (spec §3); `type` is e.g. CERTIFICATE_EXPIRES or PASSWORD_RESET_REQUEST. */
export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    customMessage: jsonb("custom_message").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_user_idx").on(t.userId)],
);

/** Key/value facts about the installation (content version, first-start marker, …). */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
