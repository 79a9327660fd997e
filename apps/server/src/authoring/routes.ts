import { endpoints, TRANSLATION_FILE_MAX_BYTES, UPLOAD_MAX_BYTES } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { dbClock, limitDeps } from "../deps";
import { attachment } from "../http/attachment";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { consumeUpload } from "../security/limits";
import { declaredLength, streamedBodies } from "../storage/upload";
import { importBank, previewBankFor } from "./bank-import";
import { machineTranslator } from "./machine-translation";
import { storeQuestionMedia } from "./media";
import { saveNameTranslation, trainingNames } from "./name-translations";
import {
  authoringTree,
  createQuestion,
  createQuestionnaire,
  deleteQuestion,
  getQuestionnaire,
  patchQuestionnaire,
  publishQuestionnaire,
  saveExistingQuestion,
  saveTopic,
  saveTraining,
} from "./service";
import { exportTrainingTranslations, importTrainingTranslations } from "./training-translations";
import { questionTranslationsFor, saveQuestionTranslation, suggestQuestionTranslation } from "./translations";

/** Authoring (issue 16): questionnaires, questions, topics and trainings written in the app. */
export async function authoringRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const clock = () => dbClock(app.deps);
  const user = { onRequest: authenticate() };

  route(app, endpoints.authoringTree, user, (request) => authoringTree(db, actorOf(request)));
  route(app, endpoints.authoringQuestionnaireCreate, user, (request) =>
    createQuestionnaire(clock(), actorOf(request), request.body),
  );
  route(app, endpoints.authoringQuestionnaireGet, user, (request) =>
    getQuestionnaire(clock(), actorOf(request), request.params.id),
  );
  route(app, endpoints.authoringQuestionnairePatch, user, (request) =>
    patchQuestionnaire(clock(), actorOf(request), request.params.id, request.body),
  );
  route(app, endpoints.authoringQuestionnairePublish, user, (request) =>
    publishQuestionnaire(clock(), actorOf(request), request.params.id),
  );
  route(app, endpoints.authoringQuestionCreate, user, (request) =>
    createQuestion(clock(), actorOf(request), request.params.id, request.body),
  );
  route(app, endpoints.authoringQuestionSave, user, (request) =>
    saveExistingQuestion(clock(), actorOf(request), request.params.id, request.body),
  );
  route(app, endpoints.authoringQuestionTranslations, user, (request) =>
    questionTranslationsFor(clock(), actorOf(request), request.params.id, app.deps.config.contentLanguages),
  );
  route(app, endpoints.authoringQuestionTranslationSave, user, (request) =>
    saveQuestionTranslation(
      clock(),
      actorOf(request),
      request.params.id,
      request.params.lang,
      request.body,
      app.deps.config.contentLanguages,
    ),
  );
  route(app, endpoints.authoringTrainingNames, user, (request) =>
    trainingNames(db, actorOf(request), request.params.id, app.deps.config.contentLanguages),
  );
  route(app, endpoints.authoringNameTranslationSave, user, (request) =>
    saveNameTranslation(clock(), actorOf(request), request.params, request.body, app.deps.config.contentLanguages),
  );
  // A training's translations as a file for translators: a download (the token in the query) and
  // the file sent back as the raw body, XLIFF or CSV text.
  route(
    app,
    endpoints.authoringTrainingTranslationsExport,
    { onRequest: authenticate({ queryToken: true }) },
    async (request, reply) => {
      const { lang, format } = request.query;
      const file = await exportTrainingTranslations(
        db,
        actorOf(request),
        request.params.id,
        lang,
        format,
        app.deps.config.contentLanguages,
      );
      await reply
        .type(file.contentType)
        .header("content-disposition", attachment(file.filename))
        .header("cache-control", "private, no-store")
        .send(Buffer.from(file.body, "utf8") as never);
    },
  );
  app.addContentTypeParser(
    ["application/xliff+xml", "application/xml", "text/xml", "text/csv", "text/plain"],
    { parseAs: "buffer", bodyLimit: TRANSLATION_FILE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  route(
    app,
    endpoints.authoringTrainingTranslationsImport,
    { onRequest: authenticate(), bodyLimit: TRANSLATION_FILE_MAX_BYTES },
    (request) =>
      importTrainingTranslations(
        clock(),
        actorOf(request),
        request.params.id,
        request.query,
        request.body,
        app.deps.config.contentLanguages,
      ),
  );
  const mt = app.deps.config.machineTranslation;
  const translator = mt ? machineTranslator(mt) : null;
  route(app, endpoints.authoringQuestionTranslationSuggest, user, (request) =>
    suggestQuestionTranslation(
      clock(),
      actorOf(request),
      request.params.id,
      request.params.lang,
      app.deps.config.contentLanguages,
      translator,
      request.body ?? undefined,
    ),
  );
  route(app, endpoints.authoringQuestionDelete, user, (request) =>
    deleteQuestion(clock(), actorOf(request), request.params.id),
  );
  // A question bank may be up to 10 MiB of text, embedded images included (JSON-escaped, somewhat more).
  const bank = { onRequest: authenticate(), bodyLimit: 24 * 1024 * 1024 };
  route(app, endpoints.authoringBankPreview, bank, (request) =>
    previewBankFor(clock(), actorOf(request), request.params.id, request.body),
  );
  route(app, endpoints.authoringBankImport, bank, (request) =>
    importBank(clock(), actorOf(request), request.params.id, request.body, app.deps.config.mediaQuotaBytes),
  );
  route(app, endpoints.authoringTopicCreate, user, (request) =>
    saveTopic(clock(), actorOf(request), null, request.body),
  );
  route(app, endpoints.authoringTopicSave, user, (request) =>
    saveTopic(clock(), actorOf(request), request.params.id, request.body),
  );
  route(app, endpoints.authoringTrainingCreate, user, (request) =>
    saveTraining(clock(), actorOf(request), null, request.body),
  );
  route(app, endpoints.authoringTrainingSave, user, (request) =>
    saveTraining(clock(), actorOf(request), request.params.id, request.body),
  );

  // Images and videos come as the raw body with their type, streamed into storage; the role and
  // the user's upload rate are checked before a byte is read.
  streamedBodies(
    app,
    ["image/png", "image/jpeg", "image/webp", "video/mp4", "application/octet-stream"],
    UPLOAD_MAX_BYTES.video,
  );
  route(
    app,
    endpoints.authoringMediaUpload,
    { onRequest: authenticate({ admit: "authoring.upload" }) },
    async (request) => {
      const actor = actorOf(request);
      await consumeUpload(limitDeps(app.deps), actor.id);
      const declared = String(request.headers["content-type"] ?? "")
        .split(";")[0]
        ?.trim()
        .toLowerCase();
      return storeQuestionMedia(db, actor, declared ?? "", request.body, {
        quotaBytes: app.deps.config.mediaQuotaBytes,
        declaredLength: declaredLength(request),
      });
    },
  );
}
