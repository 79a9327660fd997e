// @vitest-environment jsdom
import { type AuthoringTree, api, type Catalogue } from "@carecampus/contract";
import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import i18n from "../../i18n";
import { adminListKeys } from "../../queries/admin";
import { stubApi } from "../../test/api";
import { cleanUpScreen, fieldLabelled, setUpComponentTests, signInAs } from "../../test/render";
import AuthoringPage from "./AuthoringPage";

beforeAll(setUpComponentTests);
afterEach(cleanUpScreen);

const TREE: AuthoringTree = {
  edits_common: true,
  facility_id: null,
  topics: [{ id: 5, name: "Brandschutz", icon: "fire", color: "#c92a2a", origin: "common", trainings: [] }],
};
/** The catalogue another screen of this tab kept (ten minutes): the topic, no training yet. */
const KEPT: Catalogue = [{ id: 5, name: "Brandschutz", icon: "fire", color: "#c92a2a", trainings: [] }];

describe("authoring a training", () => {
  it("makes the kept catalogue stale, so the training matrix offers the new training at once", async () => {
    signInAs(["contentmanager"]);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(adminListKeys.catalogue, KEPT);
    const requests = stubApi([
      { route: api.authoringTree, answer: TREE },
      { route: api.contentLanguageList, answer: { source: "de", languages: ["de"], machine_suggestions: false } },
      { route: api.authoringTrainingCreate, answer: { id: 51 } },
    ]);
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={client}>
          <MemoryRouter>
            <AuthoringPage />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>,
    );
    fireEvent.click(await screen.findByRole("button", { name: i18n.t("authoring.newTraining") }));
    fireEvent.change(fieldLabelled("authoring.name"), { target: { value: "Alarmplan-Schulung" } });
    fireEvent.change(fieldLabelled("authoring.icon"), { target: { value: "fire" } });
    expect(client.getQueryState(adminListKeys.catalogue)?.isInvalidated).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: i18n.t("common.save") }));

    await waitFor(() => expect(requests.some((r) => r.url.endsWith("/authoring/trainings"))).toBe(true));
    await waitFor(() => expect(client.getQueryState(adminListKeys.catalogue)?.isInvalidated).toBe(true));
  });
});
