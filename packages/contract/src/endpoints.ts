import { z } from "zod";
import {
  AdditionalQualification,
  AdditionalQualificationCreate,
  AdditionalQualificationList,
  AdditionalQualificationQuery,
  AdminUser,
  AdminUserList,
  Catalogue,
  FacilityCreate,
  ImportErrorBody,
  ImportQuery,
  ImportResult,
  ImportUsers,
  NamedItem,
  NamedList,
  TrainingMatrix,
  TrainingMatrixSave,
  UserAdditionalQualifications,
  UserCreate,
  UserIdPathParams,
  UserSearchQuery,
  UserUpdate,
} from "./schemas/admin";
import {
  AccountPatch,
  ForgotPasswordRequest,
  ForgotPasswordResponse,
  LoginRequest,
  LoginResponse,
  RefreshQuery,
  TokenResponse,
  User,
  UserIdParams,
} from "./schemas/auth";
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
} from "./schemas/authoring";
import {
  AttendanceBody,
  AttendanceResult,
  CalendarEventBody,
  CalendarEventDetail,
  CalendarEventList,
  CalendarFeed,
  CalendarRangeQuery,
  FeedParams,
  MyEventList,
  Proposal,
  ProposalQuery,
} from "./schemas/calendar";
import { HealthResponse, Id, IdParams, NotificationList, OkResponse, VersionResponse } from "./schemas/common";
import { ErrorBody } from "./schemas/error-body";
import {
  ContentFixBody,
  ContentFixList,
  ContentFixState,
  HelpHandled,
  HelpReplyBody,
  HelpRequestDetail,
  HelpRequestList,
  HelpScopeQuery,
  Tutorial,
  TutorialImageParams,
  TutorialQuery,
} from "./schemas/help";
import {
  AnswerRequest,
  AnswerResult,
  ContentVersion,
  HelpRequestCreate,
  HelpRequestCreated,
  NextQuestion,
  PracticeQuery,
  QuestionnaireParams,
  QuestionParams,
  Topic,
  TopicDetail,
  TopicParams,
  TrainingDetail,
  TrainingParams,
  UserProgress,
} from "./schemas/learning";
import {
  ExportQuery,
  OverviewCell,
  OverviewParams,
  OverviewQuery,
  PassiveTrainingBody,
  TopicOverview,
} from "./schemas/overview";
import {
  ExternalCourseList,
  ExternalToken,
  PartnerAdminCourses,
  PartnerAdminQuery,
  PartnerCourseQuery,
} from "./schemas/partner-courses";
import { Preferences, PreferencesPatch } from "./schemas/preferences";
import {
  WikiConfirm,
  WikiConfirmations,
  WikiDiff,
  WikiDiffQuery,
  WikiImageQuery,
  WikiImageResult,
  WikiLanguage,
  WikiPage,
  WikiPageCreate,
  WikiPageParams,
  WikiPageQuery,
  WikiPageSave,
  WikiRelease,
  WikiRemindResult,
  WikiRestore,
  WikiRevision,
  WikiRevisionList,
  WikiRevisionParams,
  WikiScopeQuery,
  WikiSearchQuery,
  WikiSearchResult,
  WikiTopic,
  WikiTopicCreate,
  WikiTree,
} from "./schemas/wiki";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One call of the API (spec §7): what the server registers and the client calls. The web client
 * sends calls by the light table of api.ts (generated from this one, without the schemas); the
 * URL helpers (API_PREFIX, endpointUrl, matchDownload) are there too.
 */
export interface EndpointSpec {
  method: HttpMethod;
  /** Fastify style, under API_PREFIX: `/auth/admin/users/:id`. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The 200 answer of a JSON call; a download has none. */
  response?: z.ZodType;
  /**
   * 'download': a file (xlsx, PDF, image, video) opened by URL in a tab, <img> or <video>,
   * which cannot send a header, so the token travels in the query (decision 9).
   */
  kind?: "json" | "download";
  /** Statuses answered with the common spec §8 ErrorBody. */
  errors: readonly number[];
  /** Statuses answered with a richer error body. */
  errorBodies?: Readonly<Record<number, z.ZodType>>;
  tags: readonly string[];
  description: string;
}

export type Endpoint = EndpointSpec & { readonly name: string; readonly kind: "json" | "download" };

const AUTHED = [400, 401, 403, 404] as const;
/**
 * 409 also when the database ended the write in a deadlock or serialization failure with another
 * writer, 503 (1108) when it could not do it in time: both after one more try, both worth a retry.
 */
const WRITES = [400, 401, 403, 404, 409, 503] as const;
const LOGGED_IN = [401] as const;

/** A file served with its token in the query: accepts `?token=` beside its own query. */
const TokenQuery = z.object({ token: z.string().optional() }).strict();
export const MediaParams = z.object({ id: Id }).strict();
export const IconParams = z
  .object({ file: z.string().regex(/^icon_[a-z0-9][a-z0-9-]{0,62}\.svg$/, "unknown icon") })
  .strict();
export const CertificateQuery = z
  .object({
    id: Id,
    token: z.string().optional(),
    /** partner: the id is a partner course's certificate (schemas/partner-courses.ts). */
    source: z.enum(["partner"]).optional(),
  })
  .strict();
export const ExternalUserParams = z.object({ userId: Id }).strict();

const adminUsersPost = {
  method: "POST",
  path: "/auth/admin/users",
  // 413: a body beyond the caller's limit (only a superuser may send an import's size).
  errors: [...WRITES, 413],
  errorBodies: { 400: ImportErrorBody },
  tags: ["administration"],
} as const;

const table = {
  /* ---------- system ---------- */
  health: {
    method: "GET",
    path: "/health",
    response: HealthResponse,
    errors: [503],
    tags: ["system"],
    description: "Liveness with a database ping: 503 while the database cannot be reached.",
  },
  version: {
    method: "GET",
    path: "/version",
    response: VersionResponse,
    errors: [],
    tags: ["system"],
    description: "The running build: commit, date and version.",
  },

  /* ---------- auth and account ---------- */
  login: {
    method: "POST",
    path: "/auth/login",
    body: LoginRequest,
    response: LoginResponse,
    errors: [400, 401, 429],
    tags: ["auth"],
    description:
      "Logs in with login and password: a session token and the user. Failed attempts lock the account for a while and, in greater number, the IP: 429 with Retry-After.",
  },
  refresh: {
    method: "POST",
    path: "/auth/refresh",
    query: RefreshQuery,
    response: TokenResponse,
    errors: [400, 401],
    tags: ["auth"],
    description:
      "A new token for a valid one; ?lang= changes the token's language claim. Refused (401/1010) once the session is SESSION_MAX_HOURS old.",
  },
  forgotPassword: {
    method: "POST",
    path: "/auth/forgotpassword",
    body: ForgotPasswordRequest,
    response: ForgotPasswordResponse,
    errors: [400, 429],
    tags: ["auth"],
    description:
      "Informs the administrators of the user's facility (or the superusers), after answering: the same answer, at the same speed, whether the login exists or not. 429 with Retry-After beyond LOGIN_RATE_LIMIT a minute.",
  },
  userGet: {
    method: "GET",
    path: "/auth/users/:id",
    params: UserIdParams,
    response: User,
    errors: WRITES,
    tags: ["account"],
    description: "A user as the session sees it: oneself, or a user within the caller's scope.",
  },
  accountUpdate: {
    method: "PATCH",
    path: "/auth/users/:id",
    params: UserIdParams,
    body: AccountPatch,
    response: User,
    errors: [...WRITES, 429],
    tags: ["account"],
    description:
      "Changes one's own login, e-mail or password. A wrong old password counts against the login's failure limit, a login in use (400/1001) against a rename limit: 429 with Retry-After.",
  },
  helpRedirectHide: {
    method: "DELETE",
    path: "/account/help_redirect_dialog",
    response: OkResponse,
    errors: LOGGED_IN,
    tags: ["account"],
    description: "Stops offering the tutorial after login.",
  },
  preferencesGet: {
    method: "GET",
    path: "/preferences/:id",
    params: UserIdParams,
    response: Preferences,
    errors: [400, 401, 404],
    tags: ["preferences"],
    description: "One's own theme, avatar and language.",
  },
  preferencesUpdate: {
    method: "PATCH",
    path: "/preferences/:id",
    params: UserIdParams,
    body: PreferencesPatch,
    response: Preferences,
    errors: [400, 401, 404],
    tags: ["preferences"],
    description: "Changes one of one's own preferences.",
  },
  notificationList: {
    method: "GET",
    path: "/notifications",
    response: NotificationList,
    errors: LOGGED_IN,
    tags: ["notifications"],
    description: "One's unread notifications, newest first.",
  },
  notificationRead: {
    method: "DELETE",
    path: "/notifications/:id",
    params: IdParams,
    response: OkResponse,
    errors: [400, 401, 404],
    tags: ["notifications"],
    description: "Marks one of one's notifications read.",
  },

  /* ---------- learning (employees) ---------- */
  topicList: {
    method: "GET",
    path: "/progress/topics",
    response: z.array(Topic),
    errors: AUTHED,
    tags: ["learning"],
    description: "The learner's topics with their counts.",
  },
  topicGet: {
    method: "GET",
    path: "/progress/topics/:id/trainings",
    params: TopicParams,
    response: TopicDetail,
    errors: AUTHED,
    tags: ["learning"],
    description: "A topic with the learner's assigned trainings.",
  },
  trainingGet: {
    method: "GET",
    path: "/progress/topics/:topic/trainings/:training/questionnaires",
    params: TrainingParams,
    response: TrainingDetail,
    errors: AUTHED,
    tags: ["learning"],
    description: "A training with its questionnaires.",
  },
  questionNext: {
    method: "GET",
    path: "/progress/topics/:topic/trainings/:training/questionnaires/:q/questions",
    params: QuestionnaireParams,
    query: PracticeQuery,
    response: NextQuestion,
    errors: AUTHED,
    tags: ["learning"],
    description: "The next open question of the current round, without anything that reveals the answers.",
  },
  answerSubmit: {
    method: "POST",
    path: "/progress/topics/:topic/trainings/:training/questionnaires/:q/questions/:question/answers",
    params: QuestionParams,
    query: PracticeQuery,
    body: AnswerRequest,
    response: AnswerResult,
    errors: AUTHED,
    tags: ["learning"],
    description: "Answers a question with the chosen answer ids: the verdict, explanation and round result.",
  },
  /* ---------- authoring (issue 16; rules and versions: schemas/authoring.ts) ---------- */
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
      "Imports what the preview of the same file listed as importable, at the end of the questionnaire, in one transaction (all or nothing).",
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
    errors: [400, 401, 403, 413, 415],
    tags: ["authoring"],
    description:
      "Editors: an image (PNG, JPEG, WebP, at most 5 MiB) or an mp4 video (at most 50 MiB) for a question's explanation, sent as the raw body with its Content-Type; the bytes must be such a file. An administrator's upload is served only within their facility.",
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
  helpRequestCreate: {
    method: "POST",
    path: "/help",
    body: HelpRequestCreate,
    response: HelpRequestCreated,
    errors: [...AUTHED, 429],
    tags: ["help"],
    description:
      "Asks the facility for help with a question (one open request per learner and question); at most 30 calls an hour per learner (429 with Retry-After).",
  },
  helpList: {
    method: "GET",
    path: "/help",
    query: HelpScopeQuery,
    response: HelpRequestList,
    errors: AUTHED,
    tags: ["help"],
    description:
      "The open help requests the caller may see, one entry per question with how many learners asked and a badge colour.",
  },
  helpGet: {
    method: "GET",
    path: "/help/:id",
    params: IdParams,
    query: HelpScopeQuery,
    response: HelpRequestDetail,
    errors: AUTHED,
    tags: ["help"],
    description:
      "A help request (id = the question's id): the question as the learner saw it, the right answers, who asked, replies.",
  },
  helpHandle: {
    method: "DELETE",
    path: "/help/:id",
    params: IdParams,
    query: HelpScopeQuery,
    response: HelpHandled,
    errors: AUTHED,
    tags: ["help"],
    description: "Marks the open requests about the question handled (kept with who handled them and when).",
  },
  helpReply: {
    method: "POST",
    path: "/help/:id/reply",
    params: IdParams,
    query: HelpScopeQuery,
    body: HelpReplyBody,
    response: HelpHandled,
    errors: AUTHED,
    tags: ["help"],
    description:
      "Answers every learner with an open request about the question (a notification, and a mail when they have an address) and marks the requests handled.",
  },
  contentFixSet: {
    method: "PUT",
    path: "/help/:id/content-fix",
    params: IdParams,
    body: ContentFixBody,
    response: ContentFixState,
    errors: AUTHED,
    tags: ["help"],
    description: "Super-Admin: lists the question for content work ('content needs fixing'), or takes it off the list.",
  },
  contentFixList: {
    method: "GET",
    path: "/help/content-fixes",
    response: ContentFixList,
    errors: AUTHED,
    tags: ["help"],
    description: "Super-Admin: the questions marked 'content needs fixing'.",
  },
  /* ---------- training calendar ---------- */
  calendarList: {
    method: "GET",
    path: "/calendar/events",
    query: CalendarRangeQuery,
    response: CalendarEventList,
    errors: AUTHED,
    tags: ["calendar"],
    description:
      "The events between start and end (ISO dates, at most about a year apart) the caller may see: their facility's, or every facility's for Super-Admins (optionally ?facility=).",
  },
  calendarGet: {
    method: "GET",
    path: "/calendar/events/:id",
    params: IdParams,
    response: CalendarEventDetail,
    errors: AUTHED,
    tags: ["calendar"],
    description: "One event with its invitees, their certificate state for the training, and attendance.",
  },
  calendarCreate: {
    method: "POST",
    path: "/calendar/events",
    body: CalendarEventBody,
    response: CalendarEventDetail,
    errors: WRITES,
    tags: ["calendar"],
    description:
      "Schedules an event. The Title encodes '<facility id>|<topic id>|<training id>|<label>' (unknown facility 1003, unknown training 1005).",
  },
  calendarUpdate: {
    method: "PUT",
    path: "/calendar/events",
    body: CalendarEventBody,
    response: CalendarEventDetail,
    errors: WRITES,
    tags: ["calendar"],
    description: "Changes the event with the body's ID (Invitees left out: unchanged).",
  },
  calendarDelete: {
    method: "DELETE",
    path: "/calendar/events/:id",
    params: IdParams,
    response: OkResponse,
    errors: AUTHED,
    tags: ["calendar"],
    description: "Deletes an event; certificates issued through its attendance stay.",
  },
  calendarProposal: {
    method: "GET",
    path: "/calendar/proposal",
    query: ProposalQuery,
    response: Proposal,
    errors: AUTHED,
    tags: ["calendar"],
    description:
      "The facility's employees assigned the training, with those proposed for an event on `start`: no certificate, expired, or expiring before it.",
  },
  calendarAttendance: {
    method: "PUT",
    path: "/calendar/events/:id/attendance",
    params: IdParams,
    body: AttendanceBody,
    response: AttendanceResult,
    errors: WRITES,
    tags: ["calendar"],
    description:
      "After the event has begun: who attended. For a passive training each attendee gets the certificate, valid from the event's date.",
  },
  calendarIcs: {
    method: "GET",
    path: "/calendar/events/:id/ics",
    params: IdParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["calendar"],
    description: "The event as an iCalendar file (for its invitees and staff who may see it).",
  },
  calendarMine: {
    method: "GET",
    path: "/calendar/mine",
    response: MyEventList,
    errors: LOGGED_IN,
    tags: ["calendar"],
    description: "The caller's own upcoming events (invited), soonest first.",
  },
  calendarFeedGet: {
    method: "GET",
    path: "/calendar/feed",
    response: CalendarFeed,
    errors: LOGGED_IN,
    tags: ["calendar"],
    description:
      "Whether the caller has a personal iCalendar subscription (active). Only its hash is stored, so the URL (url) is known only in the answer of POST; here it is null.",
  },
  calendarFeedCreate: {
    method: "POST",
    path: "/calendar/feed",
    response: CalendarFeed,
    errors: LOGGED_IN,
    tags: ["calendar"],
    description: "Makes a new personal subscription URL; an earlier one stops working.",
  },
  calendarFeedRevoke: {
    method: "DELETE",
    path: "/calendar/feed",
    response: CalendarFeed,
    errors: LOGGED_IN,
    tags: ["calendar"],
    description: "Revokes the personal subscription URL.",
  },
  calendarFeedIcs: {
    method: "GET",
    path: "/calendar/feed/:secret",
    params: FeedParams,
    kind: "download",
    // 400: not the form of a subscription URL; 404: unknown or revoked.
    errors: [400, 404],
    tags: ["calendar"],
    description:
      "A personal iCalendar subscription (the secret is the credential): the owner's events from 30 days ago on.",
  },

  tutorial: {
    method: "GET",
    path: "/Tutorial",
    query: TutorialQuery,
    response: Tutorial,
    errors: AUTHED,
    tags: ["help"],
    description:
      "The tutorial pages for an audience in the caller's language (German where a page lacks it); the admin version is for staff only.",
  },
  contentVersion: {
    method: "GET",
    path: "/content/CurrentContentVersion",
    response: ContentVersion,
    errors: LOGGED_IN,
    tags: ["content"],
    description: "The version of the imported content package.",
  },

  /* ---------- certificates, progress and files ---------- */
  certificatePdf: {
    method: "GET",
    path: "/progress/export/certificate",
    query: CertificateQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["certificates"],
    description: "A certificate as PDF (opened in a new tab, the token in the query).",
  },
  userProgress: {
    method: "GET",
    path: "/progress/admin/users/:id",
    params: UserIdParams,
    response: UserProgress,
    errors: AUTHED,
    tags: ["progress"],
    description: "A user's progress: one's own for /profile, or a user within the staff member's scope.",
  },
  overviewTopic: {
    method: "GET",
    path: "/progress/admin/topics/:topicId",
    params: OverviewParams,
    query: OverviewQuery,
    response: TopicOverview,
    errors: AUTHED,
    tags: ["progress"],
    description:
      "Every learner the caller may see (optionally of one facility) × every training of the topic assigned to them.",
  },
  overviewExport: {
    method: "GET",
    path: "/progress/admin/export/xlsx",
    query: ExportQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["progress"],
    description: "The overview as an xlsx workbook: a legend sheet and one sheet per topic (or the one chosen).",
  },
  passiveTrainingMark: {
    method: "POST",
    path: "/progress/admin/users/:id/passivetraining",
    params: UserIdParams,
    body: PassiveTrainingBody,
    response: OverviewCell,
    errors: AUTHED,
    tags: ["progress"],
    description: "Marks a passive (in-person) training passed: a certificate from today.",
  },
  /* ---------- external courses of a partner provider (spec §7; docs/partner-contract.md) ---------- */
  partnerCourses: {
    method: "GET",
    path: "/external-course/course",
    query: PartnerCourseQuery,
    response: ExternalCourseList,
    errors: [...AUTHED, 502],
    tags: ["external courses"],
    description:
      "A training's courses of the partner provider with the learner's progress and certificate (a new partner certificate is stored on the way). userId: staff, a user within their scope. 404 while show-external-trainings is off or no partner is configured; 502 (1107) when the partner does not answer in time or with garbage.",
  },
  partnerAdminCourses: {
    method: "GET",
    path: "/external-course/admin/courses",
    query: PartnerAdminQuery,
    response: PartnerAdminCourses,
    errors: [...AUTHED, 502],
    tags: ["external courses"],
    description: "Staff: which of their users did which partner course of a training, within their facility scope.",
  },
  partnerToken: {
    method: "GET",
    path: "/external-course/token",
    response: ExternalToken,
    errors: [...AUTHED, 502],
    tags: ["external courses"],
    description:
      "A short-lived launch token of the partner bound to the learner; the browser renews it 20 s before valid_until (spec §9).",
  },
  staticImage: {
    method: "GET",
    path: "/static/image/:id",
    params: MediaParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["files"],
    description: "An image of the content (byte ranges honoured).",
  },
  staticVideo: {
    method: "GET",
    path: "/static/video/:id",
    params: MediaParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["files"],
    description: "A video of the content (byte ranges honoured, so it can seek).",
  },
  staticIcon: {
    method: "GET",
    path: "/static/icon/:file",
    params: IconParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["files"],
    description: "A topic or training icon (icon_<name>.svg).",
  },
  staticAdminTutorial: {
    method: "GET",
    path: "/static/admin-tutorial/:name",
    params: TutorialImageParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["files"],
    description: "A screenshot of the staff tutorial (<screen>-<lang>_2x); staff only.",
  },
  staticEmployeeTutorial: {
    method: "GET",
    path: "/static/employee-tutorial/:name",
    params: TutorialImageParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["files"],
    description: "A screenshot of the employee tutorial (<screen>-<lang>_2x).",
  },

  /* ---------- administration ---------- */
  adminUserList: {
    method: "GET",
    path: "/auth/admin/users",
    query: UserSearchQuery,
    response: AdminUserList,
    errors: WRITES,
    tags: ["administration"],
    description: "The users within the caller's scope, optionally searched.",
  },
  adminUserGet: {
    method: "GET",
    path: "/auth/admin/users/:id",
    params: UserIdParams,
    response: AdminUser,
    errors: WRITES,
    tags: ["administration"],
    description: "A user within the caller's scope.",
  },
  adminUserCreate: {
    ...adminUsersPost,
    body: UserCreate,
    response: AdminUser,
    description: "Creates one user (an object as body).",
  },
  adminUserImport: {
    ...adminUsersPost,
    query: ImportQuery,
    body: ImportUsers,
    response: ImportResult,
    description:
      "Imports users (an array as body; superuser only) in one transaction: a 400 lists every bad row; " +
      "existing employees are updated and keep their password; deleteNotIncludedUsers=true deletes the " +
      "employees of the file's facilities it does not name; dryRun=true only counts.",
  },
  adminUserUpdate: {
    method: "PATCH",
    path: "/auth/admin/users/:id",
    params: UserIdParams,
    body: UserUpdate,
    response: AdminUser,
    errors: WRITES,
    tags: ["administration"],
    description: "Changes a user within the caller's scope.",
  },
  adminUserDelete: {
    method: "DELETE",
    path: "/auth/admin/users/:id",
    params: UserIdParams,
    response: OkResponse,
    errors: WRITES,
    tags: ["administration"],
    description: "Deletes a user within the caller's scope.",
  },
  facilityList: {
    method: "GET",
    path: "/auth/admin/facilities",
    response: NamedList,
    errors: WRITES,
    tags: ["administration"],
    description: "The facilities the caller may see.",
  },
  facilityCreate: {
    method: "POST",
    path: "/auth/admin/facilities",
    body: FacilityCreate,
    response: NamedItem,
    errors: WRITES,
    tags: ["administration"],
    description: "Creates a facility (MAX_FACILITIES limits them).",
  },
  qualificationList: {
    method: "GET",
    path: "/filter/list/qualification",
    response: NamedList,
    errors: LOGGED_IN,
    tags: ["administration"],
    description: "The qualifications a user can hold: a reference list for the user form.",
  },
  activityList: {
    method: "GET",
    path: "/filter/list/activityfocus",
    response: NamedList,
    errors: LOGGED_IN,
    tags: ["administration"],
    description: "The activity focuses a user can have: a reference list for the user form.",
  },
  catalogue: {
    method: "GET",
    path: "/filter/list/topics",
    response: Catalogue,
    errors: AUTHED,
    tags: ["administration"],
    description: "Every current topic with its trainings: the choices of a training matrix or overview.",
  },
  trainingMatrixGet: {
    method: "GET",
    path: "/filter/admin/trainingsmatrix/:user_id",
    params: UserIdPathParams,
    response: TrainingMatrix,
    errors: AUTHED,
    tags: ["administration"],
    description: "The trainings assigned to a user; id is null while none is stored (every training assigned).",
  },
  trainingMatrixSave: {
    method: "POST",
    path: "/filter/admin/trainingsmatrix",
    body: TrainingMatrixSave,
    response: TrainingMatrix,
    errors: AUTHED,
    tags: ["administration"],
    description: "Replaces the trainings assigned to a user.",
  },
  externalList: {
    method: "GET",
    path: "/external",
    query: AdditionalQualificationQuery,
    response: AdditionalQualificationList,
    errors: WRITES,
    tags: ["administration"],
    description: "The additional (external) qualifications of the caller's facilities, or of one.",
  },
  externalCreate: {
    method: "POST",
    path: "/external",
    body: AdditionalQualificationCreate,
    response: AdditionalQualification,
    errors: WRITES,
    tags: ["administration"],
    description: "Creates an additional qualification of a facility.",
  },
  externalUserGet: {
    method: "GET",
    path: "/external/user/:userId",
    params: ExternalUserParams,
    response: AdditionalQualificationList,
    errors: WRITES,
    tags: ["administration"],
    description: "The additional qualifications a user holds.",
  },
  externalUserSet: {
    method: "PUT",
    path: "/external/user/:userId",
    params: ExternalUserParams,
    body: UserAdditionalQualifications,
    response: AdditionalQualificationList,
    errors: WRITES,
    tags: ["administration"],
    description: "Replaces the additional qualifications a user holds.",
  },
  /* ---------- wiki and QM handbook ---------- */
  wikiTree: {
    method: "GET",
    path: "/wiki",
    query: WikiScopeQuery,
    response: WikiTree,
    errors: AUTHED,
    tags: ["wiki"],
    description:
      "The tree of topics and pages the caller may see (common pages, and the pages of their facility or of ?facility= for those without one), recently released pages and what the caller may edit.",
  },
  wikiTopicCreate: {
    method: "POST",
    path: "/wiki/topics",
    body: WikiTopicCreate,
    response: WikiTopic,
    errors: WRITES,
    tags: ["wiki"],
    description: "A new topic: common (content managers) or of a facility (its administrators). 409: the key is taken.",
  },
  wikiPageGet: {
    method: "GET",
    path: "/wiki/page/:topic/:slug",
    params: WikiPageParams,
    query: WikiPageQuery,
    response: WikiPage,
    errors: AUTHED,
    tags: ["wiki"],
    description:
      "A page as the caller may read it: the released revision, or for editors with ?draft=true the newest, rendered as sanitised HTML in ?lang (German where the page lacks it). Another facility's page is 404.",
  },
  wikiPageCreate: {
    method: "POST",
    path: "/wiki/pages",
    body: WikiPageCreate,
    response: WikiPage,
    errors: WRITES,
    tags: ["wiki"],
    description: "A new page (a draft, revision 1) in a topic. 409: the topic already has a page with that slug.",
  },
  wikiPageSave: {
    method: "PUT",
    path: "/wiki/pages/:id",
    params: IdParams,
    body: WikiPageSave,
    response: WikiPage,
    errors: WRITES,
    tags: ["wiki"],
    description:
      "Saves one language of a page as a new revision. 409 when the page changed since `version` (the body is not saved; reload, merge, save again).",
  },
  wikiPageDelete: {
    method: "DELETE",
    path: "/wiki/pages/:id",
    params: IdParams,
    response: OkResponse,
    errors: AUTHED,
    tags: ["wiki"],
    description: "Retires a page: it leaves the tree and search; its revisions and confirmations are kept.",
  },
  wikiPageRelease: {
    method: "POST",
    path: "/wiki/pages/:id/release",
    params: IdParams,
    body: WikiRelease,
    response: WikiPage,
    errors: WRITES,
    tags: ["wiki"],
    description:
      "Releases the newest revision (or `revision`): learners read it from now on, and a page that requires confirmation asks everyone again.",
  },
  wikiRevisions: {
    method: "GET",
    path: "/wiki/pages/:id/revisions",
    params: IdParams,
    response: WikiRevisionList,
    errors: AUTHED,
    tags: ["wiki"],
    description: "Editors: every revision of a page, newest first.",
  },
  wikiRevision: {
    method: "GET",
    path: "/wiki/pages/:id/revisions/:number",
    params: WikiRevisionParams,
    query: z.object({ lang: WikiLanguage.optional() }).strict(),
    response: WikiRevision,
    errors: AUTHED,
    tags: ["wiki"],
    description: "Editors: one revision with its Markdown and HTML.",
  },
  wikiDiff: {
    method: "GET",
    path: "/wiki/pages/:id/diff",
    params: IdParams,
    query: WikiDiffQuery,
    response: WikiDiff,
    errors: AUTHED,
    tags: ["wiki"],
    description: "Editors: what changed between two revisions, line by line with the changed words marked.",
  },
  wikiRestore: {
    method: "POST",
    path: "/wiki/pages/:id/restore",
    params: IdParams,
    body: WikiRestore,
    response: WikiPage,
    errors: WRITES,
    tags: ["wiki"],
    description: "Makes an earlier revision's text the newest revision again (history is kept).",
  },
  wikiConfirm: {
    method: "POST",
    path: "/wiki/pages/:id/confirm",
    params: IdParams,
    body: WikiConfirm,
    response: WikiPage,
    errors: WRITES,
    tags: ["wiki"],
    description:
      "'I have read and understood this version': the caller confirms the released revision (409 when a newer one was released meanwhile).",
  },
  wikiConfirmations: {
    method: "GET",
    path: "/wiki/pages/:id/confirmations",
    params: IdParams,
    query: WikiScopeQuery,
    response: WikiConfirmations,
    errors: AUTHED,
    tags: ["wiki"],
    description: "Staff: who in the facility confirmed the released version, who only an earlier one, who none.",
  },
  wikiConfirmationsRemind: {
    method: "POST",
    path: "/wiki/pages/:id/confirmations/remind",
    params: IdParams,
    query: WikiScopeQuery,
    response: WikiRemindResult,
    errors: AUTHED,
    tags: ["wiki"],
    description: "Staff: a notification to everyone in the facility who has not confirmed the released version.",
  },
  wikiConfirmationsExport: {
    method: "GET",
    path: "/wiki/pages/:id/confirmations/export",
    params: IdParams,
    query: WikiScopeQuery.extend({ token: z.string().optional() }),
    kind: "download",
    errors: AUTHED,
    tags: ["wiki"],
    description: "Staff: the confirmation list as an xlsx workbook.",
  },
  wikiSearch: {
    method: "GET",
    path: "/wiki/search",
    query: WikiSearchQuery,
    response: WikiSearchResult,
    errors: AUTHED,
    tags: ["wiki"],
    description:
      "Full-text search (PostgreSQL, German configuration for German text) over the released pages the caller may see, ranked, with marked snippets.",
  },
  wikiImageUpload: {
    method: "POST",
    path: "/wiki/images",
    query: WikiImageQuery,
    response: WikiImageResult,
    errors: [400, 401, 403, 404, 413],
    tags: ["wiki"],
    description:
      "Editors: an image for a page, sent as the raw body with its Content-Type (PNG, JPEG, WebP or GIF, at most 5 MiB; the bytes must be such an image; SVG is refused).",
  },
  staticWikiImage: {
    method: "GET",
    path: "/static/wiki/:id",
    params: MediaParams,
    query: TokenQuery,
    kind: "download",
    errors: AUTHED,
    tags: ["files"],
    description: "An image of a wiki page (a facility's only within that facility).",
  },
} as const satisfies Record<string, EndpointSpec>;

type Table = typeof table;
type Named<K extends string, S> = S & {
  readonly name: K;
  readonly kind: S extends { kind: "download" } ? "download" : "json";
};

/** The endpoint table: every call of the API under API_PREFIX, by name. */
export const endpoints = Object.fromEntries(
  Object.entries(table).map(([name, spec]) => [name, { ...spec, name, kind: "kind" in spec ? spec.kind : "json" }]),
) as { readonly [K in keyof Table & string]: Named<K, Table[K]> };

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/**
 * Calls that share one route (spec §7: POST /auth/admin/users creates a user from an object and
 * imports users from an array). The server registers these; the client calls the variants.
 */
export const sharedRoutes = {
  adminUsersPost: {
    ...adminUsersPost,
    name: "adminUsersPost",
    kind: "json",
    query: ImportQuery,
    body: z.union([UserCreate, ImportUsers]),
    response: z.union([AdminUser, ImportResult]),
    description: `${endpoints.adminUserCreate.description} ${endpoints.adminUserImport.description}`,
    variants: ["adminUserCreate", "adminUserImport"],
  },
} as const satisfies Record<string, Endpoint & { variants: readonly EndpointName[] }>;

/** Every route the server registers: each endpoint, a shared route in place of its variants. */
export function registeredRoutes(): Endpoint[] {
  const shared: Endpoint[] = Object.values(sharedRoutes);
  const variants = new Set<string>(Object.values(sharedRoutes).flatMap((r) => r.variants));
  return [...shared, ...Object.values(endpoints as Record<string, Endpoint>).filter((e) => !variants.has(e.name))];
}

/* ---------- types of a call ---------- */

type Out<E, K extends string> = E extends { readonly [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined;
export type ParamsOf<E> = Out<E, "params">;
export type QueryOf<E> = Out<E, "query">;
export type BodyOf<E> = Out<E, "body">;
export type ResponseOf<E> = Out<E, "response">;

/** The ErrorBody every error status of an endpoint answers with. */
export function errorResponses(endpoint: Pick<Endpoint, "errors" | "errorBodies">): Record<number, z.ZodType> {
  const out: Record<number, z.ZodType> = {};
  for (const status of endpoint.errors) out[status] = ErrorBody;
  return { ...out, ...endpoint.errorBodies };
}
