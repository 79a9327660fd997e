import {
  AuthoringMediaResult,
  AuthoringQuestionInput,
  AuthoringQuestionnaire,
  AuthoringSaved,
  AuthoringTree,
  QuestionBankImportBody,
  QuestionBankImported,
  QuestionBankPreview,
  QuestionnaireCreate,
  QuestionnairePatch,
  QuestionSaved,
  TopicWrite,
  TrainingWrite,
} from "../schemas/authoring";
import { IdParams } from "../schemas/common";
import { AUTHED, type EndpointSpec, WRITES } from "./common";

/** Authoring (issue 16; rules and versions: schemas/authoring.ts; server: authoring/). */
export const authoringEndpoints = {
  authoringTree: {
    method: "GET",
    path: "/authoring",
    response: AuthoringTree,
    errors: AUTHED,
    tags: ["authoring"],
    description:
      "Staff: every live topic and training with the questionnaires the caller may see in authoring (common ones, and the caller's facility's own, drafts too), each marked editable when the caller may change it. Employees: 403.",
  },
  authoringQuestionnaireCreate: {
    method: "POST",
    path: "/authoring/questionnaires",
    body: QuestionnaireCreate,
    response: AuthoringQuestionnaire,
    errors: WRITES,
    tags: ["authoring"],
    description:
      "A new draft questionnaire in a training: an administrator's is their facility's own; a Super-Admin's or superchris' is common content. Supervisors and employees: 403; an unknown or passive training: 1005.",
  },
  authoringQuestionnaireGet: {
    method: "GET",
    path: "/authoring/questionnaires/:id",
    params: IdParams,
    response: AuthoringQuestionnaire,
    errors: AUTHED,
    tags: ["authoring"],
    description:
      "A questionnaire with its questions, right answers included (staff only). Another facility's questionnaire does not exist (1006).",
  },
  authoringQuestionnairePatch: {
    method: "PATCH",
    path: "/authoring/questionnaires/:id",
    params: IdParams,
    body: QuestionnairePatch,
    response: AuthoringQuestionnaire,
    errors: WRITES,
    tags: ["authoring"],
    description: "Renames a questionnaire or reorders its questions (question_order names every live question once).",
  },
  authoringQuestionnairePublish: {
    method: "POST",
    path: "/authoring/questionnaires/:id/publish",
    params: IdParams,
    response: AuthoringQuestionnaire,
    errors: WRITES,
    tags: ["authoring"],
    description:
      "Publishes a draft (it needs at least one question): its learners see it from now on and it counts towards the training. Certificates already held stay; the questionnaire applies from their next renewal.",
  },
  authoringQuestionCreate: {
    method: "POST",
    path: "/authoring/questionnaires/:id/questions",
    params: IdParams,
    body: AuthoringQuestionInput,
    response: QuestionSaved,
    errors: WRITES,
    tags: ["authoring"],
    description: "Adds a question at the end (the rules of valid content: 400 naming the rule broken).",
  },
  authoringBankPreview: {
    method: "POST",
    path: "/authoring/questionnaires/:id/import/preview",
    params: IdParams,
    body: QuestionBankImportBody,
    response: QuestionBankPreview,
    errors: [...WRITES, 413],
    tags: ["authoring"],
    description:
      "Reads a Moodle XML or GIFT question bank and lists what would be imported into the questionnaire and what cannot be (unsupported question types named, questions breaking the rules of valid content). Writes nothing.",
  },
  authoringBankImport: {
    method: "POST",
    path: "/authoring/questionnaires/:id/import",
    params: IdParams,
    body: QuestionBankImportBody,
    response: QuestionBankImported,
    errors: [...WRITES, 413],
    tags: ["authoring"],
    description:
      "Imports what the preview of the same file listed as importable, in one transaction (all or nothing): at the end of the questionnaire, or with `categories: questionnaires` one new draft questionnaire per Moodle category in its training. Embedded pictures become the questions' images, checked and stored as uploads.",
  },
  authoringQuestionSave: {
    method: "PUT",
    path: "/authoring/questions/:id",
    params: IdParams,
    body: AuthoringQuestionInput,
    response: QuestionSaved,
    errors: WRITES,
    tags: ["authoring"],
    description:
      "Saves a question. When learners answered it and its text, type or answers change, a new version is written: past answers keep their meaning, a right answer to the earlier version still counts (nobody is reset), a learner in the middle of the questionnaire is asked the new version of the questions not yet answered right, and an answer sent for the replaced version is refused with 1007. The explanation is stored sanitised.",
  },
  authoringQuestionDelete: {
    method: "DELETE",
    path: "/authoring/questions/:id",
    params: IdParams,
    response: AuthoringQuestionnaire,
    errors: WRITES,
    tags: ["authoring"],
    description:
      "Retires a question (kept for the answers given to it). A published questionnaire keeps at least one question (409).",
  },
  authoringMediaUpload: {
    method: "POST",
    path: "/authoring/media",
    response: AuthoringMediaResult,
    errors: [400, 401, 403, 413, 415, 429],
    tags: ["authoring"],
    description:
      "Editors: an image (PNG, JPEG, WebP, at most 5 MiB) or an mp4 video (at most 50 MiB) for a question's explanation, sent as the raw body with its Content-Type; the bytes must be such a file. An image is stored as its image data only: bytes after its format's end, PNG text chunks and JPEG comments are dropped; one that ends before its end is refused (400). An administrator's upload is served only within their facility. 429 (1104, Retry-After) past UPLOAD_RATE_PER_MINUTE uploads of the user; 413 with 1109 when the installation's media would pass MEDIA_QUOTA_MB.",
  },
  authoringTopicCreate: {
    method: "POST",
    path: "/authoring/topics",
    body: TopicWrite,
    response: AuthoringSaved,
    errors: WRITES,
    tags: ["authoring"],
    description: "Super-Admins: a new common topic (name, icon, colour).",
  },
  authoringTopicSave: {
    method: "PUT",
    path: "/authoring/topics/:id",
    params: IdParams,
    body: TopicWrite,
    response: AuthoringSaved,
    errors: WRITES,
    tags: ["authoring"],
    description:
      "Super-Admins: changes a topic's name, icon and colour (package topics too; a later import of the package sets them again).",
  },
  authoringTrainingCreate: {
    method: "POST",
    path: "/authoring/trainings",
    body: TrainingWrite,
    response: AuthoringSaved,
    errors: WRITES,
    tags: ["authoring"],
    description: "Super-Admins: a new common training in a topic.",
  },
  authoringTrainingSave: {
    method: "PUT",
    path: "/authoring/trainings/:id",
    params: IdParams,
    body: TrainingWrite,
    response: AuthoringSaved,
    errors: WRITES,
    tags: ["authoring"],
    description:
      "Super-Admins: changes a training (name, icon, validity, passive, points, wiki link). Validity and points apply to certificates issued from now on.",
  },
} as const satisfies Record<string, EndpointSpec>;
