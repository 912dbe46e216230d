/**
 * What an uploaded file really is, read from its first bytes ("magic numbers") and never from
 * its name or the type the browser claims: images (JPEG, PNG, GIF, WebP, HEIC/HEIF) and PDF
 * only. SVG is refused although it is an image: it is XML that can carry script.
 */

export interface FileKind {
  mimeType: string;
  /** Words for messages: "a PNG image". */
  description: string;
  /** Extensions a name may end in for this content; the first is added to names without one. */
  extensions: readonly string[];
}

const JPEG: FileKind = { mimeType: 'image/jpeg', description: 'a JPEG image', extensions: ['jpg', 'jpeg', 'jpe', 'jfif'] };
const PNG: FileKind = { mimeType: 'image/png', description: 'a PNG image', extensions: ['png'] };
const GIF: FileKind = { mimeType: 'image/gif', description: 'a GIF image', extensions: ['gif'] };
const WEBP: FileKind = { mimeType: 'image/webp', description: 'a WebP image', extensions: ['webp'] };
const HEIC: FileKind = { mimeType: 'image/heic', description: 'a HEIC image', extensions: ['heic', 'heif'] };
const HEIF: FileKind = { mimeType: 'image/heif', description: 'a HEIF image', extensions: ['heif', 'heic'] };
const PDF: FileKind = { mimeType: 'application/pdf', description: 'a PDF document', extensions: ['pdf'] };

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** ISO base media brands (bytes 8–11 after `ftyp`) of HEIC and of other HEIF images. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);
const HEIF_BRANDS = new Set(['mif1', 'msf1']);

function isoBrand(bytes: Uint8Array): string | undefined {
  if (!startsWith(bytes, ascii('ftyp'), 4) || bytes.length < 12) return undefined;
  return String.fromCharCode(...bytes.subarray(8, 12));
}

/** The accepted kind of this content, or undefined when it is none of them. */
export function detectFileKind(bytes: Uint8Array): FileKind | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return JPEG;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return GIF;
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return WEBP;
  if (startsWith(bytes, ascii('%PDF-'))) return PDF;
  const brand = isoBrand(bytes);
  if (brand && HEIC_BRANDS.has(brand)) return HEIC;
  if (brand && HEIF_BRANDS.has(brand)) return HEIF;
  return undefined;
}

/** Names for refused content, so the message can say what was sent. */
export function describeRefusedContent(bytes: Uint8Array): string {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 512)).trimStart().toLowerCase();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg|<svg)/.test(head)) return 'an SVG image';
  if (head.startsWith('#!')) return 'a script';
  if (head.startsWith('<')) return 'an HTML or XML document';
  if (startsWith(bytes, ascii('MZ')) || startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return 'a program';
  if (startsWith(bytes, ascii('PK\x03\x04'))) return 'a ZIP archive or an office document';
  const printable = [...bytes.subarray(0, 512)].every((byte) => byte === 9 || byte === 10 || byte === 13 || byte >= 32);
  return printable ? 'text' : 'of a type that is not accepted';
}

/**
 * The extension of a name (lower case, without the dot), if it has one: up to eight letters or
 * digits with at least one letter, so "INV.2026" has none.
 */
export function extensionOf(name: string): string | undefined {
  const match = /\.([\p{L}\p{N}]{1,8})$/u.exec(name);
  return match && match.index > 0 && /\p{L}/u.test(match[1]) ? match[1].toLowerCase() : undefined;
}

const MAX_NAME_LENGTH = 200;

/**
 * A name safe to store and to send back in a header: the last part of any path, without control
 * or invisible formatting characters (a right-to-left override can disguise "gpj.exe"),
 * normalised, and at most 200 characters with its extension kept. Unicode letters stay:
 * "resibo ñ.jpg".
 */
export function sanitizeFileName(raw: string, kind: FileKind): string {
  const lastPart = raw.split(/[/\\]/).pop() ?? '';
  let name = lastPart
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cn}]/gu, '')
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/^\.+/, '');
  const extension = extensionOf(name);
  if (extension === undefined) name = `${name || 'file'}.${kind.extensions[0]}`;
  const characters = [...name];
  if (characters.length <= MAX_NAME_LENGTH) return name;
  const suffix = `.${extensionOf(name)}`;
  return (
    characters
      .slice(0, MAX_NAME_LENGTH - suffix.length)
      .join('')
      .trimEnd() + suffix
  );
}
