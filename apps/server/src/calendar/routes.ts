import { endpoints } from "@carecampus/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import { dbClock } from "../deps";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { proposeInvitees, recordAttendance } from "./attendance";
import { createFeed, eventIcs, feedIcs, getFeed, type IcsFile, revokeFeed } from "./feed";
import { createEvent, deleteEvent, getEvent, listEvents, listMyEvents, updateEvent } from "./service";

/** An iCalendar answer: a file to save, never cached by a proxy (it is someone's calendar). */
function sendIcs(reply: FastifyReply, file: IcsFile) {
  return reply
    .type("text/calendar; charset=utf-8")
    .header("content-disposition", `attachment; filename="${file.filename}"`)
    .header("cache-control", "private, no-store")
    .send(file.ics);
}

/** The training calendar (issue 'Training calendar'): events, invitations, attendance, iCalendar. */
export async function calendarRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const clock = () => dbClock(app.deps);
  const read = { onRequest: authenticate({ admit: "calendar.read" }) };
  const plan = { onRequest: authenticate({ admit: "calendar.plan" }) };

  route(app, endpoints.calendarList, read, (request) => listEvents(clock(), actorOf(request), request.query));

  route(app, endpoints.calendarGet, read, (request) => getEvent(clock(), actorOf(request), request.params.id));

  route(app, endpoints.calendarCreate, plan, (request) => createEvent(clock(), actorOf(request), request.body));

  route(app, endpoints.calendarUpdate, plan, (request) => updateEvent(clock(), actorOf(request), request.body));

  route(app, endpoints.calendarDelete, plan, async (request) => {
    await deleteEvent(clock(), actorOf(request), request.params.id);
    return { ok: true as const };
  });

  route(app, endpoints.calendarProposal, plan, (request) => proposeInvitees(clock(), actorOf(request), request.query));

  route(app, endpoints.calendarAttendance, plan, (request) =>
    recordAttendance(clock(), actorOf(request), request.params.id, request.body.attended),
  );

  // Invitees download their event too: admission is decided with the event (feed.ts).
  route(app, endpoints.calendarIcs, { onRequest: authenticate({ queryToken: true }) }, async (request, reply) =>
    sendIcs(reply, await eventIcs(clock(), actorOf(request), request.params.id)),
  );

  route(app, endpoints.calendarMine, { onRequest: authenticate() }, (request) =>
    listMyEvents(clock(), actorOf(request)),
  );

  route(app, endpoints.calendarFeedGet, { onRequest: authenticate() }, (request) => getFeed(db, actorOf(request)));

  route(app, endpoints.calendarFeedCreate, { onRequest: authenticate() }, (request) =>
    createFeed(clock(), actorOf(request)),
  );

  route(app, endpoints.calendarFeedRevoke, { onRequest: authenticate() }, (request) =>
    revokeFeed(db, actorOf(request)),
  );

  // No session: a calendar app subscribed to the URL sends none. The secret is the credential.
  route(app, endpoints.calendarFeedIcs, {}, async (request, reply) =>
    sendIcs(reply, await feedIcs(clock(), request.params.secret)),
  );
}
