import "@mantine/dates/styles.css";
import { AUDIT_KINDS, type AuditKind, api, can } from "@carecampus/contract";
import {
  Alert,
  Button,
  Group,
  Loader,
  NativeSelect,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { DatePickerInput, DatesProvider } from "@mantine/dates";
import { useDebouncedValue } from "@mantine/hooks";
import { IconAlertTriangle, IconDownload, IconShieldCheck } from "@tabler/icons-react";
import "dayjs/locale/de";
import "dayjs/locale/es";
import "dayjs/locale/fr";
import "dayjs/locale/pt-br";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { authedUrl, freshLink } from "../../api/client";
import { PageHeader } from "../../components/PageHeader";
import { useRequiredSession } from "../../session/store";
import { AuditEntryCard } from "./AuditEntryCard";
import classes from "./audit.module.css";
import { type AuditFilter, useAuditPage, useAuditVerification, usePeopleSearch } from "./queries";

/** The chain's state for superusers, at the top of the page. */
function ChainStatus() {
  const { t } = useTranslation();
  const { data, isPending } = useAuditVerification(true);
  if (isPending || !data) {
    return (
      <Group gap="xs" mb="md">
        <Loader size="xs" />
        <Text size="sm">{t("audit.chainChecking")}</Text>
      </Group>
    );
  }
  return data.intact ? (
    <Alert color="teal" icon={<IconShieldCheck />} title={t("audit.chainTitle")} mb="md" data-testid="audit-chain">
      {t("audit.chainIntact", { count: data.entries })}
    </Alert>
  ) : (
    <Alert color="red" icon={<IconAlertTriangle />} title={t("audit.chainTitle")} mb="md" data-testid="audit-chain">
      {t("audit.chainBroken", { id: data.first_broken, count: data.entries })}
    </Alert>
  );
}

/** The person filter: a search over the people the caller may see (GET /auth/admin/users?query=). */
function PersonFilter({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search, 250);
  const { data } = usePeopleSearch(debounced);
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  const options = (data?.users ?? []).map((u) => ({
    value: String(u.id),
    label: `${u.name} ${u.surname} (${u.login})`,
  }));
  if (chosen && !options.some((o) => o.value === chosen.value)) options.unshift(chosen);
  return (
    <Select
      label={t("audit.person")}
      placeholder={t("audit.personPlaceholder")}
      searchable
      clearable
      data={options}
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      // Every match the server found is shown: it searched already.
      filter={({ options: all }) => all}
      nothingFoundMessage={debounced.trim() ? t("audit.empty") : undefined}
      onChange={(id, option) => {
        setChosen(id ? option : null);
        onChange(id);
      }}
      data-testid="audit-person"
    />
  );
}

export default function AuditPage() {
  const { t, i18n } = useTranslation();
  const { user } = useRequiredSession();
  const [filter, setFilter] = useState<AuditFilter>({});
  const [page, setPage] = useState(1);
  const { data, isPending, isFetching } = useAuditPage(filter, page);
  const resultsRef = useRef<HTMLHeadingElement>(null);
  const change = (next: Partial<AuditFilter>) => {
    setFilter((f) => ({ ...f, ...next }));
    setPage(1);
  };
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  const kinds = AUDIT_KINDS.map((k) => ({ value: k, label: t(`audit.kind.${k}`) })).sort((a, b) =>
    a.label.localeCompare(b.label),
  );
  const csvLink = freshLink(() => authedUrl(api.auditExport, { query: { ...filter, format: "csv" } }));
  return (
    <>
      <PageHeader title={t("audit.title")}>
        <Button
          component="a"
          {...csvLink}
          variant="light"
          leftSection={<IconDownload size={16} />}
          data-testid="audit-csv"
        >
          {t("audit.export")}
        </Button>
      </PageHeader>
      <Text mb="md">{t("audit.intro")}</Text>
      {can(user.roles, "audit.verify") && <ChainStatus />}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm" mb="xs">
        <PersonFilter
          value={filter.user === undefined ? null : String(filter.user)}
          onChange={(id) => change({ user: id ? Number(id) : undefined })}
        />
        {/* A native select: 28 kinds are a long list, which the browser scrolls and a keyboard or a
            phone's picker reach; a scrolling listbox of its own would leave its scroll region
            without keyboard focus (axe scrollable-region-focusable). */}
        <NativeSelect
          label={t("audit.kindLabel")}
          data={[{ value: "", label: t("audit.allKinds") }, ...kinds]}
          value={filter.kind ?? ""}
          onChange={(e) => change({ kind: (e.currentTarget.value || undefined) as AuditKind | undefined })}
          data-testid="audit-kind"
        />
        {/* The app's date picker, as in the calendar: DD.MM.YYYY and the reader's language
            whatever the browser's; the range cannot be turned round, each end bounds the other. */}
        <DatesProvider settings={{ locale: i18n.language === "br" ? "pt-br" : i18n.language, firstDayOfWeek: 1 }}>
          {(["from", "to"] as const).map((end) => (
            <DatePickerInput
              key={end}
              label={t(end === "from" ? "audit.fromDay" : "audit.toDay")}
              valueFormat="DD.MM.YYYY"
              clearable
              value={filter[end] ?? null}
              {...(end === "from" ? { maxDate: filter.to } : { minDate: filter.from })}
              onChange={(day) => change({ [end]: day ? String(day).slice(0, 10) : undefined })}
              data-testid={`audit-${end}`}
            />
          ))}
        </DatesProvider>
      </SimpleGrid>
      <Group justify="flex-end" mb="md">
        <Button
          variant="subtle"
          onClick={() => change({ user: undefined, kind: undefined, from: undefined, to: undefined })}
        >
          {t("audit.reset")}
        </Button>
      </Group>
      <Stack gap="sm">
        <Group gap="xs">
          <Title order={2} fz="h4" ref={resultsRef} tabIndex={-1} style={{ outline: "none" }}>
            {t("audit.results")}
          </Title>
          {isFetching && <Loader size="xs" />}
        </Group>
        {/* Announced politely when a filter or page changes the list. */}
        <Text size="sm" role="status" aria-live="polite" data-testid="audit-total">
          {data ? (data.total === 0 ? t("audit.empty") : t("audit.total", { count: data.total })) : ""}
        </Text>
        {isPending && <Loader />}
        {data && data.entries.length > 0 && (
          <ul className={classes.list}>
            {data.entries.map((entry) => (
              <AuditEntryCard key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
        {pages > 1 && (
          <Pagination
            total={pages}
            value={page}
            onChange={(p) => {
              setPage(p);
              // The list changed under the pagination: the reader goes on at its heading.
              resultsRef.current?.focus();
            }}
            size="sm"
          />
        )}
      </Stack>
    </>
  );
}
