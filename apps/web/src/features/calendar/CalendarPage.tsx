import "@fullcalendar/react/skeleton.css";
import "@fullcalendar/react/themes/classic/theme.css";
import "@fullcalendar/react/themes/classic/palette.css";
import { api, type CalendarEvent, isoDay, seesAllFacilities } from "@carecampus/contract";
import FullCalendar, { type EventDropInfo, type EventInput, type EventSourceFuncInfo } from "@fullcalendar/react";
import dayGridPlugin from "@fullcalendar/react/daygrid";
import interactionPlugin from "@fullcalendar/react/interaction";
import listPlugin from "@fullcalendar/react/list";
import deLocale from "@fullcalendar/react/locales/de";
import esLocale from "@fullcalendar/react/locales/es";
import frLocale from "@fullcalendar/react/locales/fr";
import ptBrLocale from "@fullcalendar/react/locales/pt-br";
import classicTheme from "@fullcalendar/react/themes/classic";
import timeGridPlugin from "@fullcalendar/react/timegrid";
import { Button, Group, Select, useComputedColorScheme } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconPlus } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { call, showSuccess } from "../../api/client";
import { settings } from "../../app/settings";
import { PageHeader } from "../../components/PageHeader";
import { useFacilities } from "../../queries/admin";
import { type CalendarRequest, calendarKeys } from "../../queries/calendar";
import { useRequiredSession } from "../../session/store";
import classes from "./calendar.module.css";
import { EventModal, type EventModalTarget } from "./EventModal";
import { movedBody } from "./event-form";

const LOCALES = { de: deLocale, fr: frLocale, es: esLocale, br: ptBrLocale } as const;

function toInput(e: CalendarEvent): EventInput {
  return {
    id: String(e.ID),
    title: e.Label || e.Training.name,
    start: e.Start,
    end: e.End,
    allDay: e.AllDay,
    // The offered colours all carry white text at 5:1 or more.
    color: e.Color,
    contrastColor: "#ffffff",
    editable: e.CanEdit && !e.Started,
    extendedProps: { event: e },
  };
}

/** The dialog another page's link asks for (queries/calendar.ts CalendarRequest), if it is one. */
function requested(state: unknown, day: string): EventModalTarget | null {
  const request = (typeof state === "object" && state !== null ? state : {}) as Partial<CalendarRequest>;
  if ("plan" in request && request.plan) {
    const { facility, topic, training } = request.plan;
    if ([facility, topic, training].every(Number.isInteger))
      return { kind: "new", day, plan: { facility, topic, training } };
  }
  if ("event" in request && Number.isInteger(request.event)) return { kind: "edit", id: request.event as number };
  return null;
}

/** /calendar (spec §2 'Other views: Calendar'): the facility's training events, month, week and list. */
export default function CalendarPage() {
  const { t, i18n } = useTranslation();
  const { user } = useRequiredSession();
  const queryClient = useQueryClient();
  const zone = settings["time-zone"];
  const scheme = useComputedColorScheme("light");
  const phone = useMediaQuery("(max-width: 48em)", false, { getInitialValueInEffect: false });
  const allFacilities = seesAllFacilities(user.roles);
  const facilities = useFacilities(allFacilities);
  const [facility, setFacility] = useState<number | null>(null);
  const location = useLocation();
  const navigate = useNavigate();
  const [target, setTarget] = useState<EventModalTarget | null>(() =>
    requested(location.state, isoDay(new Date(), zone)),
  );
  const calendar = useRef<{ getApi(): { refetchEvents(): void } } | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // A request opens its dialog once: reloading or coming back to the page does not open it again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read at the first render only
  useEffect(() => {
    if (location.state) navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, []);

  const load = async (info: EventSourceFuncInfo): Promise<EventInput[]> => {
    const query = {
      start: isoDay(info.start, zone),
      end: isoDay(info.end, zone),
      facility: facility ?? undefined,
    };
    const events = await queryClient.fetchQuery({
      queryKey: calendarKeys.range(query.start, query.end, facility),
      queryFn: () => call(api.calendarList, { query }),
      staleTime: 0,
    });
    return events.map(toInput);
  };

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: calendarKeys.all });
    calendar.current?.getApi().refetchEvents();
  };

  const onDrop = async (info: EventDropInfo) => {
    const event = info.event.extendedProps.event as CalendarEvent;
    try {
      await call(api.calendarUpdate, { body: movedBody(event, info.event.startStr, info.event.endStr) });
      showSuccess(t("calendar.moved"));
      await refresh();
    } catch {
      info.revert();
    }
  };

  const close = () => {
    setTarget(null);
    // Back where the dialog was opened from (WAI-ARIA dialog pattern); opened by another page's
    // link, to the calendar's title.
    (opener.current ?? heading.current)?.focus();
  };

  const newButton = (
    <Button
      leftSection={<IconPlus size={18} />}
      onClick={(e) => {
        opener.current = e.currentTarget;
        setTarget({ kind: "new", day: isoDay(new Date(), zone) });
      }}
    >
      {t("calendar.new")}
    </Button>
  );

  return (
    <>
      <PageHeader title={t("calendar.title")} headingRef={heading}>
        {!phone && newButton}
      </PageHeader>
      {phone && (
        <Group grow mb="md">
          {newButton}
        </Group>
      )}
      {allFacilities && (
        <Group mb="md">
          <Select
            label={t("calendar.facility")}
            data={[
              { value: "", label: t("calendar.allFacilities") },
              ...(facilities.data ?? []).map((f) => ({ value: String(f.id), label: f.name })),
            ]}
            value={facility ? String(facility) : ""}
            onChange={(v) => {
              setFacility(v ? Number(v) : null);
              // The event source reads the filter at its next fetch.
              setTimeout(() => calendar.current?.getApi().refetchEvents(), 0);
            }}
            allowDeselect={false}
            maw={360}
          />
        </Group>
      )}
      <div className={classes.calendar} data-testid="calendar">
        <FullCalendar
          ref={calendar as never}
          plugins={[classicTheme, dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin]}
          locales={Object.values(LOCALES)}
          locale={i18n.language === "en" ? "en-gb" : i18n.language === "br" ? "pt-br" : i18n.language}
          timeZone={zone}
          colorScheme={scheme}
          firstDay={1}
          initialView={phone ? "listMonth" : "dayGridMonth"}
          headerToolbar={
            phone
              ? { start: "prev,next", center: "title", end: "today" }
              : { start: "prev,next today", center: "title", end: "dayGridMonth,timeGridWeek,listMonth" }
          }
          footerToolbar={phone ? { center: "dayGridMonth,timeGridWeek,listMonth" } : false}
          height="auto"
          eventTimeFormat={{ hour: "2-digit", minute: "2-digit", hour12: false }}
          slotMinTime="06:00:00"
          slotMaxTime="22:00:00"
          nowIndicator
          events={load}
          eventClick={(info) => {
            info.jsEvent.preventDefault();
            opener.current = info.el;
            setTarget({ kind: "edit", id: Number(info.event.id) });
          }}
          dateClick={(info) => {
            opener.current = info.dayEl;
            setTarget({ kind: "new", day: info.dateStr.slice(0, 10) });
          }}
          eventDrop={(info) => void onDrop(info)}
          noEventsContent={() => t("calendar.noEvents")}
          listItemEventTitleClass={classes.wrap}
          listItemEventInnerClass={classes.event}
          listItemEventTimeClass={classes.time}
          // A button's accessible name contains its visible text (WCAG 2.5.3).
          todayText={t("calendar.today")}
          todayHint={t("calendar.today")}
          viewHint={(text: string) => text}
        />
      </div>
      {target && <EventModal target={target} onClose={close} onChanged={refresh} />}
    </>
  );
}
