// CSV of an answer's rows, written in the browser from the rows the server sent
// (RFC 4180: comma separated, CRLF line ends, fields quoted when they need it).

const NUMBER = /^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/;

export function csvCell(value) {
  if (value === null || value === undefined) return "";
  let text = typeof value === "object" ? JSON.stringify(value) : String(value);
  // A spreadsheet runs a cell that starts like a formula; text from the database must
  // stay text (plain numbers are left alone).
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text) && !NUMBER.test(text)) {
    text = `'${text}`;
  }
  if (/[",\r\n]/.test(text) || /^\s|\s$/.test(text)) text = `"${text.replace(/"/g, '""')}"`;
  return text;
}

export function toCsv(columns, rows) {
  return [columns, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

export function downloadCsv(filename, columns, rows) {
  // The byte order mark makes spreadsheet programs read the file as UTF-8.
  const blob = new Blob(["\ufeff", toCsv(columns, rows)], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
