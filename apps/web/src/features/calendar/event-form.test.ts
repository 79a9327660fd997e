import { type CalendarEvent, decodeEventTitle } from "@carecampus/contract";
import { describe, expect, it } from "vitest";
import { emptyEvent, eventBody, eventProblems, eventValues, firstSlot, movedBody, nextDay } from "./event-form";

const zone = "Europe/Berlin";

function stored(body: ReturnType<typeof eventBody>, id = 5): CalendarEvent {
  return {
    ID: id,
    Title: body.Title,
    Start: body.Start,
    End: body.End,
    AllDay: body.AllDay,
    Color: body.Color,
    Label: "Frühschicht",
    Facility: { id: 3, name: "Haus" },
    Topic: { id: 2, name: "Brandschutz" },
    Training: { id: 11, name: "Unterweisung", passive: true },
    Location: body.Location || null,
    Organiser: null,
    InviteeCount: 0,
    AttendedCount: 0,
    Started: false,
    CanEdit: true,
  };
}

describe("the event form", () => {
  const filled = {
    ...emptyEvent("2027-03-29", 3, new Date("2027-03-01T12:00:00Z"), zone),
    topic: 2,
    training: 11,
    label: " Frühschicht ",
    location: "Saal 1",
  };

  it("writes the Title encoding and instants of the configured zone, across a daylight-saving change", () => {
    const body = eventBody({ ...filled, startTime: "10:00", endTime: "11:30" }, zone);
    expect(decodeEventTitle(body.Title)).toEqual({ facility: 3, topic: 2, training: 11, label: "Frühschicht" });
    expect(body).toMatchObject({ Start: "2027-03-29T08:00:00.000Z", End: "2027-03-29T09:30:00.000Z", AllDay: false });
    // Before the change Berlin is UTC+1.
    expect(eventBody({ ...filled, day: "2027-03-26", startTime: "10:00" }, zone).Start).toBe(
      "2027-03-26T09:00:00.000Z",
    );
  });

  it("gives an all-day event dates with an exclusive end, and reads them back", () => {
    const body = eventBody({ ...filled, allDay: true, endDay: "2027-03-31" }, zone, 5);
    expect(body).toMatchObject({ ID: 5, Start: "2027-03-29", End: "2027-04-01", AllDay: true });
    expect(eventValues(stored(body), zone)).toMatchObject({ day: "2027-03-29", endDay: "2027-03-31", allDay: true });
    expect(nextDay("2028-02-28")).toBe("2028-02-29");
  });

  it("reads a timed event back at the same wall-clock times", () => {
    const body = eventBody({ ...filled, startTime: "14:15", endTime: "15:45" }, zone);
    expect(eventValues(stored(body), zone)).toMatchObject({ day: "2027-03-29", startTime: "14:15", endTime: "15:45" });
  });

  it("cannot be saved without a training, with the end before the start, or with a wrong time", () => {
    expect(eventProblems(emptyEvent("2027-03-29", 3, new Date("2027-03-01T12:00:00Z"), zone))).toEqual({
      training: "training",
    });
    expect(eventProblems({ ...filled, startTime: "11:00", endTime: "10:00" })).toEqual({ endTime: "endBeforeStart" });
    expect(eventProblems({ ...filled, startTime: "25:00" })).toEqual({ startTime: "time" });
    expect(eventProblems({ ...filled, allDay: true, endDay: "2027-03-28" })).toEqual({ endDay: "endBeforeStart" });
    expect(eventProblems(filled)).toEqual({});
  });

  it("moves a dragged event keeping its length and leaving the invitees alone", () => {
    const timed = stored(eventBody({ ...filled, startTime: "10:00", endTime: "12:00" }, zone));
    const moved = movedBody(timed, "2027-04-02T13:00:00+02:00", "");
    expect(moved).toMatchObject({ ID: 5, Start: "2027-04-02T13:00:00+02:00", End: "2027-04-02T13:00:00.000Z" });
    expect(moved).not.toHaveProperty("Invitees");
    const allDay = stored(eventBody({ ...filled, allDay: true, endDay: "2027-03-30" }, zone));
    expect(movedBody(allDay, "2027-04-05", "")).toMatchObject({ Start: "2027-04-05", End: "2027-04-07" });
  });
});

describe("a new event's first hour", () => {
  const at = (iso: string) => new Date(iso);
  it("is 09:00 on a later day, and today until 09:00 has passed", () => {
    expect(firstSlot("2027-03-30", at("2027-03-29T12:00:00Z"), zone)).toEqual({
      day: "2027-03-30",
      startTime: "09:00",
      endTime: "10:00",
    });
    // 07:30 in Berlin (summer time, UTC+2).
    expect(firstSlot("2027-03-29", at("2027-03-29T05:30:00Z"), zone).startTime).toBe("09:00");
  });
  it("is the next full hour today once 09:00 has passed, 23:00–23:59 at the latest, on the day chosen", () => {
    // 09:05 in Berlin: not 09:00, which has begun.
    expect(firstSlot("2027-03-29", at("2027-03-29T07:05:00Z"), zone)).toEqual({
      day: "2027-03-29",
      startTime: "10:00",
      endTime: "11:00",
    });
    // 22:40 in Berlin.
    expect(firstSlot("2027-03-29", at("2027-03-29T20:40:00Z"), zone)).toEqual({
      day: "2027-03-29",
      startTime: "23:00",
      endTime: "23:59",
    });
    // A day in the past was chosen: 09:00, and saving asks about it.
    expect(firstSlot("2027-03-20", at("2027-03-29T12:00:00Z"), zone).startTime).toBe("09:00");
    expect(emptyEvent("2027-03-29", 3, at("2027-03-29T12:10:00Z"), zone)).toMatchObject({
      day: "2027-03-29",
      endDay: "2027-03-29",
      startTime: "15:00",
      endTime: "16:00",
    });
  });
});
