// @vitest-environment jsdom
import { EVENT_COLOURS } from "@carecampus/contract";
import { fireEvent, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanUpScreen, renderScreen, setUpComponentTests } from "../../test/render";
import { ColourChoice } from "./ColourChoice";

beforeAll(setUpComponentTests);
afterEach(cleanUpScreen);

const NAMES = EVENT_COLOURS.map((_, i) => `Farbe ${i}`);

function Chooser() {
  const [colour, setColour] = useState<string>(EVENT_COLOURS[0]);
  return (
    <ColourChoice
      label="Farbe"
      colours={EVENT_COLOURS}
      names={NAMES}
      value={colour}
      disabled={false}
      onChange={setColour}
    />
  );
}

describe("the event's colour swatches", () => {
  it("are one Tab stop, the chosen one, and the arrow keys move the choice and the focus, wrapping around", () => {
    renderScreen(<Chooser />, "/calendar");
    const radios = screen.getAllByRole("radio");
    expect(radios).toHaveLength(EVENT_COLOURS.length);
    const tabStops = () => radios.filter((r) => r.tabIndex === 0).map((r) => r.getAttribute("aria-label"));
    expect(tabStops()).toEqual(["Farbe 0"]);

    (radios[0] as HTMLElement).focus();
    fireEvent.keyDown(radios[0] as HTMLElement, { key: "ArrowRight" });
    expect(screen.getByRole("radio", { name: "Farbe 1" }).getAttribute("aria-checked")).toBe("true");
    expect(document.activeElement).toBe(screen.getByRole("radio", { name: "Farbe 1" }));
    expect(tabStops()).toEqual(["Farbe 1"]);

    fireEvent.keyDown(document.activeElement as HTMLElement, { key: "ArrowLeft" });
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: "ArrowUp" });
    const last = `Farbe ${EVENT_COLOURS.length - 1}`;
    expect(screen.getByRole("radio", { name: last }).getAttribute("aria-checked")).toBe("true");
    expect(document.activeElement).toBe(screen.getByRole("radio", { name: last }));
    expect(tabStops()).toEqual([last]);
  });
});
