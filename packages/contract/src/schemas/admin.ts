import { z } from "zod";
import { Role } from "../roles";
import { PASSWORD_MAX_LENGTH } from "../rules/password";
import { Salutation } from "./auth";
import { Id, noNul, RequiredText, Text } from "./common";

export const NamedItem = z.object({ id: z.number().int(), name: z.string() }).meta({ id: "NamedItem" });
export type NamedItem = z.infer<typeof NamedItem>;
export const NamedList = z.array(NamedItem).meta({ id: "NamedList" });

export const FacilityCreate = z
  .object({ name: RequiredText(100) })
  .strict()
  .meta({ id: "FacilityCreate" });

/** A user as administrators see it in lists and search results. */
export const AdminUser = z
  .object({
    id: z.number().int(),
    name: z.string(),
    surname: z.string(),
    login: z.string(),
    email: z.string().nullable(),
    salutation: Salutation,
    roles: z.array(Role),
    facility: NamedItem.nullable(),
    activities: z.array(z.number().int()),
    qualifications: z.array(z.number().int()),
  })
  .meta({ id: "AdminUser" });
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUserList = z
  .object({ users: z.array(AdminUser), total: z.number().int() })
  .meta({ id: "AdminUserList" });
export type AdminUserList = z.infer<typeof AdminUserList>;

export const UserSearchQuery = z.object({ query: z.string().max(100).refine(noNul).optional() }).strict();

const Ids = z.array(Id).max(100);
const UserFields = {
  name: RequiredText(100),
  surname: RequiredText(100),
  login: RequiredText(100).pipe(z.string().regex(/^\S+$/, "no spaces")),
  salutation: Salutation.optional(),
  email: Text(254)
    .pipe(z.union([z.literal(""), z.email()]))
    .optional()
    .nullable(),
  roles: z.array(Role).max(5).optional(),
  facility: Id.nullable().optional(),
  activities: Ids.optional(),
  qualifications: Ids.optional(),
};

export const UserCreate = z
  .object({ ...UserFields, password: z.string().min(1).max(PASSWORD_MAX_LENGTH).refine(noNul) })
  .strict()
  .meta({ id: "UserCreate" });
export type UserCreate = z.infer<typeof UserCreate>;

export const UserUpdate = z
  .object({
    name: UserFields.name.optional(),
    surname: UserFields.surname.optional(),
    login: UserFields.login.optional(),
    salutation: UserFields.salutation,
    email: UserFields.email,
    roles: UserFields.roles,
    facility: UserFields.facility,
    activities: UserFields.activities,
    qualifications: UserFields.qualifications,
    password: z.string().min(1).max(PASSWORD_MAX_LENGTH).refine(noNul).optional(),
  })
  .strict()
  .meta({ id: "UserUpdate" });
export type UserUpdate = z.infer<typeof UserUpdate>;
