// @vitest-environment jsdom
import { AUDIT_DATA_KEYS, type AuditEntry } from "@carecampus/contract";
import { screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import i18n from "../../i18n";
import { cleanUpScreen, renderScreen, setUpComponentTests } from "../../test/render";
import { AuditEntryCard } from "./AuditEntryCard";

/*
 * An entry's details in plain words (issue 28): no data key, role or source is shown raw; ids
 * read "No. 12", the entry's own facility by its name; fields shown before → after are not
 * listed again.
 */

beforeAll(setUpComponentTests);
afterEach(async () => {
  cleanUpScreen();
  await i18n.changeLanguage("de");
});

const base = {
  at: "2027-03-01T09:00:00.000Z",
  actor: { id: 2, role: "administrator", name: "Anna Admin" },
  facility: { id: 1, name: "Haus Sonnenhof" },
  subject: { id: 7, name: "Tom Test" },
} as const;

/** Entries of several kinds as GET /audit answers them (personal changes beside the data). */
const ENTRIES: AuditEntry[] = [
  {
    ...base,
    id: 1,
    kind: "user.updated",
    data: {
      fields: ["surname", "roles", "facility", "additional_qualifications"],
      before: { roles: ["employee"], facility: 1 },
      after: { roles: ["employee", "supervisor"], facility: 12 },
      personal: { before: { surname: "Test" }, after: { surname: "Test Neu" } },
    },
  },
  { ...base, id: 2, kind: "user.archived", data: { via: "delete" } },
  {
    ...base,
    id: 3,
    kind: "users.imported",
    subject: null,
    data: { created: 3, updated: 1, unchanged: 0, archived: 2 },
  },
  {
    ...base,
    id: 4,
    kind: "certificate.issued",
    data: {
      certificate: 40,
      training: 11,
      via: "attendance",
      acquired_at: "2027-03-01T09:00:00.000Z",
      expires_at: "2028-03-01T09:00:00.000Z",
    },
  },
  {
    ...base,
    id: 5,
    kind: "user.erasure_requested",
    data: { by: "self", outcome: "partial", erased: false, kept_until: "2037-12-31" },
  },
  { ...base, id: 6, kind: "matrix.changed", data: { before: null, after: [11, 12] } },
  {
    ...base,
    id: 7,
    kind: "content.updated",
    subject: null,
    data: {
      item: "questionnaire",
      id: 5,
      fields: ["question_order"],
      before: { status: "draft" },
      after: { status: "published" },
    },
  },
  {
    ...base,
    id: 8,
    kind: "certificate.revoked",
    // The note is personal: GET /audit gives it beside the data (audit/service.ts).
    data: {
      certificate: 40,
      training: 11,
      reason: "obtained_improperly",
      personal: { note: "Teilnahme nur angegeben" },
    },
  },
];

const details = () => screen.getAllByTestId("audit-entry").map((e) => e.textContent ?? "");

describe("the details of an entry", () => {
  for (const lang of ["de", "en"] as const) {
    it(`name every key and value in words (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      renderScreen(
        <ul>
          {ENTRIES.map((e) => (
            <AuditEntryCard key={e.id} entry={e} />
          ))}
        </ul>,
      );
      // Each detail line: no raw key as its label, no raw value after a label, a comma or an arrow.
      const lines = screen.getAllByRole("listitem").map((li) => li.textContent ?? "");
      const raw = [
        "employee",
        "supervisor",
        "delete",
        "attendance",
        "self",
        "partial",
        "draft",
        "published",
        "obtained_improperly",
      ];
      for (const line of lines) {
        for (const key of AUDIT_DATA_KEYS) expect(line).not.toMatch(new RegExp(`^${key}:`));
        for (const value of raw) expect(line).not.toMatch(new RegExp(`(: |, |→ )${value}\\b`));
      }
      const t = i18n.getFixedT(lang);
      const [user, archived, imported, certificate, erasure, matrix, content, revoked] = details();
      expect(user).toContain(t("audit.change", { field: t("audit.field.surname"), before: "Test", after: "Test Neu" }));
      expect(user).toContain(
        t("audit.change", {
          field: t("audit.field.roles"),
          before: t("roles.employee"),
          after: `${t("roles.employee")}, ${t("roles.supervisor")}`,
        }),
      );
      // The entry's facility by its name, another one by its number.
      expect(user).toContain(
        t("audit.change", {
          field: t("audit.field.facility"),
          before: "Haus Sonnenhof",
          after: t("audit.number", { id: 12 }),
        }),
      );
      // Only the field without a before → after line is listed as changed.
      expect(user).toContain(`${t("audit.field.fields")}: ${t("audit.field.additional_qualifications")}`);
      expect(user).not.toContain(`${t("audit.field.fields")}: ${t("audit.field.surname")}`);
      expect(archived).toContain(`${t("audit.field.via")}: ${t("audit.value.via.delete")}`);
      expect(imported).toContain(`${t("audit.field.created")}: 3`);
      expect(certificate).toContain(`${t("audit.field.training")}: ${t("audit.number", { id: 11 })}`);
      expect(certificate).toContain(`${t("audit.field.expires_at")}: 01.03.2028 10:00`);
      expect(erasure).toContain(`${t("audit.field.by")}: ${t("audit.value.by.self")}`);
      expect(erasure).toContain(`${t("audit.field.kept_until")}: 31.12.2037`);
      expect(matrix).toContain(
        t("audit.change", {
          field: t("audit.field.assigned"),
          before: t("audit.all"),
          after: `${t("audit.number", { id: 11 })}, ${t("audit.number", { id: 12 })}`,
        }),
      );
      expect(content).toContain(`${t("audit.field.item")}: ${t("audit.value.item.questionnaire")}`);
      expect(content).toContain(
        t("audit.change", {
          field: t("audit.field.status"),
          before: t("audit.value.status.draft"),
          after: t("audit.value.status.published"),
        }),
      );
      // A revocation: its reason in the dialog's words, and the note staff wrote.
      expect(revoked).toContain(`${t("audit.field.reason")}: ${t("revoke.reasons.obtained_improperly")}`);
      expect(revoked).toContain(`${t("revocationDetails.note")}: Teilnahme nur angegeben`);
    });
  }
});
