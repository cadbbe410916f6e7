// A deliberately small Markdown-to-HTML renderer for the project's own documents: headings,
// paragraphs, fenced code, tables, and lists with one level of nesting. Everything is escaped first,
// so no document text can inject markup.

export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function inline(s: string): string {
  return escapeHtml(s)
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith("`") && part.endsWith("`") && part.length > 1 ? `<code>${part.slice(1, -1)}</code>` : part.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")))
    .join("");
}

/**
 * A code block scrolls sideways when its lines are long (always on a phone): focusable, so a
 * keyboard can scroll it, and named, so a screen reader says what it is when it takes focus.
 */
export const CODE_BLOCK_OPEN = `<pre tabindex="0" role="group" aria-label="Code">`;

const LIST_ITEM = /^(\s*)(-|\d+\.) (.*)$/;

export function markdownToHtml(md: string): string {
  const lines = md.replace(/\r\n/g, "\n").split("\n");
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
    } else if (line.startsWith("```")) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) body.push(lines[i]);
      i++;
      out.push(`${CODE_BLOCK_OPEN}<code>${escapeHtml(body.join("\n"))}</code></pre>`);
    } else if (/^#{1,3} /.test(line)) {
      const level = line.indexOf(" ");
      out.push(`<h${level}>${inline(line.slice(level + 1))}</h${level}>`);
      i++;
    } else if (line.startsWith("|")) {
      const rows: string[][] = [];
      for (; i < lines.length && lines[i].startsWith("|"); i++) {
        if (/^\|[-| :]+\|$/.test(lines[i])) continue;
        rows.push(lines[i].slice(1, -1).split("|").map((c) => c.trim()));
      }
      const [head, ...body] = rows;
      out.push(
        `<table><thead><tr>${head.map((c) => `<th>${inline(c)}</th>`).join("")}</tr></thead><tbody>` +
          body.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join("")}</tr>`).join("") +
          "</tbody></table>",
      );
    } else if (LIST_ITEM.test(line)) {
      i = renderList(lines, i, out);
    } else {
      const para: string[] = [];
      for (; i < lines.length && lines[i].trim() !== "" && !lines[i].startsWith("```") && !LIST_ITEM.test(lines[i]); i++) para.push(lines[i].trim());
      out.push(`<p>${inline(para.join(" "))}</p>`);
    }
  }
  return out.join("\n");
}

type Item = { text: string[]; children: string[][] };

/** A list starting at `start`: top-level items, their continuation lines and nested "-" items. */
function renderList(lines: string[], start: number, out: string[]): number {
  const first = LIST_ITEM.exec(lines[start]);
  const ordered = first !== null && first[2] !== "-";
  const items: Item[] = [];
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "") {
      // A blank line followed by an indented line continues the current item.
      if (items.length && i + 1 < lines.length && /^ {2,}\S/.test(lines[i + 1]) && !LIST_ITEM.test(lines[i + 1])) continue;
      break;
    }
    const m = LIST_ITEM.exec(line);
    if (m && m[1] === "") items.push({ text: [m[3]], children: [] });
    else if (m && items.length) items[items.length - 1].children.push([m[3]]);
    else if (items.length) {
      const last = items[items.length - 1];
      const target = last.children.length ? last.children[last.children.length - 1] : last.text;
      target.push(line.trim());
    } else break;
  }
  const tag = ordered ? "ol" : "ul";
  const startAttr = ordered && first ? ` start="${parseInt(first[2], 10)}"` : "";
  out.push(
    `<${tag}${startAttr}>` +
      items
        .map((it) => {
          const kids = it.children.length ? `<ul>${it.children.map((c) => `<li>${inline(c.join(" "))}</li>`).join("")}</ul>` : "";
          return `<li>${inline(it.text.join(" "))}${kids}</li>`;
        })
        .join("") +
      `</${tag}>`,
  );
  return i;
}
