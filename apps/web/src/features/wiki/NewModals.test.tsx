// @vitest-environment jsdom
import { api, ErrorCode, type WikiTopic, type WikiTree } from "@carecampus/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import i18n from "../../i18n";
import { ApiFailure, held, stubApi } from "../../test/api";
import { cleanUpScreen, fieldLabelled, renderScreen, setUpComponentTests, signInAs } from "../../test/render";
import { NewTopicModal } from "./NewModals";

/** A content manager's wiki: common pages only. */
const TREE: WikiTree = {
  facility_id: null,
  topics: [],
  recent: [],
  can_edit_common: true,
  can_edit_facility: false,
  to_confirm: 0,
};
const CREATED: WikiTopic = { id: 3, key: "haendehygiene", title: "Händehygiene", facility_id: null, pages: [] };

beforeAll(setUpComponentTests);
afterEach(cleanUpScreen);

const create = () => screen.getByRole("button", { name: i18n.t("wiki.new.createTopic") });

function openDialog() {
  signInAs(["contentmanager"]);
  const onClose = vi.fn();
  renderScreen(<NewTopicModal opened onClose={onClose} tree={TREE} />, "/wiki");
  return onClose;
}

describe("new wiki topic", () => {
  it("derives the short name from the title until it is edited, and checks it by the contract's rule", () => {
    stubApi([]);
    openDialog();
    expect(create().hasAttribute("disabled")).toBe(true);
    fireEvent.change(fieldLabelled("wiki.new.title"), { target: { value: "Händehygiene" } });
    expect(fieldLabelled("wiki.new.slug").value).toBe("haendehygiene");
    expect(create().hasAttribute("disabled")).toBe(false);

    fireEvent.change(fieldLabelled("wiki.new.slug"), { target: { value: "Hände Hygiene" } });
    expect(screen.getByText(i18n.t("wiki.new.slugRule"))).toBeTruthy();
    expect(fieldLabelled("wiki.new.slug").getAttribute("aria-invalid")).toBe("true");
    expect(create().hasAttribute("disabled")).toBe(true);

    // Edited by hand, the short name no longer follows the title.
    fireEvent.change(fieldLabelled("wiki.new.slug"), { target: { value: "haende" } });
    fireEvent.change(fieldLabelled("wiki.new.title"), { target: { value: "Händehygiene im Alltag" } });
    expect(fieldLabelled("wiki.new.slug").value).toBe("haende");
    expect(screen.queryByText(i18n.t("wiki.new.slugRule"))).toBeNull();
    expect(create().hasAttribute("disabled")).toBe(false);
  });

  it("disables create while the topic is created, then closes", async () => {
    const creating = held<WikiTopic>();
    const requests = stubApi([
      { route: api.wikiTopicCreate, answer: () => creating.answer },
      { route: api.wikiTree, answer: TREE },
    ]);
    const onClose = openDialog();
    fireEvent.change(fieldLabelled("wiki.new.title"), { target: { value: "Händehygiene" } });
    fireEvent.click(create());
    await waitFor(() => expect(create().getAttribute("data-loading")).toBe("true"));
    expect(requests[0]).toMatchObject({
      method: "POST",
      url: "/api/wiki/topics",
      body: { key: "haendehygiene", title: "Händehygiene" },
    });
    expect(onClose).not.toHaveBeenCalled();
    creating.release(CREATED);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it("says at the short name that it is taken (409), until it is changed", async () => {
    stubApi([
      {
        route: api.wikiTopicCreate,
        answer: () => {
          throw new ApiFailure(ErrorCode.conflict);
        },
      },
    ]);
    const onClose = openDialog();
    fireEvent.change(fieldLabelled("wiki.new.title"), { target: { value: "Händehygiene" } });
    fireEvent.click(create());
    expect(await screen.findByText(i18n.t("wiki.new.topicTaken"))).toBeTruthy();
    expect(fieldLabelled("wiki.new.slug").getAttribute("aria-invalid")).toBe("true");
    expect(create().hasAttribute("disabled")).toBe(false);
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.change(fieldLabelled("wiki.new.slug"), { target: { value: "haendehygiene-2" } });
    expect(screen.queryByText(i18n.t("wiki.new.topicTaken"))).toBeNull();
  });
});
