import fs from "node:fs";
import { catalogueKeys, NotificationMessageKey, zonedTime } from "@carecampus/contract";
import { describe, expect, it } from "vitest";
import { noticeColour, noticeTarget, noticeText, parseMessage } from "./messages";

const CERTIFICATE_KEY = NotificationMessageKey.certificateExpires;
const SUMMARY_KEY = NotificationMessageKey.certificatesExpireSummary;

const certificate = (stage: string) =>
  JSON.stringify({
    key: CERTIFICATE_KEY,
    values: {
      training: "Händehygiene",
      facility: "Haus Lindenhof",
      date: "2031-03-05",
      stage,
      topicId: "3",
      trainingId: "12",
    },
  });

const zone = "Europe/Berlin";

describe("notification messages", () => {
  it("reads the JSON message, and shows anything else as plain text", () => {
    expect(parseMessage(certificate("7")).values.training).toBe("Händehygiene");
    expect(parseMessage('{"key":"notifications.passwordReset","values":{"login":"emma","n":3}}')).toEqual({
      key: "notifications.passwordReset",
      values: { login: "emma", n: "3" },
    });
    expect(parseMessage("Bitte melden")).toEqual({ key: "notifications.plain", values: { text: "Bitte melden" } });
  });

  it("formats the date DD.MM.yyyy and reads the expiry-day stage as expired", () => {
    const n = { ExpiresAt: "2031-03-05T11:00:00.000Z" };
    expect(noticeText(n, parseMessage(certificate("7")), zone)).toMatchObject({
      key: CERTIFICATE_KEY,
      values: { date: "05.03.2031", training: "Händehygiene" },
    });
    expect(noticeText(n, parseMessage(certificate("0")), zone).key).toBe("notifications.certificateExpired");
    const summary = { key: SUMMARY_KEY, values: { count: "2", stage: "0", date: "2031-03-05" } };
    expect(noticeText(n, summary, zone)).toEqual({
      key: "notifications.certificatesExpiredSummary",
      values: { count: "2", stage: "0", date: "05.03.2031" },
    });
    const reset = { key: "notifications.passwordReset", values: { login: "emma" } };
    expect(noticeText({ ExpiresAt: null }, reset, zone)).toBe(reset);
    // Without a day in the message, the instant's day in the configured zone.
    const late = { ExpiresAt: "2031-03-05T23:30:00.000Z" };
    const plain = { key: CERTIFICATE_KEY, values: { stage: "7" } };
    expect(noticeText(late, plain, zone).values.date).toBe("06.03.2031");
    expect(noticeText(late, plain, "America/New_York").values.date).toBe("05.03.2031");
  });

  it("leads employees to the training and staff to the progress overview", () => {
    expect(noticeTarget(parseMessage(certificate("7")), ["employee"])).toBe("/topic/3/training/12");
    expect(noticeTarget(parseMessage(certificate("7")), ["administrator"])).toBeNull();
    const summary = { key: SUMMARY_KEY, values: { count: "1" } };
    expect(noticeTarget(summary, ["supervisor"])).toBe("/progress");
    expect(noticeTarget(summary, ["employee"])).toBeNull();
    expect(noticeTarget({ key: "notifications.passwordReset", values: {} }, ["administrator"])).toBeNull();
    // A reply opens the learner's own questions at the one it answers (older ones, without its id: the training).
    const reply = {
      key: NotificationMessageKey.helpReply,
      values: { topicId: "3", trainingId: "12", questionId: "41" },
    };
    expect(noticeTarget(reply, ["employee"])).toBe("/my-questions?question=41");
    expect(noticeTarget({ ...reply, values: { topicId: "3", trainingId: "12" } }, ["employee"])).toBe(
      "/topic/3/training/12",
    );
  });

  it("colours like certificates", () => {
    const at = (month: number, day: number, hour: number) => zonedTime(zone, 2031, month, day, hour).toISOString();
    const today = zonedTime(zone, 2031, 3, 1, 9);
    const cert = { key: CERTIFICATE_KEY, values: {} };
    expect(noticeColour({ ExpiresAt: at(3, 1, 18) }, cert, zone, today)).toBe("red");
    expect(noticeColour({ ExpiresAt: at(3, 8, 18) }, cert, zone, today)).toBe("orange");
    expect(noticeColour({ ExpiresAt: at(3, 31, 18) }, cert, zone, today)).toBe("yellow");
    expect(noticeColour({ ExpiresAt: at(4, 1, 18) }, cert, zone, today)).toBe("green");
    expect(noticeColour({ ExpiresAt: null }, cert, zone, today)).toBeNull();
    // A reminder expires with its event: no certificate colour.
    const reminder = { key: NotificationMessageKey.calendarReminder, values: {} };
    expect(noticeColour({ ExpiresAt: at(3, 2, 18) }, reminder, zone, today)).toBeNull();
  });

  it("words a calendar reminder by stage and kind, its time in the configured zone, and leads to the training", () => {
    const values = {
      stage: "tomorrow",
      label: "Brandschutzunterweisung",
      training: "Brandschutz",
      start: zonedTime(zone, 2031, 3, 2, 14, 30).toISOString(),
      allDay: "false",
      location: "Saal 1",
      topicId: "2",
      trainingId: "7",
    };
    const key = NotificationMessageKey.calendarReminder;
    expect(noticeText({ ExpiresAt: null }, { key, values }, zone)).toEqual({
      key,
      values: { ...values, time: "14:30", trainingAside: " (Brandschutz)", location: " – Saal 1" },
    });
    // An event without a label of its own is named by its training: not twice.
    expect(
      noticeText({ ExpiresAt: null }, { key, values: { ...values, label: "Brandschutz" } }, zone).values.trainingAside,
    ).toBe("");
    expect(
      noticeText(
        { ExpiresAt: null },
        { key, values: { ...values, stage: "today", allDay: "true", location: "" } },
        zone,
      ).key,
    ).toBe("notifications.calendarReminderTodayAllDay");
    expect(noticeTarget({ key, values }, ["employee"])).toBe("/topic/2/training/7");
    expect(noticeTarget({ key, values }, ["supervisor"])).toBe("/calendar");
  });

  it("leads a wiki reminder to the page waiting for the read confirmation, for anyone", () => {
    const reminder = {
      key: NotificationMessageKey.wikiConfirmReminder,
      values: { title: "Händehygiene", topic: "hygiene", slug: "haendehygiene", revision: "3", by: "Anna Admin" },
    };
    expect(noticeText({ ExpiresAt: null }, reminder, zone)).toBe(reminder);
    expect(noticeTarget(reminder, ["employee"])).toBe("/wiki/hygiene/haendehygiene");
    expect(noticeTarget(reminder, ["supervisor"])).toBe("/wiki/hygiene/haendehygiene");
    expect(noticeColour({ ExpiresAt: null }, reminder, zone)).toBeNull();
  });

  it("has every key of the contract's message catalogue in every locale", () => {
    for (const lang of ["de", "en", "fr", "es", "br"]) {
      const locale = JSON.parse(fs.readFileSync(new URL(`../../i18n/locales/${lang}.json`, import.meta.url), "utf8"));
      for (const key of catalogueKeys) {
        const text = key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], locale);
        expect(typeof text, `${lang}: ${key}`).toBe("string");
      }
    }
  });
});
