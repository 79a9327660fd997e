import { z } from "zod";
import { Id } from "./common";

/*
 * External courses of a partner provider (spec §3 "External course", "External token"; the
 * contract with the partner: docs/partner-contract.md). Not the additional qualifications,
 * which the spec calls "external" too (schemas/admin.ts, /external).
 */

/** GET /external-course/course: a training's partner courses, the learner's own or (staff) a user's in scope. */
export const PartnerCourseQuery = z
  .object({
    topicId: Id,
    trainingId: Id,
    /** Staff only, a user within their facility scope; a learner's own list without it. */
    userId: Id.optional(),
  })
  .strict();
export type PartnerCourseQuery = z.infer<typeof PartnerCourseQuery>;

/** GET /external-course/admin/courses: one training's partner courses of the staff member's users. */
export const PartnerAdminQuery = z.object({ topicId: Id, trainingId: Id }).strict();

/** A partner certificate as stored here (its PDF downloads through /progress/export/certificate). */
export const PartnerCertificateRef = z
  .object({
    /** The id for /progress/export/certificate?source=partner&id=. */
    id: z.number().int(),
    filename: z.string(),
    acquired_at: z.string(),
    /** The training's own certificate it was counted as, when the training is so configured. */
    certificate_id: z.number().int().nullable(),
  })
  .meta({ id: "PartnerCertificateRef" });
export type PartnerCertificateRef = z.infer<typeof PartnerCertificateRef>;

/** Spec §3 External course: the partner's id, name, icon, launch URL, progress and certificate. */
export const ExternalCourse = z
  .object({
    external_id: z.string(),
    name: z.string(),
    icon_url: z.string().nullable(),
    /** The partner's public launch address; the browser adds the launch token (GET /external-course/token). */
    url: z.string(),
    count: z.number().int(),
    total: z.number().int(),
    /** Completing this course issues the training's own certificate (EXTERNAL_COURSES_CERTIFY). */
    counts_for_training: z.boolean(),
    certificate: PartnerCertificateRef.nullable(),
  })
  .meta({ id: "ExternalCourse" });
export type ExternalCourse = z.infer<typeof ExternalCourse>;

export const ExternalCourseList = z.array(ExternalCourse).meta({ id: "ExternalCourseList" });

/** Spec §3 External token: a short-lived launch token bound to the learner. */
export const ExternalToken = z.object({ token: z.string(), valid_until: z.string() }).meta({ id: "ExternalToken" });
export type ExternalToken = z.infer<typeof ExternalToken>;

/** One user's state of one partner course in the staff view. */
export const PartnerCourseState = z.object({
  external_id: z.string(),
  count: z.number().int(),
  total: z.number().int(),
  completed_at: z.string().nullable(),
});

export const PartnerAdminCourses = z
  .object({
    courses: z.array(z.object({ external_id: z.string(), name: z.string() })),
    /** The users in the staff member's scope who started a partner course of this training. */
    users: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        surname: z.string(),
        facility: z.string().nullable(),
        courses: z.array(PartnerCourseState),
      }),
    ),
  })
  .meta({ id: "PartnerAdminCourses" });
export type PartnerAdminCourses = z.infer<typeof PartnerAdminCourses>;
