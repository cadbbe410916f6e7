import { el } from "../dom";

export interface Column<Row> {
  key: string;
  label: string;
  /** What the column sorts by. */
  value(row: Row): string | number | null;
  /** The cell: text, or a node (built with textContent). */
  render?(row: Row): string | Node;
  numeric?: boolean;
  title?: string;
  /** The column that names the row: it stays in view while a table wider than its panel scrolls. */
  pinned?: boolean;
}

/** A cell's classes: right-aligned numbers, the pinned naming column. */
function cellClass<Row>(column: Column<Row>): string | undefined {
  const classes = [column.numeric ? "num" : "", column.pinned ? "pin" : ""].filter(Boolean).join(" ");
  return classes || undefined;
}

/**
 * A real, sortable `<table>`: a button in each header sorts by that column (again reverses it),
 * `aria-sort` says how it is sorted, and rows keep their order between refreshes.
 */
export class SortableTable<Row> {
  readonly root: HTMLTableElement;
  private readonly body: HTMLTableSectionElement;
  private readonly headers: HTMLTableCellElement[] = [];
  private rows: Row[] = [];
  private sortKey: string;
  private descending: boolean;

  constructor(
    private readonly columns: Array<Column<Row>>,
    options: { caption: string; sortKey: string; descending?: boolean; rowKey?: (row: Row) => string; className?: string },
  ) {
    this.sortKey = options.sortKey;
    this.descending = options.descending ?? true;
    this.rowKey = options.rowKey;
    const headRow = el("tr");
    for (const column of columns) {
      const button = el("button", { type: "button", class: "sort", text: column.label, title: column.title });
      button.addEventListener("click", () => this.sortBy(column.key));
      const th = el("th", { scope: "col", class: cellClass(column), "data-key": column.key }, button);
      this.headers.push(th);
      headRow.append(th);
    }
    this.body = el("tbody");
    this.root = el("table", { class: `table ${options.className ?? ""}` }, el("caption", { class: "visually-hidden", text: options.caption }), el("thead", {}, headRow), this.body);
    this.updateHeaders();
  }

  private readonly rowKey?: (row: Row) => string;

  setRows(rows: Row[]): void {
    this.rows = rows;
    this.render();
  }

  sortBy(key: string): void {
    if (this.sortKey === key) this.descending = !this.descending;
    else {
      this.sortKey = key;
      const column = this.columns.find((c) => c.key === key);
      this.descending = column?.numeric ?? false;
    }
    this.updateHeaders();
    this.render();
  }

  private updateHeaders(): void {
    for (const th of this.headers) {
      const key = th.getAttribute("data-key");
      if (key === this.sortKey) th.setAttribute("aria-sort", this.descending ? "descending" : "ascending");
      else th.removeAttribute("aria-sort");
    }
  }

  private render(): void {
    const column = this.columns.find((c) => c.key === this.sortKey) ?? this.columns[0];
    const sign = this.descending ? -1 : 1;
    const sorted = [...this.rows].sort((a, b) => {
      const va = column.value(a);
      const vb = column.value(b);
      if (va === vb) return 0;
      if (va === null) return 1;
      if (vb === null) return -1;
      return (va < vb ? -1 : 1) * sign;
    });
    const fragment = document.createDocumentFragment();
    for (const row of sorted) {
      const tr = el("tr", { "data-row": this.rowKey?.(row) });
      for (const c of this.columns) {
        const content = c.render ? c.render(row) : String(c.value(row) ?? "–");
        tr.append(el("td", { class: cellClass(c) }, content));
      }
      fragment.append(tr);
    }
    this.body.replaceChildren(fragment);
  }
}
