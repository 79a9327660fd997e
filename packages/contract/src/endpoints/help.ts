import { IdParams } from "../schemas/common";
import {
  ContentFixBody,
  ContentFixList,
  ContentFixState,
  HelpHandled,
  HelpReplyBody,
  HelpRequestDetail,
  HelpRequestList,
  HelpScopeQuery,
  MyHelpRequestList,
  Tutorial,
  TutorialQuery,
} from "../schemas/help";
import { HelpRequestCreate, HelpRequestCreated } from "../schemas/learning";
import { AUTHED, type EndpointSpec } from "./common";

/* Help: learners' requests about a question, content fixes, and the tutorial (server: help/). */

/** Help requests and the content-fix list. */
export const helpEndpoints = {
  helpRequestCreate: {
    method: "POST",
    path: "/help",
    body: HelpRequestCreate,
    response: HelpRequestCreated,
    errors: [...AUTHED, 429],
    tags: ["help"],
    description:
      "Asks the facility for help with a question (one open request per learner and question); at most 30 calls an hour per learner (429 with Retry-After). Only a question the learner can be asked (published, common or their facility's own): any other is 1007, like an unknown id.",
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
  helpMine: {
    method: "GET",
    path: "/help/mine",
    response: MyHelpRequestList,
    errors: AUTHED,
    tags: ["help"],
    description:
      "The learner's own help requests, the newest first (at most 100): the question, its training, when they asked, and the reply once given.",
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
      "A help request (id = the question's id): the question as the learner saw it, the right answers, who asked, replies. A question outside the caller's scope (another facility's own) is 1004, like no request.",
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
} as const satisfies Record<string, EndpointSpec>;

/** The tutorial pages (their screenshots are files: files.ts). */
export const tutorialEndpoints = {
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
} as const satisfies Record<string, EndpointSpec>;
