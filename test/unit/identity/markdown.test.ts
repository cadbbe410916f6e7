import { describe, expect, it } from "vitest";
import { markdownToHtml } from "../../../src/identity/markdown";

describe("the documents' markdown renderer", () => {
  it("renders headings, paragraphs, lists, tables and code", () => {
    const html = markdownToHtml("# T\n\nSome `code` and **bold**.\n\n- one\n  more\n  - sub\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```sh\necho <hi>\n```\n");
    expect(html).toContain("<h1>T</h1>");
    expect(html).toContain("<p>Some <code>code</code> and <strong>bold</strong>.</p>");
    expect(html).toContain("<ul><li>one more<ul><li>sub</li></ul></li></ul>");
    expect(html).toContain("<th>a</th>");
    expect(html).toContain("<td>2</td>");
    // A code block scrolls sideways: reachable from the keyboard and named (WCAG 2.1.1, SPEC §10).
    expect(html).toContain('<pre tabindex="0" role="group" aria-label="Code"><code>echo &lt;hi&gt;</code></pre>');
  });

  it("escapes everything, so no text can become markup", () => {
    const html = markdownToHtml('<script>alert(1)</script> `<img src=x onerror="y">`');
    expect(html).not.toMatch(/<script|<img/);
  });
});
