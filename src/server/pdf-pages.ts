import PDFDocument from 'pdfkit';
import type { ReportBusiness } from '../domain/reports';
import { giveWay } from './yielding';

/**
 * What the server's printable PDFs share (a statement of account, the inventory list): A4 pages
 * set in the PDF's standard Helvetica, which has no peso sign — amounts read "PHP 1,234.50" — a
 * letterhead, tables whose rows run onto new pages with their heading again at the top of each,
 * and every page numbered at the bottom. Nothing here knows what a table holds: its columns are
 * passed in.
 *
 * Speed: pdfkit's line wrapping is most of what a table costs, so a cell whose lines each fit their
 * column is set line by line without it, where the wrapping would have put them; only a cell that
 * does not fit is wrapped. Texts are measured from widths read from pdfkit once for each character
 * and pair of characters (`widthOf`). A table of thousands of pages goes further (`direct`): its
 * lines are written into the page in one piece for each row, not in the eight pdfkit writes for
 * each line. Long tables give other requests their turns as they go (`giveWay`).
 */

export const A4_WIDTH = 595.28;
export const A4_HEIGHT = 841.89;
export const MARGIN = 40;
/** The width between the margins. */
export const WIDTH = A4_WIDTH - 2 * MARGIN;
/** Where a table stops on a page: above the page number. */
export const TABLE_BOTTOM = A4_HEIGHT - MARGIN - 18;
/** The space around a cell's text. */
export const PAD = 3;
/** The size of a table's text. */
export const TABLE_FONT_SIZE = 8;

export type Doc = PDFKit.PDFDocument;

/**
 * A column of a table: its heading, width (the widths add up to `WIDTH`) and alignment. With
 * `maxLines`, a longer cell is cut at that many lines, its last one ending in "…": without it, a
 * cell runs as long as its text.
 */
export type Column = { heading: string; width: number; align: 'left' | 'right'; maxLines?: number };

const figures = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `PHP 1,234.50`; `-PHP 12.00` below nothing. */
export function phpAmount(pesos: number): string {
  const rounded = Math.abs(pesos) < 0.005 ? 0 : pesos;
  return `${rounded < 0 ? '-' : ''}PHP ${figures.format(Math.abs(rounded))}`;
}

/** The characters of Windows-1252 beyond Latin-1, which the standard fonts draw too. */
const WIN_ANSI_EXTRAS = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

/** Text of printable ASCII only, which every font draws: most of what goes on a page. */
const PLAIN = /^[\x20-\x7e\n]*$/;

/** Text as the standard fonts can draw it: what they have no glyph for becomes "?". */
export function drawable(text: string): string {
  if (PLAIN.test(text)) return text;
  return [...text]
    .map((char) => {
      const code = char.codePointAt(0)!;
      return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.includes(char) || char === '\n'
        ? char
        : '?';
    })
    .join('');
}

/**
 * A new A4 document, and `finish`, which ends it and answers its bytes. With `bufferPages`, every
 * page is held until the end, so that `numberPages` can go back to each; without, each page is
 * written out when the next begins, which a document of thousands of pages needs to fit in memory.
 */
export function a4Document(info: { title: string; author: string }, bufferPages: boolean): { doc: Doc; finish: () => Promise<Buffer> } {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages,
    info: { Title: drawable(info.title), Author: drawable(info.author) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  return {
    doc,
    finish: async () => {
      doc.end();
      await ended;
      return Buffer.concat(chunks);
    },
  };
}

/** Lines of text from `x` down from `y`, `width` wide; answers where they end. */
export function lines(
  doc: Doc,
  texts: (string | null | undefined)[],
  x: number,
  y: number,
  width: number,
  align: 'left' | 'right' = 'left',
): number {
  let at = y;
  for (const text of texts) {
    if (!text) continue;
    doc.text(drawable(text), x, at, { width, align });
    at = doc.y;
  }
  return at;
}

/** A line across the page at `y`. */
export function rule(doc: Doc, y: number, weight = 0.5): void {
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + WIDTH, y)
    .lineWidth(weight)
    .stroke();
}

/**
 * The top of a first page: the business (name, trade name, address, TIN) on the left, the title and
 * the lines under it on the right, and a rule under both; answers where the rule is.
 */
export function letterhead(doc: Doc, business: ReportBusiness, title: string, details: (string | null | undefined)[]): number {
  const right = 200;
  doc.font('Helvetica-Bold').fontSize(13);
  let left = lines(doc, [business.name], MARGIN, MARGIN, WIDTH - right - 10);
  doc.font('Helvetica').fontSize(9);
  left = lines(
    doc,
    [business.trade_name && `Business name: ${business.trade_name}`, business.address, business.tin && `TIN: ${business.tin}`],
    MARGIN,
    left,
    WIDTH - right - 10,
  );
  doc.font('Helvetica-Bold').fontSize(15);
  let top = lines(doc, [title], MARGIN + WIDTH - right, MARGIN, right, 'right');
  doc.font('Helvetica').fontSize(9);
  top = lines(doc, details, MARGIN + WIDTH - right, top + 2, right, 'right');
  const y = Math.max(left, top) + 8;
  rule(doc, y, 1.5);
  return y;
}

/** The bytes of Windows-1252 that `WIN_ANSI_EXTRAS` stand for, in their order (it leaves 0x81, 0x8d, 0x8f, 0x90 and 0x9d out). */
const WIN_ANSI_BYTES = [
  0x80, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8e, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a,
  0x9b, 0x9c, 0x9e, 0x9f,
];
const WIN_ANSI_CODES = new Map([...WIN_ANSI_EXTRAS].map((char, at) => [char.charCodeAt(0), WIN_ANSI_BYTES[at]]));
const WIN_ANSI_CHARS = new Map(WIN_ANSI_BYTES.map((byte, at) => [byte, WIN_ANSI_EXTRAS[at]]));

/** The byte the standard fonts draw a character by (what they lack is "?", as `drawable` has it). */
function winAnsi(code: number): number {
  return code < 0x100 ? code : (WIN_ANSI_CODES.get(code) ?? 0x3f);
}

/** The character a byte stands for. */
const charOf = (byte: number) => WIN_ANSI_CHARS.get(byte) ?? String.fromCharCode(byte);

/**
 * What one font's characters measure, in thousandths of its size, by their bytes: their widths,
 * and what kerning takes off (or adds) between two of them — pdfkit's figures, asked of it once
 * each (`UNKNOWN` until then). They are the same for every document.
 */
interface Metrics {
  widths: Int16Array;
  kerns: Int16Array;
}
const UNKNOWN = 0x7fff;
const METRICS = new Map<string, Metrics>();

function metricsOf(font: string): Metrics {
  let metrics = METRICS.get(font);
  if (!metrics) {
    metrics = { widths: new Int16Array(0x100).fill(UNKNOWN), kerns: new Int16Array(0x10000).fill(UNKNOWN) };
    METRICS.set(font, metrics);
  }
  return metrics;
}

/** pdfkit's width of a text in the document's font, in thousandths of its size; leaves the size at `size`. */
function askedUnits(doc: Doc, size: number, text: string): number {
  const units = doc.fontSize(1000).widthOfString(text);
  doc.fontSize(size);
  return Math.round(units);
}

/** The width of `text` in thousandths of the size, as pdfkit adds it up (each character's, and the kerning of each pair); the document is in `font` at `size`. */
function unitsOf(doc: Doc, font: string, size: number, text: string): number {
  const { widths, kerns } = metricsOf(font);
  let units = 0;
  let previous = -1;
  for (let at = 0; at < text.length; at++) {
    const byte = winAnsi(text.charCodeAt(at));
    let width = widths[byte];
    if (width === UNKNOWN) width = widths[byte] = askedUnits(doc, size, charOf(byte));
    units += width;
    if (previous >= 0) {
      const pair = previous * 0x100 + byte;
      let kern = kerns[pair];
      if (kern === UNKNOWN) kern = kerns[pair] = askedUnits(doc, size, charOf(previous) + charOf(byte)) - widths[previous] - width;
      units += kern;
    }
    previous = byte;
  }
  return units;
}

/** What `doc.widthOfString(text)` answers, to the last digit, in a fraction of its time: the document is in `font` at `size`. */
export function widthOf(doc: Doc, font: string, size: number, text: string): number {
  return (unitsOf(doc, font, size, text) * (size / 1000) * 100) / 100;
}

/**
 * A row of a table laid out but not drawn: its cells as the fonts draw them, each cell's lines when
 * they all fit the column as they are (null: the cell is wrapped), and the row's height.
 */
export interface LaidRow {
  font: string;
  size: number;
  texts: string[];
  unwrapped: (string[] | null)[];
  height: number;
}

/** How close to a column's edge a line may come and still be set unwrapped: wrapping decides lines that close. */
const SLACK = 0.01;

/** The text's lines when each fits `room` and there are no more than `maxLines`; null when it must be wrapped. */
function unwrappedLines(doc: Doc, font: string, size: number, text: string, room: number, maxLines: number | undefined): string[] | null {
  // Wrapping sets a final line break as nothing: such a text is left to it.
  if (text.endsWith('\n')) return null;
  const split = text.includes('\n') ? text.split('\n') : [text];
  if (maxLines !== undefined && split.length > maxLines) return null;
  for (const line of split) if (widthOf(doc, font, size, line) > room - SLACK) return null;
  return split;
}

/**
 * A row of `cells` laid out in `font` at `size`. Its height is the tallest cell's and the padding,
 * reckoned as pdfkit's `heightOfString` reckons it, so that a row set unwrapped lands where a
 * wrapped one would.
 */
export function layRow(doc: Doc, columns: readonly Column[], cells: readonly string[], font: string, size = TABLE_FONT_SIZE): LaidRow {
  doc.font(font).fontSize(size);
  const lineHeight = doc.currentLineHeight(true);
  const texts: string[] = [];
  const unwrapped: (string[] | null)[] = [];
  let height = 0;
  for (let at = 0; at < cells.length; at++) {
    const { width, maxLines } = columns[at];
    const text = drawable(cells[at]);
    const split = unwrappedLines(doc, font, size, text, width - 2 * PAD, maxLines);
    let cell: number;
    if (split) {
      let end = doc.y;
      for (let line = 0; line < split.length; line++) end += lineHeight;
      cell = end - doc.y;
    } else {
      cell = doc.heightOfString(text || ' ', { width: width - 2 * PAD });
      if (maxLines !== undefined) cell = Math.min(cell, maxLines * lineHeight);
    }
    texts.push(text);
    unwrapped.push(split);
    height = Math.max(height, cell);
  }
  return { font, size, texts, unwrapped, height: height + 2 * PAD };
}

/** pdfkit's current font, of which its typings leave out what writing text into a page needs. */
type PdfkitFont = { id: string; ascender: number; ref(): unknown };
const currentFont = (doc: Doc) => (doc as unknown as { _font: PdfkitFont })._font;

const HEX = Array.from({ length: 0x100 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** A number as pdfkit writes one into a page: to six places. */
const figure = (value: number) => String(Math.round(value * 1e6) / 1e6);

/** A line as the PDF's TJ operator shows it: the characters' bytes, and the kerning between pairs. */
function shown(doc: Doc, font: string, size: number, text: string): string {
  const { widths, kerns } = metricsOf(font);
  let out = '[<';
  let previous = -1;
  for (let at = 0; at < text.length; at++) {
    const byte = winAnsi(text.charCodeAt(at));
    if (previous >= 0) {
      const pair = previous * 0x100 + byte;
      // Known once the line was measured, as every line is before it is drawn.
      const kern =
        kerns[pair] === UNKNOWN ? unitsOf(doc, font, size, charOf(previous) + charOf(byte)) - widths[previous] - widths[byte] : kerns[pair];
      if (kern !== 0) out += `> ${-kern} <`;
    }
    out += HEX[byte];
    previous = byte;
  }
  return `${out}>] TJ`;
}

/**
 * A laid-out row drawn from `y`. With `direct`, the lines of the cells that fit unwrapped are
 * written into the page in one piece, where pdfkit's `text` would set them: back from pdfkit's
 * top-down coordinates to the PDF's, each line's top left at its baseline less the font's ascent.
 */
export function drawRow(doc: Doc, columns: readonly Column[], laid: LaidRow, y: number, direct = false): void {
  const { font, size } = laid;
  doc.font(font).fontSize(size);
  const lineHeight = doc.currentLineHeight(true);
  let content = '';
  let ascent = 0;
  if (direct) {
    const pdfFont = currentFont(doc);
    doc.page.fonts[pdfFont.id] ??= pdfFont.ref();
    ascent = (pdfFont.ascender / 1000) * size;
    content = `q\n1 0 0 -1 0 ${figure(doc.page.height)} cm\nBT\n/${pdfFont.id} ${figure(size)} Tf`;
  }
  let x = MARGIN;
  laid.texts.forEach((text, at) => {
    const { width, align, maxLines } = columns[at];
    const split = laid.unwrapped[at];
    const room = width - 2 * PAD;
    if (!split) {
      // Cut at `maxLines` lines: a height of half a line more lets pdfkit end the last in "…".
      const cut = maxLines === undefined ? {} : { height: (maxLines + 0.5) * lineHeight, ellipsis: true };
      doc.text(text, x + PAD, y + PAD, { width: room, align, ...cut });
    } else {
      // Each line where wrapping would set it, and the document's position left where it would leave it.
      let end = y + PAD;
      for (const line of split) {
        const left = align === 'right' ? x + PAD + ((room * 100) / 100 - widthOf(doc, font, size, line.replace(/\s+$/, ''))) : x + PAD;
        if (line && direct)
          content += `\n1 0 0 1 ${figure(left)} ${figure(doc.page.height - end - ascent)} Tm\n${shown(doc, font, size, line)}`;
        else if (line) doc.text(line, left, end, { lineBreak: false });
        end += lineHeight;
      }
      doc.x = x + PAD;
      doc.y = text ? end : y + PAD;
    }
    x += width;
  });
  if (direct) doc.addContent(`${content}\nET\nQ`);
}

/**
 * Where things go down the pages: `y`, and a new page when what comes next would not fit above
 * `TABLE_BOTTOM`. It decides as it goes; or, for a document that numbers its pages "of N" without
 * holding them all until the end, it is run twice over the same layout — first `dry`, drawing
 * nothing and only counting the pages and noting where they broke, then, after `replay()`, drawing,
 * with the pages breaking where the dry run broke them (`onPage` numbers each as it begins).
 */
export class PageFlow {
  /** Where the next thing goes on the page. */
  y: number;
  /** The page being laid out, from 1. */
  page = 1;
  /** How many pages there are: known once a dry run has been replayed. */
  pages: number | null = null;
  drawing: boolean;
  /** The `room` asks (by their count) that took a new page in the dry run. */
  private readonly breaks: number[] = [];
  private asked = 0;
  private replaying = false;
  private readonly top: number;
  private readonly onPage?: (flow: PageFlow) => void;

  constructor(
    readonly doc: Doc,
    options: { top: number; dry?: boolean; onPage?: (flow: PageFlow) => void },
  ) {
    this.y = this.top = options.top;
    this.drawing = !options.dry;
    this.onPage = options.onPage;
  }

  /** After a dry run: back to the top of the first page, to lay the same out again, drawing it. */
  replay(): void {
    this.pages = this.page;
    this.page = 1;
    this.y = this.top;
    this.asked = 0;
    this.drawing = true;
    this.replaying = true;
  }

  /** Room for `height` more below `y`: when it would not fit on this page, a new one. Answers whether it took one. */
  room(height: number): boolean {
    const ask = this.asked++;
    const breaks = this.replaying ? this.breaks[this.page - 1] === ask : this.y + height > TABLE_BOTTOM;
    if (!breaks) return false;
    if (!this.drawing) this.breaks.push(ask);
    this.page++;
    this.y = MARGIN;
    if (this.drawing) {
      this.doc.addPage();
      this.onPage?.(this);
    }
    return true;
  }
}

/** A table laid out down a `PageFlow`: its heading, and again at the top of each page its rows run onto. */
export class PagedTable {
  /** With `direct`, its rows' lines are written into the pages directly (`drawRow`). */
  constructor(
    readonly flow: PageFlow,
    readonly columns: readonly Column[],
    readonly direct = false,
  ) {}

  /** The heading where the flow is, and a rule under it. */
  heading(): void {
    const { flow, columns } = this;
    const laid = layRow(
      flow.doc,
      columns,
      columns.map((column) => column.heading),
      'Helvetica-Bold',
    );
    if (flow.drawing) {
      drawRow(flow.doc, columns, laid, flow.y, this.direct);
      rule(flow.doc, flow.y + laid.height, 1);
    }
    flow.y += laid.height;
  }

  /** How tall the heading is. */
  headingHeight(): number {
    return layRow(
      this.flow.doc,
      this.columns,
      this.columns.map((column) => column.heading),
      'Helvetica-Bold',
    ).height;
  }

  /** Room for `height` more: on a new page, under the heading. Answers whether it took a new page. */
  room(height: number): boolean {
    if (!this.flow.room(height)) return false;
    this.heading();
    return true;
  }

  /**
   * A row in `font` (in `columns` of the table's width: a total may span several), on a new page
   * when it would not fit on this one; with `ruleAbove`, a rule of that weight over it.
   */
  row(cells: readonly string[], font = 'Helvetica', columns: readonly Column[] = this.columns, ruleAbove?: number): void {
    const { flow } = this;
    let laid = layRow(flow.doc, columns, cells, font);
    // Laid out again where it now goes: the same, but for the last digits of its height.
    if (this.room(laid.height)) laid = layRow(flow.doc, columns, cells, font);
    if (flow.drawing) {
      if (ruleAbove) rule(flow.doc, flow.y, ruleAbove);
      drawRow(flow.doc, columns, laid, flow.y, this.direct);
    }
    flow.y += laid.height;
  }

  /** Rows with a faint rule under each, giving other requests their turns every `every` rows. */
  async rows(rows: Iterable<readonly string[]>, every = 1): Promise<void> {
    const { flow } = this;
    let count = 0;
    for (const cells of rows) {
      if (count++ % every === 0) await giveWay();
      this.row(cells);
      if (!flow.drawing) continue;
      if (this.direct) {
        // The same faint rule in one piece, its colour and width kept to it.
        const at = figure(flow.y);
        flow.doc.addContent(`q\n0.6 0.6 0.6 RG\n0.3 w\n${MARGIN} ${at} m\n${figure(MARGIN + WIDTH)} ${at} l\nS\nQ`);
      } else {
        flow.doc.strokeColor('#999999');
        rule(flow.doc, flow.y, 0.3);
        flow.doc.strokeColor('black');
      }
    }
  }
}

/** The page's number at its bottom, below the margin (where text would otherwise start a new page). */
export function pageFooter(doc: Doc, text: string): void {
  doc.page.margins.bottom = 0;
  doc
    .font('Helvetica')
    .fontSize(8)
    .text(drawable(text), MARGIN, A4_HEIGHT - MARGIN - 8, {
      width: WIDTH,
      align: 'center',
    });
}

/** Every page of a document that holds its pages (`bufferPages`) numbered: `label` words it. */
export function numberPages(doc: Doc, label: (page: number, pages: number) => string): void {
  const { start, count } = doc.bufferedPageRange();
  for (let page = start; page < start + count; page++) {
    doc.switchToPage(page);
    pageFooter(doc, label(page - start + 1, count));
  }
}
