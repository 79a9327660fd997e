// @vitest-environment jsdom
import { api, type Catalogue } from "@carecampus/contract";
import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminListKeys } from "../../queries/admin";
import { stubApi } from "../../test/api";
import { cleanUpScreen, setUpComponentTests, signInAs } from "../../test/render";
import { EventModal } from "./EventModal";

beforeAll(setUpComponentTests);
afterEach(cleanUpScreen);

const topic = (trainings: Catalogue[number]["trainings"]): Catalogue[number] => ({
  id: 5,
  name: "Brandschutz",
  icon: "fire",
  color: "red",
  trainings,
});
const OLD = { id: 50, name: "Brandschutz im Pflegeheim", icon: "fire", passive: false };
const NEW = { id: 51, name: "Alarmplan-Schulung", icon: "fire", passive: true };

function openPlanned(client: QueryClient, training: number) {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <EventModal
            target={{ kind: "new", day: "2026-12-08", plan: { facility: 1, topic: 5, training } }}
            onClose={() => {}}
            onChanged={async () => {}}
          />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const catalogueRequests = (requests: { url: string }[]) =>
  requests.filter((r) => r.url.includes("/filter/list/topics"));

describe("the new-event dialog planned from the start page", () => {
  it("asks for the catalogue again when the kept one does not hold the planned training yet", async () => {
    signInAs(["administrator"]);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // Kept from a visit before someone added the training (the catalogue is kept ten minutes).
    client.setQueryData(adminListKeys.catalogue, [topic([OLD])]);
    const requests = stubApi([
      { route: api.catalogue, answer: [topic([OLD, NEW])] },
      { route: api.calendarProposal, answer: [] },
    ]);
    openPlanned(client, NEW.id);
    const field = (id: string) => screen.getByTestId(id) as HTMLInputElement;
    await waitFor(() => expect(field("event-training").value).toBe(NEW.name));
    expect(screen.getByDisplayValue("Brandschutz")).toBeTruthy();
    expect(catalogueRequests(requests)).toHaveLength(1);
  });

  it("asks once, not again and again, for a training the catalogue does not hold (retired)", async () => {
    signInAs(["administrator"]);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(adminListKeys.catalogue, [topic([OLD])]);
    const requests = stubApi([
      { route: api.catalogue, answer: [topic([OLD])] },
      { route: api.calendarProposal, answer: [] },
    ]);
    openPlanned(client, 99);
    await waitFor(() => expect(catalogueRequests(requests)).toHaveLength(1));
    await waitFor(() => expect(client.isFetching()).toBe(0));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(catalogueRequests(requests)).toHaveLength(1);
    expect((screen.getByTestId("event-training") as HTMLInputElement).value).toBe("");
  });
});
