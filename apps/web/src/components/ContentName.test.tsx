// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import i18n from "../i18n";
import { cleanUpScreen, renderScreen, setUpComponentTests } from "../test/render";
import { ContentName } from "./ContentName";

beforeAll(setUpComponentTests);
afterEach(cleanUpScreen);

describe("a content name in the language it comes in (issue 31)", () => {
  it("is marked with its language and direction where it is not the interface's, and plain where it is", () => {
    renderScreen(
      <ul>
        <li data-testid="tr">
          <ContentName name="El hijyeni" lang="tr" />
        </li>
        <li data-testid="ar">
          <ContentName name="نظافة اليدين" lang="ar" />
        </li>
        <li data-testid="br">
          <ContentName name="Higiene das mãos" lang="br" />
        </li>
        <li data-testid="de">
          <ContentName name="Händehygiene" lang="de" />
        </li>
        <li data-testid="ui">
          <ContentName name="Hand hygiene" lang={i18n.language} />
        </li>
      </ul>,
      "/",
    );
    expect(screen.getByText("El hijyeni").getAttribute("lang")).toBe("tr");
    expect(screen.getByText("El hijyeni").hasAttribute("dir")).toBe(false);
    expect(screen.getByText("نظافة اليدين").getAttribute("dir")).toBe("rtl");
    // The interface's codes as the interface means them: br is Brazilian Portuguese.
    expect(screen.getByText("Higiene das mãos").getAttribute("lang")).toBe("pt-BR");
    // German in an English interface is marked; a name in the interface's language needs no element of its own.
    expect(screen.getByText("Händehygiene").getAttribute("lang")).toBe("de");
    expect(screen.getByTestId("ui").innerHTML).toBe("Hand hygiene");
  });
});
