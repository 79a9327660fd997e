import { type CalendarEventBody, encodeEventTitle, zonedTime } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { loadPackage } from "../src/content/package";
import { importPackage } from "../src/content/service";
import { trainings } from "../src/db/schema";
import { writeFixture } from "./content-fixture";
import { bearer, createCast, createTestApp, login, type TestContext, type TestUser } from "./helpers";

/** The configured zone of the tests (loadConfig's default): wall-clock times below are Berlin's. */
export const ZONE = "Europe/Berlin";
export const berlin = (year: number, month: number, day: number, hour = 0, minute = 0) =>
  zonedTime(ZONE, year, month, day, hour, minute);

export interface TrainingRef {
  id: number;
  topicId: number;
  name: string;
}

async function trainingByKey(ctx: TestContext, key: string): Promise<TrainingRef> {
  const [row] = await ctx.deps.database.db.select().from(trainings).where(eq(trainings.key, key));
  if (!row) throw new Error(`training ${key} missing`);
  return { id: row.id, topicId: row.topicId, name: row.name };
}

/**
 * The calendar's test scene at the clock's time `now`: the content fixture (an active training
 * 'haende', a passive one 'kurs') and the cast of createCast, logged in at `now`.
 */
export async function calendarScene(ctx: TestContext, now: Date) {
  ctx.clock.now = now;
  await importPackage(ctx.deps.database.db, loadPackage(writeFixture()));
  const cast = await createCast(ctx);
  return {
    ...cast,
    active: await trainingByKey(ctx, "haende"),
    passive: await trainingByKey(ctx, "kurs"),
  };
}

export type CalendarScene = Awaited<ReturnType<typeof calendarScene>>;

/** A test file's app and scene at `now`, handed to `ready` before the tests run, closed after them. */
export function useCalendarScene(now: Date, ready: (ctx: TestContext, scene: CalendarScene) => void): void {
  let ctx: TestContext | undefined;
  beforeAll(async () => {
    ctx = await createTestApp();
    ready(ctx, await calendarScene(ctx, now));
  });
  afterAll(() => ctx?.close());
}

/** A POST body for an event of `training` in `facility`, timed unless `AllDay` is given. */
export function eventBody(
  facility: number,
  training: TrainingRef,
  overrides: Partial<CalendarEventBody> & { label?: string } = {},
): CalendarEventBody {
  const { label = "Unterweisung", ...rest } = overrides;
  return {
    Title: encodeEventTitle({ facility, topic: training.topicId, training: training.id, label }),
    Start: "2027-03-29T10:00:00+02:00",
    End: "2027-03-29T11:30:00+02:00",
    AllDay: false,
    Color: "#1d4ed8",
    ...rest,
  };
}

/** Moves the clock and logs the user in again (a token is valid for minutes around its clock). */
export async function tokenAt(ctx: TestContext, user: TestUser, now: Date): Promise<string> {
  ctx.clock.now = now;
  return login(ctx, user.login);
}

/** One call of the API as the bearer of `token` (none: no session). */
export async function api(
  ctx: TestContext,
  token: string | null,
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  payload?: unknown,
) {
  return ctx.app.inject({
    method,
    url,
    headers: token ? bearer(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}
