// Sortable statistics tables: a click on a column's button sorts the rows by that column's
// data-value, again to reverse. Delegated from the document, so tables swapped in by htmx sort
// too. Without JavaScript the tables are still there, in their default order.
(function () {
  "use strict";

  function cellValue(row, index, kind) {
    var cell = row.children[index];
    var raw = cell ? cell.getAttribute("data-value") : "";
    if (raw === null) raw = cell ? cell.textContent.trim() : "";
    if (kind === "number") return raw === "" ? null : parseFloat(raw);
    return raw.toLowerCase();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("table[data-sortable] th button[data-sort]");
    if (!button) return;
    var header = button.closest("th");
    var table = header.closest("table");
    var index = Array.prototype.indexOf.call(header.parentNode.children, header);
    var kind = button.getAttribute("data-sort");
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a, index, kind);
      var y = cellValue(b, index, kind);
      if (x === y) return 0;
      if (x === null) return 1; // no value sorts last either way
      if (y === null) return -1;
      return (x < y ? -1 : 1) * (ascending ? 1 : -1);
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(header.parentNode.children, function (other) {
      other.removeAttribute("aria-sort");
    });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  });
})();
