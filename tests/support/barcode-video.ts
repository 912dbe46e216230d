import { writeFileSync } from 'node:fs';

/**
 * A video file for Chromium's fake camera (`--use-file-for-fake-video-capture`) showing one EAN-13
 * barcode, drawn here from the standard's tables so that a test needs no barcode library.
 */

const L = ['0001101', '0011001', '0010011', '0111101', '0100011', '0110001', '0101111', '0111011', '0110111', '0001011'];
/** G codes are R codes reversed; R codes are L codes inverted. */
const R = L.map((code) => [...code].map((bit) => (bit === '1' ? '0' : '1')).join(''));
const G = R.map((code) => [...code].reverse().join(''));
/** Which of L or G encodes each left-hand digit, by the first digit. */
const PARITY = ['LLLLLL', 'LLGLGG', 'LLGGLG', 'LLGGGL', 'LGLLGG', 'LGGLLG', 'LGGGLL', 'LGLGLG', 'LGLGGL', 'LGGLGL'];

/** Twelve digits and their check digit: the EAN-13 a product carries. */
export function ean13(twelve: string): string {
  if (!/^\d{12}$/.test(twelve)) throw new Error(`An EAN-13 starts with 12 digits, not ${twelve}.`);
  const sum = [...twelve].reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3), 0);
  return twelve + String((10 - (sum % 10)) % 10);
}

/** The 95 modules of an EAN-13, 1 for a bar. */
function modules(code: string): string {
  const digits = [...code].map(Number);
  const parity = PARITY[digits[0]];
  const left = digits.slice(1, 7).map((digit, index) => (parity[index] === 'L' ? L : G)[digit]);
  const right = digits.slice(7).map((digit) => R[digit]);
  return `101${left.join('')}01010${right.join('')}101`;
}

/**
 * Writes a Y4M (4:2:0) video of `frames` frames, each the barcode `code` in black on white in the
 * middle of a `width` × `height` picture, 4 pixels a module with the quiet zones around it.
 */
export function writeBarcodeVideo(path: string, code: string, { width = 640, height = 480, frames = 2 } = {}): void {
  const bars = modules(code);
  const moduleWidth = 4;
  const left = Math.floor((width - bars.length * moduleWidth) / 2);
  const top = Math.floor(height * 0.2);
  const bottom = Math.floor(height * 0.8);
  const luma = Buffer.alloc(width * height, 235);
  for (let y = top; y < bottom; y += 1) {
    for (let x = 0; x < bars.length * moduleWidth; x += 1) {
      if (bars[Math.floor(x / moduleWidth)] === '1') luma[y * width + left + x] = 16;
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(path, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
