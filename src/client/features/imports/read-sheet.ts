import { IMPORT_MAX_BYTES } from '../../../domain/imports';

/**
 * A spreadsheet file read into rows of cells, the header first: CSV by Papa Parse, Excel (.xlsx,
 * its first sheet) by read-excel-file — both loaded only here, on the import screen. A file that
 * is too large, not what its name says, or malformed is refused in words, before anything is sent.
 */

export type Cell = string | number | boolean | null;

export class SheetProblem extends Error {}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A cell as the server takes it: dates as YYYY-MM-DD (as Excel shows them, in its own day), text trimmed. */
function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    return `${value.getUTCFullYear()}-${String(value.getUTCMonth() + 1).padStart(2, '0')}-${String(value.getUTCDate()).padStart(2, '0')}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return String(value).trim();
}

export async function readSheet(file: File): Promise<Cell[][]> {
  if (file.size > IMPORT_MAX_BYTES) {
    throw new SheetProblem(
      `${file.name} is ${megabytes(file.size)}; a file to import may be at most ${megabytes(IMPORT_MAX_BYTES)}. Split it.`,
    );
  }
  if (file.size === 0) throw new SheetProblem(`${file.name} is empty.`);
  const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
  const zipped = ZIP_MAGIC.every((byte, index) => head[index] === byte);
  const name = file.name.toLowerCase();
  let rows: Cell[][];
  if (name.endsWith('.xlsx')) {
    if (!zipped) throw new SheetProblem(`${file.name} is not an Excel workbook (.xlsx), whatever its name says.`);
    const { readSheet: readXlsx } = await import('read-excel-file/browser');
    try {
      rows = (await readXlsx(file)).map((row) => row.map(cellOf));
    } catch {
      throw new SheetProblem(`${file.name} could not be read as an Excel workbook: it may be damaged. Save it again from Excel and retry.`);
    }
  } else if (name.endsWith('.csv') || name.endsWith('.txt')) {
    if (zipped || head.includes(0)) throw new SheetProblem(`${file.name} is not a CSV text file, whatever its name says.`);
    const { default: Papa } = await import('papaparse');
    const text = await file.text();
    const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
    const broken = parsed.errors.find((error) => error.type === 'Quotes');
    if (broken)
      throw new SheetProblem(`${file.name} is not a well-formed CSV: a quote opened on row ${(broken.row ?? 0) + 1} is never closed.`);
    rows = parsed.data.map((row) => row.map(cellOf));
  } else {
    throw new SheetProblem(`${file.name} is neither a CSV (.csv) nor an Excel workbook (.xlsx).`);
  }
  const filled = rows.filter((row) => row.some((cell) => cell !== null && cell !== ''));
  if (filled.length < 2) throw new SheetProblem(`${file.name} has no rows under its header.`);
  return filled;
}

/** The template of a kind: its headers and one example row, as a CSV with a byte-order mark (Excel reads it as UTF-8). */
export function templateCsv(columns: readonly { label: string; example: string }[]): Blob {
  const quoted = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  const lines = [columns.map((column) => quoted(column.label)).join(','), columns.map((column) => quoted(column.example)).join(',')];
  return new Blob([`\uFEFF${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' });
}
