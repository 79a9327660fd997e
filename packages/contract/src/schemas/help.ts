import { z } from "zod";
import { HELP_BADGE_COLOURS } from "../rules/help";
import { CONTENT_LANGUAGE_PATTERN } from "../rules/translations";
import { Id } from "./common";
import { QuestionMedia } from "./learning";

const HelpBadgeColour = z.enum(HELP_BADGE_COLOURS);

/** ?facility= narrows a Super-Admin's or superuser's view to one facility (others see only their own). */
export const HelpScopeQuery = z.object({ facility: Id.optional() }).strict();
export type HelpScopeQuery = z.infer<typeof HelpScopeQuery>;

/** One question in the list of open help requests: how many learners asked (decision 19). */
export const HelpRequestSummary = z
  .object({
    /** The id of a help request is the id of its question: one entry per question within scope. */
    question_id: z.number().int(),
    question_text: z.string(),
    count: z.number().int(),
    color: HelpBadgeColour,
    topic: z.string(),
    training: z.string(),
    icon: z.string(),
    /** When the newest learner asked (ISO). */
    last_asked_at: z.string(),
    needs_fix: z.boolean(),
  })
  .meta({ id: "HelpRequestSummary" });
export type HelpRequestSummary = z.infer<typeof HelpRequestSummary>;
export const HelpRequestList = z.array(HelpRequestSummary).meta({ id: "HelpRequestList" });

/**
 * One of the learner's own help requests (GET /help/mine, issue 30): the question, where it
 * stands, when they asked, and the reply once there is one (null while open, or when it was
 * closed without an answer: `handled_at` then says when).
 */
export const MyHelpRequest = z
  .object({
    id: z.number().int(),
    question_id: z.number().int(),
    question_text: z.string(),
    topic_id: z.number().int(),
    training_id: z.number().int(),
    training: z.string(),
    asked_at: z.string(),
    handled_at: z.string().nullable(),
    reply: z.object({ text: z.string(), by: z.string(), at: z.string() }).nullable(),
  })
  .meta({ id: "MyHelpRequest" });
export type MyHelpRequest = z.infer<typeof MyHelpRequest>;
export const MyHelpRequestList = z.array(MyHelpRequest).meta({ id: "MyHelpRequestList" });

/** A reply given to the learners who asked about a question. */
export const HelpReply = z
  .object({
    text: z.string(),
    /** Name of who answered ('' once that account is deleted). */
    by: z.string(),
    at: z.string(),
    /** Learners the reply reached. */
    learners: z.number().int(),
  })
  .meta({ id: "HelpReply" });
export type HelpReply = z.infer<typeof HelpReply>;

/** The detail of spec §3 'Help request': the question as the learner saw it, the answer key, who asked. */
export const HelpRequestDetail = z
  .object({
    id: z.number().int(),
    question_id: z.number().int(),
    count: z.number().int(),
    color: HelpBadgeColour,
    question_text: z.string(),
    type: z.enum(["single", "multiple"]),
    icon: z.string(),
    topic: z.object({ id: z.number().int(), name: z.string() }),
    training: z.object({ id: z.number().int(), name: z.string() }),
    questionnaire: z.object({ id: z.number().int(), name: z.string() }),
    /** May the caller change the question in authoring ('fix this question': its questionnaire's editor)? */
    editable: z.boolean(),
    /** Every answer with whether it is right (`value`). */
    answers: z.array(z.object({ id: z.number().int(), text: z.string(), value: z.boolean() })),
    /** Sanitised HTML. */
    explanation: z.string(),
    hint: z.string().nullable(),
    media: QuestionMedia.nullable(),
    /** The learners with an open request, oldest first. */
    learners: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        surname: z.string(),
        facility: z.string().nullable(),
        asked_at: z.string(),
      }),
    ),
    /** Earlier replies to this question within the caller's scope, newest first. */
    replies: z.array(HelpReply),
    needs_fix: z.boolean(),
  })
  .meta({ id: "HelpRequestDetail" });
export type HelpRequestDetail = z.infer<typeof HelpRequestDetail>;

export const HELP_REPLY_MAX = 2000;
export const HelpReplyBody = z
  .object({ text: z.string().trim().min(1, "the reply is empty").max(HELP_REPLY_MAX) })
  .strict()
  .meta({ id: "HelpReplyBody" });

/** DELETE /help/{id} and a reply: how many open requests were marked handled. */
export const HelpHandled = z.object({ handled: z.number().int() }).meta({ id: "HelpHandled" });

export const ContentFixBody = z
  .object({ needs_fix: z.boolean(), note: z.string().trim().max(500).optional() })
  .strict()
  .meta({ id: "ContentFixBody" });

export const ContentFixState = z.object({ needs_fix: z.boolean() }).meta({ id: "ContentFixState" });

/** A question a Super-Admin marked 'content needs fixing', for the content work list. */
export const ContentFix = z
  .object({
    question_id: z.number().int(),
    question_text: z.string(),
    topic: z.string(),
    training: z.string(),
    questionnaire: z.string(),
    note: z.string().nullable(),
    by: z.string(),
    at: z.string(),
    /** Learners who ever asked about it. */
    requests: z.number().int(),
  })
  .meta({ id: "ContentFix" });
export type ContentFix = z.infer<typeof ContentFix>;
export const ContentFixList = z.array(ContentFix).meta({ id: "ContentFixList" });

/* ---------- tutorial ---------- */

export const TutorialAudience = z.enum(["admin", "employee"]);
export type TutorialAudience = z.infer<typeof TutorialAudience>;
export const TutorialQuery = z
  .object({
    Role: TutorialAudience,
    /** An interface language or a content language of the installation (issue 31); the caller's by default. */
    lang: z.string().regex(CONTENT_LANGUAGE_PATTERN, "a language code such as de, en, tr").optional(),
  })
  .strict();

export const TutorialPage = z
  .object({
    key: z.string(),
    title: z.string(),
    /** Sanitised HTML rendered from the page's Markdown. */
    html: z.string(),
    /** /api/static/<audience>-tutorial/<name>_2x, or null. */
    image: z.string().nullable(),
    /** The page's language: the one asked for, or German where the page lacks it. */
    lang: z.string(),
  })
  .meta({ id: "TutorialPage" });
export type TutorialPage = z.infer<typeof TutorialPage>;

export const Tutorial = z
  .object({ role: TutorialAudience, language: z.string(), pages: z.array(TutorialPage) })
  .meta({ id: "Tutorial" });
export type Tutorial = z.infer<typeof Tutorial>;

export const TutorialImageParams = z
  .object({ name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}-(de|en|fr|es|br)_2x$/, "unknown image") })
  .strict();
