import { z } from "zod";
import { IMPORT_FIELDS, IMPORT_MAX_ROWS } from "../rules/import";
import { PASSWORD_MAX_LENGTH } from "../rules/password";
import { Login, Salutation } from "./auth";
import { Id, noNul, RequiredText, Text } from "./common";
import { ErrorBody } from "./error-body";
import { Role } from "./role";

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

/** A user in a list: a former employee (archived, issue 28) carries the day they left. */
export const ListedUser = AdminUser.extend({
  /** When the person was archived (deleted, or left out by an import); only in the former list. */
  left_at: z.iso.datetime().optional(),
}).meta({ id: "ListedUser" });
export type ListedUser = z.infer<typeof ListedUser>;

export const AdminUserList = z
  .object({ users: z.array(ListedUser), total: z.number().int() })
  .meta({ id: "AdminUserList" });
export type AdminUserList = z.infer<typeof AdminUserList>;

export const UserSearchQuery = z
  .object({
    query: z.string().max(100).refine(noNul).optional(),
    /** true: the former employees (archived) within the caller's scope instead of the current members. */
    former: z.enum(["true", "false"]).optional(),
  })
  .strict();

const Ids = z.array(Id).max(100);
const UserFields = {
  name: RequiredText(100),
  surname: RequiredText(100),
  login: Login,
  salutation: Salutation.optional(),
  email: Text(254)
    .pipe(z.union([z.literal(""), z.email()]))
    .optional()
    .nullable(),
  roles: z.array(Role).max(5).optional(),
  facility: Id.nullable().optional(),
  activities: Ids.optional(),
  qualifications: Ids.optional(),
  /**
   * The trainings assigned to the user (their training matrix, saved with the user in one
   * transaction): `null` assigns every training (no matrix, ARCHITECTURE decision 6); absent
   * leaves the matrix as it is.
   */
  trainings: z.array(Id).max(2000).nullable().optional(),
  /** The user's additional qualifications (ids of their facility's list); absent: unchanged. */
  additional_qualifications: Ids.optional(),
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
    trainings: UserFields.trainings,
    additional_qualifications: UserFields.additional_qualifications,
    password: z.string().min(1).max(PASSWORD_MAX_LENGTH).refine(noNul).optional(),
  })
  .strict()
  .meta({ id: "UserUpdate" });
export type UserUpdate = z.infer<typeof UserUpdate>;

/* ---------- CSV import (spec §5, §7 POST /auth/admin/users?deleteNotIncludedUsers) ---------- */

const ImportName = Text(100);
export const ImportUser = z
  .object({
    surname: ImportName,
    name: ImportName,
    login: ImportName,
    facility: ImportName,
    activities: z.array(ImportName).max(50),
    qualifications: z.array(ImportName).max(50),
    password: z.string().max(PASSWORD_MAX_LENGTH).refine(noNul),
  })
  .strict()
  .meta({ id: "ImportUser" });
export const ImportUsers = z.array(ImportUser).min(1).max(IMPORT_MAX_ROWS).meta({ id: "ImportUsers" });

export const ImportQuery = z
  .object({
    deleteNotIncludedUsers: z.enum(["true", "false"]).optional(),
    /** Checks and counts without writing: the client asks it before confirming deletions. */
    dryRun: z.enum(["true", "false"]).optional(),
  })
  .strict();

/**
 * An employee the import archives because the file leaves them out (issue 28: archived, not
 * erased; the field names keep spec §7's "delete").
 */
export const ImportDeletedUser = z
  .object({
    id: z.number().int(),
    name: z.string(),
    surname: z.string(),
    login: z.string(),
  })
  .meta({ id: "ImportDeletedUser" });
export type ImportDeletedUser = z.infer<typeof ImportDeletedUser>;

export const ImportResult = z
  .object({
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    /** How many employees the import archived (or, in a dry run, would archive). */
    deleted: z.number().int(),
    /**
     * With deleteNotIncludedUsers=true: who is (or, in a dry run, would be) archived, by surname
     * and name, so the confirmation names them instead of giving a bare count.
     */
    deleted_users: z.array(ImportDeletedUser).optional(),
  })
  .meta({ id: "ImportResult" });
export type ImportResult = z.infer<typeof ImportResult>;

export const ImportProblemSchema = z
  .object({
    row: z.number().int(),
    field: z.enum(IMPORT_FIELDS),
    code: z.enum([
      "required",
      "spaces",
      "invisible",
      "duplicateInFile",
      "loginInUse",
      "unknownFacility",
      "unknownActivity",
      "unknownQualification",
      "passwordRule",
      "passwordRequired",
    ]),
    value: z.string().optional(),
  })
  .meta({ id: "ImportProblem" });

/** A refused import: the §8 body plus every bad row and its reason. */
export const ImportErrorBody = ErrorBody.extend({ problems: z.array(ImportProblemSchema).optional() }).meta({
  id: "ImportErrorBody",
});
export type ImportErrorBody = z.infer<typeof ImportErrorBody>;

/* ---------- training matrix (spec §3, §7 /filter/admin/trainingsmatrix) ---------- */

const MatrixTopics = z
  .array(
    z
      .object({
        topic_id: Id,
        trainings: z.array(z.object({ training_id: Id }).strict()).max(1000),
      })
      .strict(),
  )
  .max(1000);

/** The trainings assigned to a user; `id` is null while none is stored (every training assigned). */
export const TrainingMatrix = z
  .object({
    id: z.number().int().nullable(),
    user_id: z.number().int(),
    topics: z.array(
      z.object({ topic_id: z.number().int(), trainings: z.array(z.object({ training_id: z.number().int() })) }),
    ),
  })
  .meta({ id: "TrainingMatrix" });
export type TrainingMatrix = z.infer<typeof TrainingMatrix>;

export const TrainingMatrixSave = z
  .object({ user_id: Id, topics: MatrixTopics })
  .strict()
  .meta({ id: "TrainingMatrixSave" });
export type TrainingMatrixSave = z.infer<typeof TrainingMatrixSave>;

export const UserIdPathParams = z.object({ user_id: Id }).strict();

/** Every current topic with its trainings: what a matrix or an overview can choose from. */
export const CatalogueTopic = z
  .object({
    id: z.number().int(),
    name: z.string(),
    icon: z.string(),
    color: z.string(),
    trainings: z.array(z.object({ id: z.number().int(), name: z.string(), icon: z.string(), passive: z.boolean() })),
  })
  .meta({ id: "CatalogueTopic" });
export type CatalogueTopic = z.infer<typeof CatalogueTopic>;
export const Catalogue = z.array(CatalogueTopic).meta({ id: "Catalogue" });
export type Catalogue = z.infer<typeof Catalogue>;

/* ---------- additional (external) qualifications (spec §3, §7 /external) ---------- */

export const AdditionalQualification = z
  .object({ id: z.number().int(), name: z.string(), facility: z.number().int() })
  .meta({ id: "AdditionalQualification" });
export type AdditionalQualification = z.infer<typeof AdditionalQualification>;
export const AdditionalQualificationList = z.array(AdditionalQualification).meta({ id: "AdditionalQualificationList" });

export const AdditionalQualificationCreate = z
  .object({ name: RequiredText(100), facility: Id })
  .strict()
  .meta({ id: "AdditionalQualificationCreate" });

export const AdditionalQualificationQuery = z.object({ facility: Id.optional() }).strict();

export const UserAdditionalQualifications = z
  .object({ externalIDs: z.array(Id).max(200) })
  .strict()
  .meta({ id: "UserAdditionalQualifications" });
