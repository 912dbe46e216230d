import { describe, expect, it } from 'vitest';
import { describeRefusedContent, detectFileKind, extensionOf, sanitizeFileName } from './file-content';

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((char) => char.charCodeAt(0)) : part)));

describe('detectFileKind', () => {
  it('knows the accepted images and PDF by their first bytes', () => {
    expect(detectFileKind(bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'))?.mimeType).toBe('image/jpeg');
    expect(detectFileKind(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))?.mimeType).toBe('image/png');
    expect(detectFileKind(bytes('GIF89a', [1, 0]))?.mimeType).toBe('image/gif');
    expect(detectFileKind(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '))?.mimeType).toBe('image/webp');
    expect(detectFileKind(bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0], 'mif1'))?.mimeType).toBe('image/heic');
    expect(detectFileKind(bytes([0, 0, 0, 0x18], 'ftypmif1', [0, 0, 0, 0], 'heic'))?.mimeType).toBe('image/heif');
    expect(detectFileKind(bytes('%PDF-1.7\n'))?.mimeType).toBe('application/pdf');
  });

  it('refuses everything else, and says what it is', () => {
    const refused = ['<svg xmlns="http://www.w3.org/2000/svg"/>', '#!/usr/bin/env node\n', '<html><script></script></html>', 'plain words'];
    for (const text of refused) expect(detectFileKind(bytes(text))).toBeUndefined();
    expect(describeRefusedContent(bytes('<!-- drawn -->\n<svg/>'))).toBe('an SVG image');
    expect(describeRefusedContent(bytes('#!/bin/sh'))).toBe('a script');
    expect(describeRefusedContent(bytes('<html>'))).toBe('an HTML or XML document');
    expect(describeRefusedContent(bytes('MZ', [0x90, 0]))).toBe('a program');
    expect(describeRefusedContent(bytes('PK', [3, 4, 0]))).toBe('a ZIP archive or an office document');
    expect(describeRefusedContent(bytes('Delivered: 10 boxes\r\n'))).toBe('text');
    expect(describeRefusedContent(bytes([0, 1, 2, 3]))).toBe('of a type that is not accepted');
    // AVIF is an ISO image too, but not one of ours.
    expect(detectFileKind(bytes([0, 0, 0, 0x18], 'ftypavif'))).toBeUndefined();
  });
});

describe('file names', () => {
  const png = detectFileKind(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]))!;

  it('finds an extension only where a letter says it is one', () => {
    expect(extensionOf('scan.PDF')).toBe('pdf');
    expect(extensionOf('INV.2026')).toBeUndefined();
    expect(extensionOf('.png')).toBeUndefined();
    expect(extensionOf('resibo ñ.jpg')).toBe('jpg');
  });

  it('keeps the last path part, drops control and invisible characters, keeps unicode letters', () => {
    expect(sanitizeFileName('C:\\Users\\ana\\resibo ñ.png', png)).toBe('resibo ñ.png');
    expect(sanitizeFileName('../../etc/passwd.png', png)).toBe('passwd.png');
    expect(sanitizeFileName('a\u0000b\r\nc.png', png)).toBe('abc.png');
    // A right-to-left override shows "photo<RLO>gnp.exe" as "photoexe.png"; without it, the real extension shows.
    expect(sanitizeFileName('photo\u202Egnp.exe', png)).toBe('photognp.exe');
    expect(sanitizeFileName('..hidden.png', png)).toBe('hidden.png');
  });

  it('names a file after its content when it has no extension, and keeps long names at 200 characters', () => {
    expect(sanitizeFileName('', png)).toBe('file.png');
    expect(sanitizeFileName('IMG 2026.11', png)).toBe('IMG 2026.11.png');
    const long = sanitizeFileName(`${'ñ'.repeat(300)}.png`, png);
    expect([...long]).toHaveLength(200);
    expect(long.endsWith('ñ.png')).toBe(true);
  });
});
