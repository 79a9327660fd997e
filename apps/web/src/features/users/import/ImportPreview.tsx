import { IMPORT_FIELDS, type ImportField, type ImportProblem, type ImportRow } from "@carecampus/contract";
import { List, Table, Text } from "@mantine/core";
import type { TFunction } from "i18next";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { scrollRegion } from "../../../components/scroll-region";

/** Rendering thousands of rows would freeze the tab; the summary counts every problem anyway. */
const PREVIEW_ROWS = 200;
const PROBLEM_BG = "var(--mantine-color-red-light)";

function problemText(t: TFunction, p: ImportProblem): string {
  return t(`usersImport.problem.${p.code}`, { value: p.value ?? "", field: t(`usersImport.field.${p.field}`) });
}

/** Problems by row index, for the table and the count of rows with problems. */
export function groupByRow(problems: readonly ImportProblem[]): Map<number, ImportProblem[]> {
  const byRow = new Map<number, ImportProblem[]>();
  for (const p of problems) byRow.set(p.row, [...(byRow.get(p.row) ?? []), p]);
  return byRow;
}

function cellText(t: TFunction, row: ImportRow, field: ImportField): string {
  if (field === "password") return row.password === "" ? t("usersImport.keepsPassword") : "••••••••";
  if (field === "activities" || field === "qualifications") return row[field].join(", ");
  return row[field];
}

interface ImportPreviewProps {
  rows: readonly ImportRow[];
  rowNumbers: readonly number[];
  problems: Map<number, ImportProblem[]>;
  onlyProblems: boolean;
}

/** The problems of one row, in a row of their own below it. */
function ProblemRow({ problems }: { problems: ImportProblem[] }) {
  const { t } = useTranslation();
  return (
    <Table.Tr bg={PROBLEM_BG} data-problems>
      <Table.Td />
      <Table.Td colSpan={IMPORT_FIELDS.length} pt={0} style={{ whiteSpace: "normal" }}>
        {/* Sticky and no wider than the screen: on a phone the reasons stay in view while the cells scroll. */}
        <List size="sm" spacing={2} c="red" style={{ position: "sticky", left: 0, maxWidth: "calc(100vw - 96px)" }}>
          {problems.map((p, k) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a row may repeat a problem, e.g. a name twice
            <List.Item key={k}>{problemText(t, p)}</List.Item>
          ))}
        </List>
      </Table.Td>
    </Table.Tr>
  );
}

/** The parsed rows as a table; a row with problems is red, and says below what is wrong in it. */
export function ImportPreview({ rows, rowNumbers, problems, onlyProblems }: ImportPreviewProps) {
  const { t } = useTranslation();
  const indices = onlyProblems ? [...problems.keys()].sort((a, b) => a - b) : rows.map((_, i) => i);
  const shown = indices.slice(0, PREVIEW_ROWS);
  return (
    <>
      <Table.ScrollContainer minWidth={900} type="native" {...scrollRegion(t("usersImport.title"))}>
        <Table verticalSpacing={6} fz="sm" style={{ whiteSpace: "nowrap" }} data-testid="import-preview">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("usersImport.row")}</Table.Th>
              {IMPORT_FIELDS.map((f) => (
                <Table.Th key={f}>{t(`usersImport.field.${f}`)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((i) => {
              const row = rows[i] as ImportRow;
              const own = problems.get(i) ?? [];
              const bad = new Set(own.map((p) => p.field));
              return (
                <Fragment key={i}>
                  <Table.Tr
                    bg={own.length > 0 ? PROBLEM_BG : undefined}
                    style={own.length > 0 ? { borderBottom: 0 } : undefined}
                    data-row={rowNumbers[i]}
                  >
                    <Table.Td c="dimmed">{rowNumbers[i]}</Table.Td>
                    {IMPORT_FIELDS.map((f) => (
                      <Table.Td
                        key={f}
                        c={bad.has(f) ? "red" : f === "password" && row.password === "" ? "dimmed" : undefined}
                        fw={bad.has(f) ? 600 : undefined}
                      >
                        {cellText(t, row, f)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                  {own.length > 0 && <ProblemRow problems={own} />}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {indices.length > shown.length && (
        <Text size="sm" c="dimmed" mt="xs">
          {t("usersImport.more", { rest: indices.length - shown.length })}
        </Text>
      )}
    </>
  );
}
