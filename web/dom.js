// Building the pages' elements, shared by every module that draws: an
// element with its class and text, and a table with its head row.

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A table of class `className` whose head row names `columns`; its body
// is `body`, for the rows.
export function headedTable(className, columns) {
  const table = element('table', className);
  const head = element('thead');
  const row = element('tr');
  for (const name of columns) row.append(element('th', null, name));
  head.append(row);
  const body = element('tbody');
  table.append(head, body);
  return { table, body };
}
