import { describe, expect, it } from "vitest";
import { decodeXml } from "./moodle-xml";
import { categoryPath, firstWords, hasFormatting, htmlToText, mediaReferences } from "./text";

describe("question-bank text helpers", () => {
  it("turns HTML into the plain text the quiz shows", () => {
    expect(
      htmlToText(
        '<p dir="ltr">Erste&nbsp;Zeile<br>zweite</p><p>dritte &amp; &lt;vierte&gt; &quot;x&quot; it&#39;s</p>',
      ),
    ).toBe('Erste Zeile\nzweite\ndritte & <vierte> "x" it\'s');
    expect(htmlToText("<ul><li>Melden</li><li>Retten</li></ul><script>alert(1)</script><style>p{}</style>")).toBe(
      "Melden\nRetten",
    );
    expect(htmlToText("<table><tr><td>A</td><td>B</td></tr></table>")).toBe("A B");
    expect(htmlToText("&amp;lt;")).toBe("&lt;");
  });

  it("shortens Moodle category paths", () => {
    expect(categoryPath("$course$/top/Hygiene/Händehygiene")).toBe("Hygiene / Händehygiene");
    expect(categoryPath("$system$/top/Hände//Flächen")).toBe("Hände/Flächen");
    expect(categoryPath("$course$/Brandschutz")).toBe("Brandschutz");
    expect(categoryPath("$course$/top")).toBeNull();
    expect(categoryPath("Eigene Fragen")).toBe("Eigene Fragen");
  });

  it("names by first words", () => {
    expect(firstWords("Kurz")).toBe("Kurz");
    expect(firstWords("a".repeat(100))).toBe(`${"a".repeat(59)}…`);
  });

  it("finds media and formatting", () => {
    expect(
      mediaReferences(
        '<img src="@@PLUGINFILE@@/Brand%20Plan.png"><video src=\'v.mp4\'></video><a href="@@PLUGINFILE@@/x.pdf">x</a>',
      ),
    ).toEqual(["Brand Plan.png", "v.mp4", "x.pdf"]);
    expect(hasFormatting('<p><span style="color:red">x</span><br></p>')).toBe(false);
    expect(hasFormatting("<p><strong>x</strong></p>")).toBe(true);
  });

  it("decodes XML escapes once", () => {
    expect(decodeXml("&amp;lt; &lt; &#228; &#xE4; &nbsp; &#xD800;")).toBe("&lt; < ä ä &nbsp; &#xD800;");
  });
});
