// @vitest-environment jsdom
import { render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanUpScreen } from "../test/render";
import { SafeHtml } from "./SafeHtml";

afterEach(cleanUpScreen);

describe("SafeHtml", () => {
  it("lets the keyboard reach a table, which scrolls sideways where it is wider than its place", () => {
    const { container } = render(
      <SafeHtml
        html={'<p>Vorher</p><table tabindex="-1" onclick="alert(1)"><tr><td>a</td></tr></table>'}
        tags={["p", "table", "tbody", "tr", "td"]}
      />,
    );
    const table = container.querySelector("table");
    expect(table?.getAttribute("tabindex")).toBe("0");
    expect(table?.getAttribute("onclick")).toBeNull();
    // Only tables: other elements take no focus of their own.
    expect(container.querySelector("p")?.hasAttribute("tabindex")).toBe(false);
  });
});
