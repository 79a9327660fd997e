import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  COLOR_PATTERN,
  CONTENT_LANGUAGE_PATTERN,
  CONTENT_LIMITS,
  mediaTypeOfFile,
  normalizeLegalBasis,
  QUESTION_MEDIA_TYPES,
  QUESTION_TYPES,
  questionProblems,
  SOURCE_LANGUAGE,
  WIKI_LINK_PATTERN,
} from "@carecampus/contract";
import { z } from "zod";
import { issues, readYaml } from "../package-format/yaml";
import { loadWiki, type WikiPackageTopic, wikiLinkResolves } from "../wiki/package";
import { loadTutorial, type TutorialPageFile } from "./tutorial";

const Key = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "must be a lower-case slug (a-z, 0-9, -)");
const Version = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const s = String(v);
  if (!/^\d+(\.\d+){0,3}$/.test(s)) {
    ctx.addIssue({ code: "custom", message: "must be dotted numbers, e.g. 2026.11.1" });
    return z.NEVER;
  }
  return s;
});
const Name = z.string().trim().min(1).max(CONTENT_LIMITS.name);

export const PackageFile = z.object({ version: Version, title: Name }).strict();

export const TopicsFile = z
  .object({
    topics: z
      .array(
        z
          .object({
            key: Key,
            name: Name,
            icon: Key,
            color: z.string().regex(COLOR_PATTERN, "must be #rrggbb"),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

const L = CONTENT_LIMITS;
const Answer = z.object({ text: z.string().trim().min(1).max(L.answerText), correct: z.boolean().optional() }).strict();

/** The shape here; the rules of a valid question are the contract's (shared with the API and the editor). */
const Question = z
  .object({
    key: Key,
    type: z.enum(QUESTION_TYPES),
    text: z.string().trim().min(1).max(L.questionText),
    answers: z.array(Answer),
    explanation: z.string().trim().min(1).max(L.explanation),
    hint: z.string().trim().max(L.hint).optional(),
    media: z
      .union([z.object({ image: z.string().min(1) }).strict(), z.object({ video: z.string().min(1) }).strict()])
      .optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    for (const p of questionProblems(q)) {
      // The shape above reports these already, with zod's own words.
      if (
        ["type", "textRequired", "textTooLong", "explanationRequired", "explanationTooLong", "hintTooLong"].includes(
          p.code,
        )
      )
        continue;
      if (p.code === "answerTextRequired" || p.code === "answerTextTooLong") continue;
      ctx.addIssue({ code: "custom", path: p.path, message: p.message });
    }
  });

const Questionnaire = z
  .object({
    key: z.union([z.string(), z.number()]).transform(String).pipe(Key),
    name: z.union([z.string(), z.number()]).transform(String).pipe(Name),
    questions: z.array(Question).min(L.questionsMin).max(L.questionsMax),
  })
  .strict();

export const TrainingFile = z
  .object({
    key: Key,
    topic: Key,
    name: Name,
    icon: Key,
    description: z.string().trim().max(L.description).optional(),
    validity_months: z.number().int().min(L.validityMonthsMin).max(L.validityMonthsMax).default(12),
    points: z.number().int().min(0).max(L.pointsMax).default(0),
    passive: z.boolean().default(false),
    wiki_link: z.string().trim().max(L.wikiLink).regex(WIKI_LINK_PATTERN, "must be a path under /wiki").optional(),
    // One line as stored (a folded YAML line reads as one), judged by the contract's limit.
    legal_basis: z
      .string()
      .transform((s) => normalizeLegalBasis(s))
      .pipe(z.string().max(L.legalBasis).nullable())
      .optional(),
    questionnaires: z.array(Questionnaire).max(L.questionnairesMax).default([]),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.passive && t.questionnaires.length > 0) {
      ctx.addIssue({ code: "custom", path: ["questionnaires"], message: "a passive training has no questionnaires" });
    }
    if (!t.passive && t.questionnaires.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["questionnaires"],
        message: "an active training needs at least one questionnaire",
      });
    }
  });

export type TrainingFile = z.output<typeof TrainingFile>;

/**
 * translations/<lang>/<training>.yaml: a training's questions in another language (issue 31), by
 * the keys of the German; the answers in the German order. Imported as published translations of
 * the German as the package has it.
 */
const TranslatedName = z.string().trim().min(1).max(L.name);

const TranslationFile = z
  .object({
    training: Key,
    /** The training's name, and its topic's, in this language (optional). */
    name: TranslatedName.optional(),
    topic_name: TranslatedName.optional(),
    questionnaires: z
      .array(
        z
          .object({
            key: z.union([z.string(), z.number()]).transform(String).pipe(Key),
            name: TranslatedName.optional(),
            questions: z
              .array(
                z
                  .object({
                    key: Key,
                    text: z.string().trim().min(1).max(L.questionText),
                    answers: z.array(z.string().trim().min(1).max(L.answerText)),
                    explanation: z.string().trim().min(1).max(L.explanation),
                    hint: z.string().trim().max(L.hint).optional(),
                  })
                  .strict(),
              )
              .default([]),
          })
          .strict(),
      )
      .default([]),
  })
  .strict();

/** A question of the package in another language. */
export interface PackageTranslation {
  lang: string;
  training: string;
  questionnaire: string;
  question: string;
  text: string;
  answers: string[];
  explanation: string;
  hint: string | null;
}
/** A topic's, training's or questionnaire's name in another language, by the package's keys. */
export type PackageNameTranslation = { lang: string; name: string } & (
  | { kind: "topic"; topic: string }
  | { kind: "training"; training: string }
  | { kind: "questionnaire"; training: string; questionnaire: string }
);
export type TopicEntry = z.output<typeof TopicsFile>["topics"][number];

export interface MediaFile {
  kind: "icon" | "image" | "video" | "admin-tutorial" | "employee-tutorial";
  name: string;
  mime: string;
  data: Buffer;
  sha256: string;
}

export interface ContentPackage {
  version: string;
  title: string;
  topics: TopicEntry[];
  trainings: TrainingFile[];
  media: MediaFile[];
  /** The pages of /help; their screenshots are among `media`. */
  tutorial: TutorialPageFile[];
  /** The common pages of the wiki (wiki/), empty without the folder. */
  wiki: WikiPackageTopic[];
  /** Questions in other languages (translations/), empty without the folder. */
  translations: PackageTranslation[];
  /** Names in other languages (translations/): the trainings', their topics' and questionnaires'. */
  names: PackageNameTranslation[];
}

export class ContentError extends Error {
  constructor(readonly problems: string[]) {
    super(`The content package is invalid:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  }
}

/** SVGs are served from our origin: anything that could run script is refused at import. */
function unsafeSvg(text: string): string | undefined {
  if (/<script[\s>]/i.test(text)) return "contains <script>";
  if (/\son[a-z]+\s*=/i.test(text)) return "contains an event handler attribute";
  if (/javascript:/i.test(text)) return "contains a javascript: URL";
  if (/<foreignObject[\s>]/i.test(text)) return "contains <foreignObject>";
  if (/(href|src)\s*=\s*["'](https?:)?\/\//i.test(text)) return "references an external resource";
  return undefined;
}

function readMedia(
  file: string,
  kind: MediaFile["kind"],
  name: string,
  mime: string,
  problems: string[],
): MediaFile | undefined {
  const data = fs.readFileSync(file);
  if (mime === "image/svg+xml") {
    const why = unsafeSvg(data.toString("utf8"));
    if (why) {
      problems.push(`${path.basename(path.dirname(file))}/${path.basename(file)}: refused, the SVG ${why}`);
      return undefined;
    }
  }
  return { kind, name, mime, data, sha256: crypto.createHash("sha256").update(data).digest("hex") };
}

/** translations/<lang>/<training>.yaml, each checked against the German training it translates. */
function loadTranslations(
  dir: string,
  trainings: TrainingFile[],
  problems: string[],
): { questions: PackageTranslation[]; names: PackageNameTranslation[] } {
  const root = path.join(dir, "translations");
  const out: PackageTranslation[] = [];
  const names: PackageNameTranslation[] = [];
  if (!fs.existsSync(root)) return { questions: out, names };
  // Hidden files (.gitkeep, .DS_Store) are no one's business here.
  const listed = (dir: string) => fs.readdirSync(dir, { withFileTypes: true }).filter((e) => !e.name.startsWith("."));
  for (const entry of listed(root).sort((a, b) => a.name.localeCompare(b.name))) {
    const lang = entry.name;
    if (!entry.isDirectory() || !CONTENT_LANGUAGE_PATTERN.test(lang) || lang === SOURCE_LANGUAGE) {
      problems.push(`translations/${lang}: not a folder named by a language code other than de (e.g. en, tr, pl)`);
      continue;
    }
    for (const f of listed(path.join(root, lang))
      .map((e) => e.name)
      .sort()) {
      const file = `translations/${lang}/${f}`;
      if (!f.endsWith(".yaml")) {
        problems.push(`${file}: translation files are .yaml files named after their training`);
        continue;
      }
      const parsed = TranslationFile.safeParse(readYaml(dir, file, problems));
      if (!parsed.success) {
        problems.push(...issues(file, parsed.error));
        continue;
      }
      const t = parsed.data;
      const german = trainings.find((g) => g.key === t.training);
      if (`${t.training}.yaml` !== f) problems.push(`${file}: training: must equal the file name (${f.slice(0, -5)})`);
      if (!german) {
        problems.push(`${file}: training: no training ${t.training} in trainings/`);
        continue;
      }
      if (t.name) names.push({ lang, kind: "training", training: german.key, name: t.name });
      if (t.topic_name) {
        // Trainings of one topic may each name it: the same name, or a problem.
        const other = names.find((n) => n.lang === lang && n.kind === "topic" && n.topic === german.topic);
        if (other && other.name !== t.topic_name) {
          problems.push(`${file}: topic_name: "${t.topic_name}" differs from "${other.name}" given for the same topic`);
        } else if (!other) names.push({ lang, kind: "topic", topic: german.topic, name: t.topic_name });
      }
      for (const [qi, qn] of t.questionnaires.entries()) {
        const gqn = german.questionnaires.find((g) => g.key === qn.key);
        if (!gqn) {
          problems.push(
            `${file}: questionnaires.${qi}.key: no questionnaire ${qn.key} in trainings/${german.key}.yaml`,
          );
          continue;
        }
        if (qn.name) {
          names.push({ lang, kind: "questionnaire", training: german.key, questionnaire: qn.key, name: qn.name });
        }
        for (const [i, q] of qn.questions.entries()) {
          const at = `${file}: questionnaires.${qi}.questions.${i}`;
          const gq = gqn.questions.find((g) => g.key === q.key);
          if (!gq) {
            problems.push(`${at}.key: no question ${q.key} in questionnaire ${qn.key}`);
            continue;
          }
          if (q.answers.length !== gq.answers.length) {
            problems.push(`${at}.answers: ${q.answers.length} answers for the German's ${gq.answers.length}`);
            continue;
          }
          if (q.hint !== undefined && gq.hint === undefined) {
            problems.push(`${at}.hint: the German question has no hint`);
            continue;
          }
          out.push({
            lang,
            training: german.key,
            questionnaire: qn.key,
            question: q.key,
            text: q.text,
            answers: q.answers,
            explanation: q.explanation,
            hint: q.hint ?? null,
          });
        }
      }
    }
  }
  return { questions: out, names };
}

/** Reads and validates a whole package; every problem is collected and reported at once. */
export function loadPackage(dir: string): ContentPackage {
  const problems: string[] = [];
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new ContentError([`${dir}: not a folder`]);

  const pkg = PackageFile.safeParse(readYaml(dir, "package.yaml", problems));
  if (!pkg.success && fs.existsSync(path.join(dir, "package.yaml")))
    problems.push(...issues("package.yaml", pkg.error));
  const topicsFile = TopicsFile.safeParse(readYaml(dir, "topics.yaml", problems));
  if (!topicsFile.success && fs.existsSync(path.join(dir, "topics.yaml")))
    problems.push(...issues("topics.yaml", topicsFile.error));
  const topics = topicsFile.success ? topicsFile.data.topics : [];

  const media: MediaFile[] = [];
  const iconDir = path.join(dir, "icons");
  const icons = new Set<string>();
  if (fs.existsSync(iconDir)) {
    for (const f of fs.readdirSync(iconDir).sort()) {
      if (!f.endsWith(".svg")) {
        problems.push(`icons/${f}: icons must be .svg files`);
        continue;
      }
      const name = f.slice(0, -4);
      const m = readMedia(path.join(iconDir, f), "icon", name, "image/svg+xml", problems);
      if (m) {
        media.push(m);
        icons.add(name);
      }
    }
  }
  const mediaDir = path.join(dir, "media");
  const mediaFiles = new Map<string, "image" | "video">();
  if (fs.existsSync(mediaDir)) {
    for (const f of fs.readdirSync(mediaDir).sort()) {
      const mime = mediaTypeOfFile(f);
      const type = mime
        ? { mime, kind: QUESTION_MEDIA_TYPES[mime].kind, max: QUESTION_MEDIA_TYPES[mime].maxBytes }
        : undefined;
      if (!type) {
        problems.push(`media/${f}: unsupported file type (svg, png, jpg, webp, mp4)`);
        continue;
      }
      const size = fs.statSync(path.join(mediaDir, f)).size;
      if (size > type.max) {
        problems.push(`media/${f}: too large (${size} bytes, at most ${type.max})`);
        continue;
      }
      const m = readMedia(path.join(mediaDir, f), type.kind, f, type.mime, problems);
      if (m) {
        media.push(m);
        mediaFiles.set(f, type.kind);
      }
    }
  }

  const seenTopics = new Set<string>();
  for (const [i, t] of topics.entries()) {
    if (seenTopics.has(t.key)) problems.push(`topics.yaml: topics.${i}.key: duplicate key ${t.key}`);
    seenTopics.add(t.key);
    if (!icons.has(t.icon)) problems.push(`topics.yaml: topics.${i}.icon: icons/${t.icon}.svg does not exist`);
  }

  const trainings: TrainingFile[] = [];
  const trainingDir = path.join(dir, "trainings");
  const files = fs.existsSync(trainingDir)
    ? fs
        .readdirSync(trainingDir)
        .filter((f) => f.endsWith(".yaml"))
        .sort()
    : [];
  if (files.length === 0) problems.push("trainings/: no training files");
  for (const f of files) {
    const file = `trainings/${f}`;
    const parsed = TrainingFile.safeParse(readYaml(dir, file, problems));
    if (!parsed.success) {
      problems.push(...issues(file, parsed.error));
      continue;
    }
    const t = parsed.data;
    if (`${t.key}.yaml` !== f) problems.push(`${file}: key: must equal the file name (${f.slice(0, -5)})`);
    if (!seenTopics.has(t.topic)) problems.push(`${file}: topic: unknown topic ${t.topic}`);
    if (!icons.has(t.icon)) problems.push(`${file}: icon: icons/${t.icon}.svg does not exist`);
    const qKeys = new Set<string>();
    for (const [qi, qn] of t.questionnaires.entries()) {
      if (qKeys.has(qn.key)) problems.push(`${file}: questionnaires.${qi}.key: duplicate key ${qn.key}`);
      qKeys.add(qn.key);
      const questionKeys = new Set<string>();
      for (const [qqi, q] of qn.questions.entries()) {
        const at = `${file}: questionnaires.${qi}.questions.${qqi}`;
        if (questionKeys.has(q.key)) problems.push(`${at}.key: duplicate key ${q.key}`);
        questionKeys.add(q.key);
        if (q.media) {
          const [kind, name] =
            "image" in q.media ? (["image", q.media.image] as const) : (["video", q.media.video] as const);
          const found = mediaFiles.get(name);
          if (!found) problems.push(`${at}.media.${kind}: media/${name} does not exist`);
          else if (found !== kind) problems.push(`${at}.media.${kind}: media/${name} is not a ${kind}`);
        }
      }
    }
    trainings.push(t);
  }
  const seenTrainings = new Set<string>();
  for (const t of trainings) {
    if (seenTrainings.has(t.key)) problems.push(`trainings/${t.key}.yaml: key: duplicate training key`);
    seenTrainings.add(t.key);
  }
  const { questions: translations, names } = loadTranslations(dir, trainings, problems);
  const tutorial = loadTutorial(dir, problems);
  media.push(...tutorial.images);
  const wiki = loadWiki(dir, problems);
  // With a wiki of its own, every training's wiki link must lead to one of its pages.
  if (wiki.length > 0) {
    for (const t of trainings) {
      if (t.wiki_link && !wikiLinkResolves(wiki, t.wiki_link)) {
        problems.push(`trainings/${t.key}.yaml: wiki_link: ${t.wiki_link} is not a page of wiki/`);
      }
    }
  }
  if (problems.length > 0 || !pkg.success)
    throw new ContentError(problems.length ? problems : ["package.yaml: invalid"]);
  return {
    version: pkg.data.version,
    title: pkg.data.title,
    topics,
    trainings,
    media,
    tutorial: tutorial.pages,
    wiki,
    translations,
    names,
  };
}

/** Compares dotted version numbers: negative, zero or positive. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
