import { z } from "zod";
import { Id, Str } from "./common";

/** The four certificate states of spec §4. */
export const ExpiryColourSchema = z.enum(["red", "orange", "yellow", "green"]);

export const OverviewQuery = z.object({ facilityName: Str(200).optional() }).strict();
export const OverviewParams = z.object({ topicId: Id }).strict();

/** One cell of the overview: a user's state in one assigned training. */
export const OverviewCell = z.object({
  training_id: z.number().int(),
  acquired_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  colour: ExpiryColourSchema,
});
export type OverviewCell = z.infer<typeof OverviewCell>;

export const OverviewUser = z.object({
  id: z.number().int(),
  name: z.string(),
  surname: z.string(),
  facility: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** Only the trainings of the topic assigned to the user, in the order of `trainings`. */
  cells: z.array(OverviewCell),
});
export type OverviewUser = z.infer<typeof OverviewUser>;

/** GET /progress/admin/topics/{topicId}: every visible learner × every assigned training of the topic. */
export const TopicOverview = z
  .object({
    topic: z.object({ id: z.number().int(), name: z.string(), icon: z.string(), color: z.string() }),
    trainings: z.array(z.object({ id: z.number().int(), name: z.string(), icon: z.string(), passive: z.boolean() })),
    users: z.array(OverviewUser),
  })
  .meta({ id: "TopicOverview" });
export type TopicOverview = z.infer<typeof TopicOverview>;

/** POST /progress/admin/users/{id}/passivetraining (spec §7 spells the ids this way). */
export const PassiveTrainingBody = z.object({ topicID: Id, trainingID: Id }).strict().meta({ id: "PassiveTraining" });

export const ExportQuery = z
  .object({ token: z.string().max(4096).optional(), facilityName: Str(200).optional(), topicId: Id.optional() })
  .strict();
